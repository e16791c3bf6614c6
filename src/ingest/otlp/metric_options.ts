/**
 * The request headers that steer OTLP metric translation (reference §6.11): resource-attribute
 * promotion, scope promotion and the naming strategy. Read through a getter so any header source
 * (a `Headers`, a plain map) serves.
 */
import { invalidArguments } from "../../common/errors.ts";
import { isTruthyWord } from "../../common/hints.ts";
import { TRANSLATION_STRATEGIES, type TranslationStrategy } from "./metric_names.ts";

/** How OTLP metrics become series. */
export interface OtlpMetricOptions {
  translationStrategy: TranslationStrategy;
  /** Promote every resource attribute except `ignoreResourceAttrs`. */
  promoteAllResourceAttrs: boolean;
  /** Resource attributes promoted beyond the default list (when not promoting all). */
  promoteResourceAttrs: string[];
  ignoreResourceAttrs: string[];
  /** Add `otel_scope_*` labels. */
  promoteScopeAttrs: boolean;
}

/** GreptimeDB's defaults (no headers). */
export const DEFAULT_OTLP_METRIC_OPTIONS: OtlpMetricOptions = {
  translationStrategy: "UnderscoreEscapingWithSuffixes",
  promoteAllResourceAttrs: false,
  promoteResourceAttrs: [],
  ignoreResourceAttrs: [],
  promoteScopeAttrs: false,
};

/** The headers read, lowercase. */
export const OTLP_METRIC_HEADERS = {
  promoteAll: "x-greptime-otlp-metric-promote-all-resource-attrs",
  promote: "x-greptime-otlp-metric-promote-resource-attrs",
  ignore: "x-greptime-otlp-metric-ignore-resource-attrs",
  promoteScope: "x-greptime-otlp-metric-promote-scope-attrs",
  strategy: "x-greptime-otlp-metric-translation-strategy",
} as const;

function list(v: string | null): string[] {
  return v === null ? [] : v.split(";").map((s) => s.trim()).filter((s) => s !== "");
}

/** The options a request's headers ask for; 400 for an unknown translation strategy. */
export function otlpMetricOptions(header: (name: string) => string | null): OtlpMetricOptions {
  const all = isTruthyWord(header(OTLP_METRIC_HEADERS.promoteAll));
  const raw = header(OTLP_METRIC_HEADERS.strategy);
  let strategy: TranslationStrategy = DEFAULT_OTLP_METRIC_OPTIONS.translationStrategy;
  if (raw !== null) {
    const s = raw.trim();
    if (!(TRANSLATION_STRATEGIES as readonly string[]).includes(s)) {
      throw invalidArguments(
        `Invalid value for header ${OTLP_METRIC_HEADERS.strategy}: '${raw}'; expected one of ${
          TRANSLATION_STRATEGIES.join(", ")
        }`,
      );
    }
    strategy = s as TranslationStrategy;
  }
  return {
    translationStrategy: strategy,
    promoteAllResourceAttrs: all,
    promoteResourceAttrs: all ? [] : list(header(OTLP_METRIC_HEADERS.promote)),
    ignoreResourceAttrs: all ? list(header(OTLP_METRIC_HEADERS.ignore)) : [],
    promoteScopeAttrs: isTruthyWord(header(OTLP_METRIC_HEADERS.promoteScope)),
  };
}
