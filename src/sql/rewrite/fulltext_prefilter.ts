/**
 * `matches` and `matches_term` run in JS once per row (functions/fulltext.ts). When the pattern is a
 * literal and the text a String column, SQLite's native, case-sensitive `instr` first tests what every
 * match must contain, and rows that cannot match skip the JS call. The CASE keeps each value exactly:
 * a NULL text makes `instr(...) = 0` NULL, which falls through to the call and its NULL, so
 * `NOT matches_term(...)` and SELECT-list uses (whose names come from the written text) are unchanged.
 */
import { quoteString } from "../../storage/table.ts";
import { requiredSubstrings } from "../functions/fulltext.ts";
import type { RewriteCtx, TokenRewrite } from "./context.ts";
import { columnRefName } from "./select_parts.ts";

/** The parts of a call the prefilter reads. */
export interface FulltextCall {
  name: string;
  close: number;
  /** Token ranges of the comma-separated arguments. */
  args: Array<[number, number]>;
  /** Argument `k` rewritten. */
  arg(k: number): string;
}

/** The substrings a match of the call's literal pattern must contain, or undefined when none are known. */
function mustContain(name: string, pattern: string): string[] | undefined {
  const terms = name === "matches_term" ? [pattern].filter((t) => t !== "") : requiredSubstrings(pattern);
  // a NUL would end the SQL string literal early
  return terms && terms.length > 0 && !terms.some((t) => t.includes("\0")) ? terms : undefined;
}

/** `matches(col, 'literal')` / `matches_term(col, 'literal')` behind an `instr` prefilter, when one applies. */
export function prefilterFulltext(c: RewriteCtx, call: FulltextCall): TokenRewrite | undefined {
  const { toks } = c;
  const [text, pattern] = call.args;
  if (call.args.length !== 2 || pattern[1] - pattern[0] !== 1 || toks[pattern[0]].kind !== "string") return;
  // a column reference: evaluated once more per row at no cost, and its type is known to be text
  if (columnRefName(toks, text[0], text[1]) === undefined) return;
  if (c.time.columnTypeAt(text[1] - 1) !== "String") return;
  const terms = mustContain(call.name, toks[pattern[0]].value);
  if (!terms) return;
  const col = call.arg(0);
  const absent = terms.map((t) => `instr(${col}, ${quoteString(t)}) = 0`).join(" OR ");
  return {
    text: `(CASE WHEN ${absent} THEN 0 ELSE ${call.name}(${col}, ${call.arg(1)}) END)`,
    next: call.close + 1,
  };
}
