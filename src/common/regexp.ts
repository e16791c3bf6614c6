import { linearWhenRisky } from "./linear_regexp.ts";

/**
 * A RegExp compiled now. V8 compiles a pattern on its first match, so a pattern too large for it
 * ("Regular expression too large") would otherwise throw from deep inside a query or a pipeline
 * instead of where the user's input is checked.
 */

/**
 * `new RegExp(source, flags)`, forced to compile for one- and two-byte subjects; throws SyntaxError.
 * Patterns V8 could backtrack exponentially on match in linear time instead (linear_regexp.ts).
 */
export function compileRegExp(source: string, flags = ""): RegExp {
  const re = new RegExp(source, flags);
  re.test("");
  re.test("\u0100");
  re.lastIndex = 0;
  return linearWhenRisky(re);
}

/** A SyntaxError's reason without the pattern V8 repeats in it (which may be huge). */
export function regExpErrorReason(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const m = /^Invalid regular expression: \/.*\/[a-z]*: ([^\n]*)$/s.exec(message);
  return m ? m[1] : message.slice(0, 200);
}
