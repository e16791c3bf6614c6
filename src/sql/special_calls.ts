/**
 * The SQL-standard call syntaxes sqlparser reads into DataFusion function calls, with keywords where
 * arguments would have commas: `substring(s FROM a FOR n)` is `substr(s, a, n)`, `trim(LEADING c FROM
 * s)` is `ltrim(s, c)`, `overlay(s PLACING x FROM a FOR n)` is `overlay(s, x, a, n)`, `position(n IN
 * s)` is `strpos(s, n)` and `extract(f FROM t)` is `date_part('F', t)`. One reading serves the
 * rewrite into SQLite calls and the output column's DataFusion name.
 */
import { isKeyword, isOp, type Token } from "./lexer.ts";
import type { QueryTokens } from "./query_tokens.ts";

/** An argument of the call DataFusion plans: a token range, or a literal it supplies itself. */
export type SpecialArg = { range: [number, number] } | { sql: string; name: string };

/** A special-syntax call read as the plain call DataFusion plans from it. */
export interface SpecialCall {
  /** DataFusion's function name (its column names print it). */
  fn: string;
  args: SpecialArg[];
}

const TRIM_SIDES: Record<string, string> = { BOTH: "btrim", LEADING: "ltrim", TRAILING: "rtrim" };

/** `substring`'s start when only FOR is given: DataFusion's planner supplies `Int64(1)`. */
const FIRST = { sql: "1", name: "Int64(1)" };

/**
 * The special-syntax call whose `(` is token `open` (the name before it), or undefined when it is
 * written as a plain comma-separated call (or is no such function).
 */
export function specialCall(q: QueryTokens, open: number): SpecialCall | undefined {
  const { toks, match } = q;
  const name = toks[open - 1];
  const close = match[open];
  if (name?.kind !== "ident" || !isOp(toks[open], "(") || close === undefined) return undefined;
  // the keywords that separate the arguments, at the call's own depth
  const marks: number[] = [];
  for (let k = open + 1; k < close; k++) {
    if (q.parent[k] !== open) continue;
    if (isOp(toks[k], ",")) return undefined;
    if (isKeyword(toks[k], "FROM", "FOR", "PLACING", "IN", "BOTH", "LEADING", "TRAILING")) marks.push(k);
  }
  const range = (s: number, e: number): SpecialArg | undefined => (s < e ? { range: [s, e] } : undefined);
  const at = (word: string) => marks.find((k) => isKeyword(toks[k], word));
  switch (name.text.toLowerCase()) {
    case "substring":
    case "substr":
      return substring(open, close, at("FROM"), at("FOR"), range);
    case "trim":
      return trim(toks, open, close, marks, range);
    case "overlay": {
      const placing = at("PLACING"), from = at("FROM"), forAt = at("FOR");
      if (placing === undefined || from === undefined || from < placing) return undefined;
      const parts = [
        range(open + 1, placing),
        range(placing + 1, from),
        range(from + 1, forAt ?? close),
        ...(forAt === undefined ? [] : [range(forAt + 1, close)]),
      ];
      return complete("overlay", parts);
    }
    case "position": {
      const inAt = at("IN");
      return inAt === undefined
        ? undefined
        : complete("strpos", [range(inAt + 1, close), range(open + 1, inAt)]);
    }
    case "extract": {
      const field = toks[open + 1];
      if (field?.kind !== "ident" || !isKeyword(toks[open + 2], "FROM")) return undefined;
      const text = field.text.toUpperCase();
      return complete("date_part", [{ sql: `'${text}'`, name: `Utf8("${text}")` }, range(open + 3, close)]);
    }
  }
  return undefined;
}

/** `substring(s FROM a [FOR n])`, `substring(s FOR n)`. */
function substring(
  open: number,
  close: number,
  from: number | undefined,
  forAt: number | undefined,
  range: (s: number, e: number) => SpecialArg | undefined,
): SpecialCall | undefined {
  if (from === undefined && forAt === undefined) return undefined;
  if (from !== undefined && forAt !== undefined && forAt < from) return undefined;
  const value = range(open + 1, from ?? forAt!);
  const start = from === undefined ? FIRST : range(from + 1, forAt ?? close);
  return complete("substr", [value, start, ...(forAt === undefined ? [] : [range(forAt + 1, close)])]);
}

/** `trim([BOTH|LEADING|TRAILING] [chars] FROM s)`, `trim(chars FROM s)`; plain `trim(s)` is btrim too. */
function trim(
  toks: Token[],
  open: number,
  close: number,
  marks: number[],
  range: (s: number, e: number) => SpecialArg | undefined,
): SpecialCall | undefined {
  const side = marks[0] === open + 1 ? TRIM_SIDES[toks[open + 1].text.toUpperCase()] : undefined;
  const from = marks.find((k) => isKeyword(toks[k], "FROM"));
  if (from === undefined) return side === undefined ? complete("btrim", [range(open + 1, close)]) : undefined;
  const charsStart = side === undefined ? open + 1 : open + 2;
  const value = range(from + 1, close);
  const chars = charsStart < from ? [range(charsStart, from)] : [];
  return complete(side ?? "btrim", [value, ...chars]);
}

/** The call, when every argument it needs was written. */
function complete(fn: string, args: Array<SpecialArg | undefined>): SpecialCall | undefined {
  return args.every((a) => a !== undefined) ? { fn, args: args as SpecialArg[] } : undefined;
}
