/**
 * DataFusion's bracket syntax for arrays, turned into calls before anything else reads the tokens:
 * the literals `[1, 2]` and `ARRAY[1, 2]` become `make_array(1, 2)`, indexing `a[2]` becomes
 * `array_element(a, 2)` and slicing `a[1:3]` becomes `array_slice(a, 1, 3)`. (SQLite would read
 * `[1,2]` as a quoted name.)
 */
import type { Cursor } from "./cursor.ts";
import type { Token } from "./lexer.ts";
import { isKeyword, isOp } from "./lexer.ts";
import { errorAt, isOperandEnd, synth } from "./query_tokens.ts";

/** Words after which `[` opens a literal, not an index. */
const BEFORE_LITERAL = new Set([
  "SELECT",
  "WHERE",
  "AND",
  "OR",
  "NOT",
  "WHEN",
  "THEN",
  "ELSE",
  "BY",
  "ON",
  "IN",
  "IS",
  "LIKE",
  "BETWEEN",
  "DISTINCT",
  "ALL",
  "ANY",
  "SOME",
  "HAVING",
  "RETURN",
  "VALUES",
  "CASE",
]);

/** Whether the token before `[` ends an operand (so the bracket indexes it). */
function indexes(prev: Token | undefined): boolean {
  if (!isOperandEnd(prev) || prev!.kind === "number" || prev!.kind === "string") return false;
  return !(prev!.kind === "ident" && BEFORE_LITERAL.has(prev!.text.toUpperCase()));
}

/** The index in `out` where the operand ending at its last token starts (a name, call or group). */
function operandStart(out: Token[]): number {
  let k = out.length - 1;
  if (isOp(out[k], ")")) {
    for (let depth = 0; k >= 0; k--) {
      if (isOp(out[k], ")")) depth++;
      else if (isOp(out[k], "(") && --depth === 0) break;
    }
    // `f(x)[1]` indexes the call; in `SELECT ([1, 2])[1]` the word before the brackets is no name
    const word = out[k - 1];
    if (word?.kind === "qident" || (word?.kind === "ident" && !BEFORE_LITERAL.has(word.text.toUpperCase()))) {
      k--;
    }
    return k;
  }
  while (k >= 2 && isOp(out[k - 1], ".")) k -= 2;
  return k;
}

/** The top-level parts of `toks` split at `sep` (brackets nest). */
function splitTop(toks: Token[], sep: string): Token[][] {
  const parts: Token[][] = [[]];
  let depth = 0;
  for (const t of toks) {
    if (isOp(t, "(")) depth++;
    else if (isOp(t, ")")) depth--;
    if (depth === 0 && isOp(t, sep)) parts.push([]);
    else parts[parts.length - 1].push(t);
  }
  return parts;
}

/** A bracket token as another operator at the same place (so the source text of a range still spans it). */
const at = (t: Token, text: string): Token => ({ kind: "op", text, value: text, pos: t.pos });

/** `name(args)`; the call's brackets stand where `open` and `close` were. */
function call(name: string, args: Token[][], open: Token, close: Token): Token[] {
  const out: Token[] = [synth("ident", name), at(open, "(")];
  args.forEach((a, k) => {
    if (k > 0) out.push(synth("op", ","));
    out.push(...(a.length === 0 ? [synth("ident", "NULL")] : a));
  });
  out.push(at(close, ")"));
  return out;
}

/** The statement's tokens with array brackets as calls; tokens without brackets come back as they are. */
export function expandArrayBrackets(tokens: Token[], cur: Cursor): Token[] {
  if (!tokens.some((t) => isOp(t, "["))) return tokens;
  const close = new Map<number, number>();
  const stack: number[] = [];
  tokens.forEach((t, i) => {
    if (isOp(t, "[")) stack.push(i);
    else if (isOp(t, "]")) {
      const open = stack.pop();
      if (open === undefined) throw errorAt(cur, t, "Expected: end of statement, found: ]");
      close.set(open, i);
    }
  });
  if (stack.length) throw errorAt(cur, tokens[stack[stack.length - 1]], "Expected: ], found: EOF");
  const convert = (a: number, b: number): Token[] => {
    const out: Token[] = [];
    for (let i = a; i < b; i++) {
      const t = tokens[i];
      if (!isOp(t, "[")) {
        out.push(t);
        continue;
      }
      const end = close.get(i)!;
      const inner = convert(i + 1, end);
      const prev = out[out.length - 1];
      if (isKeyword(prev, "ARRAY")) {
        out.pop();
        out.push(...call("make_array", inner.length ? splitTop(inner, ",") : [], t, tokens[end]));
      } else if (indexes(prev)) {
        const operand = out.splice(operandStart(out));
        const bounds = splitTop(inner, ":");
        if (bounds.length > 2 || (bounds.length === 1 && inner.length === 0)) {
          throw errorAt(cur, t, "Expected: an index [n] or a slice [from:to]");
        }
        const name = bounds.length === 1 ? "array_element" : "array_slice";
        out.push(...call(name, [operand, ...bounds], synth("op", "("), tokens[end]));
      } else out.push(...call("make_array", inner.length ? splitTop(inner, ",") : [], t, tokens[end]));
      i = end;
    }
    return out;
  };
  return convert(0, tokens.length);
}
