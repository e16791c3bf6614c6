/**
 * Prometheus label matchers (`=`, `!=`, `=~`, `!~`) with Prometheus' semantics: regexes are fully
 * anchored, `.` matches a newline, and an absent label matches as the empty string.
 */

import { invalidArguments } from "./errors.ts";
import { re2ToJs } from "./re2.ts";
import { compileRegExp, regExpErrorReason } from "./regexp.ts";

/** Prometheus' label matcher kinds. */
export type MatcherType = "EQ" | "NEQ" | "RE" | "NRE";

/** A label matcher of a remote-read query. */
export interface LabelMatcher {
  type: MatcherType;
  name: string;
  value: string;
}

const regexCache = new Map<string, RegExp>();

/** Prometheus' fully anchored regex (`^(?:re)$`, dot matches newline); a bad pattern → 400. */
function matcherRegExp(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    try {
      const { source, flags } = re2ToJs(pattern);
      re = compileRegExp(source, flags);
    } catch (e) {
      const shown = pattern.length > 200 ? `${pattern.slice(0, 200)}…` : pattern;
      throw invalidArguments(
        `Invalid regular expression in matcher: ${shown}: ${regExpErrorReason(e)}`,
      );
    }
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re;
}

/** Whether a label value satisfies a matcher; an absent label matches as the empty string. */
export function matchLabel(m: LabelMatcher, value: string | undefined | null): boolean {
  const v = value ?? "";
  switch (m.type) {
    case "EQ":
      return v === m.value;
    case "NEQ":
      return v !== m.value;
    case "RE":
      return matcherRegExp(m.value).test(v);
    case "NRE":
      return !matcherRegExp(m.value).test(v);
  }
}

/** Whether a label set satisfies every matcher. */
export function matchLabels(matchers: LabelMatcher[], labels: Record<string, string>): boolean {
  for (const m of matchers) {
    if (!matchLabel(m, Object.hasOwn(labels, m.name) ? labels[m.name] : undefined)) return false;
  }
  return true;
}
