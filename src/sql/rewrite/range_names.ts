/**
 * The output names of range query items, as GreptimeDB gives them: each aggregate shows as
 * `<aggregate> RANGE <interval>[ FILL <fill>]` inside DataFusion's name of the item.
 */
import type { Token } from "../lexer.ts";
import { outputName } from "../output_columns.ts";
import { originalText, SYNTHETIC } from "../query_tokens.ts";
import { writtenName } from "../display_name.ts";
import type { Fill, RangeAgg, RangeQuery } from "./range_parse.ts";
import type { RangeRender } from "./range_select.ts";

/** The FILL text of a column name (`NULL`, `PREV`, `LINEAR`, `6`). */
function fillText(f: Fill): string {
  return f.kind === "const" ? String(f.value) : f.kind.toUpperCase();
}

/**
 * GreptimeDB's name of an item holding range aggregates: the item's text with each aggregate named
 * `<aggregate> RANGE <interval>[ FILL <fill>]` (`max(host.val) RANGE 5s FILL NULL`).
 */
export function itemName(r: RangeRender, s: number, e: number, spans: RangeAgg[], rq: RangeQuery): string {
  const { toks } = r.outCtx.q;
  const sql = r.env.sql;
  const display = (a: RangeAgg) => {
    const original = originalText(sql, toks, a.start, a.callEnd);
    const agg = outputName(r.outCtx, a.start, a.callEnd, original, true) ?? original;
    const fill = a.fill ?? rq.fill;
    return `${agg} RANGE ${a.range.text}${fill ? ` FILL ${fillText(fill)}` : ""}`;
  };
  // each aggregate shows its RANGE; the clause after a bracketed expression is dropped
  const pieces = [
    ...spans.map((a) => ({ start: a.start, end: a.end, text: display(a) })),
    ...rq.clauses.filter(([a, b]) => a >= s && b <= e).map(([a, b]) => ({ start: a, end: b, text: "" })),
  ].sort((x, y) => x.start - y.start);
  // made-up tokens only inside a RANGE clause (`'1h'::INTERVAL` read as a CAST) leave the text whole
  const clauses = [...spans.map((a): [number, number] => [a.callEnd, a.end]), ...rq.clauses];
  const madeUp = (k: number) => toks[k].pos === SYNTHETIC && !clauses.some(([a, b]) => k >= a && k < b);
  if (toks.slice(s, e).some((_, k) => madeUp(s + k))) return originalText(sql, toks, s, e);
  const spliced = (text: (p: typeof pieces[number], n: number) => string) => {
    let out = "";
    let pos = toks[s].pos;
    pieces.forEach((p, n) => {
      const before = p.text === "" ? textEnd(sql, toks, p.start - 1) : toks[p.start].pos;
      out += sql.slice(pos, before) + text(p, n);
      pos = textEnd(sql, toks, p.end - 1);
    });
    const last = toks[e - 1];
    return out + sql.slice(pos, last.pos + last.text.length);
  };
  // DataFusion names what is around the aggregates (`Int64(2) * min(t.v) RANGE 5s`), each aggregate
  // standing in as a column; forms it does not name (brackets) keep the text
  // (an item without range aggregates, such as a BY expression, keeps its text as it did)
  const named = spans.length === 0
    ? undefined
    : writtenName(r.outCtx, spliced((p, n) => p.text && `${PLACEHOLDER}${n}`), toks[s].pos);
  return named?.replace(new RegExp(`${PLACEHOLDER}(\\d+)`, "g"), (_, n) => pieces[Number(n)].text) ??
    spliced((p) => p.text);
}

/** Stands for a range aggregate while DataFusion's name of the item around it is made. */
const PLACEHOLDER = "__petrel_range.__petrel_agg";

/**
 * Where token `k`'s text ends in the SQL; for a made-up token, after the last real token before it
 * and a `::INTERVAL` cast it was made from.
 */
function textEnd(sql: string, toks: Token[], k: number): number {
  if (toks[k].pos !== SYNTHETIC) return toks[k].pos + toks[k].text.length;
  let j = k;
  while (j > 0 && toks[j].pos === SYNTHETIC) j--;
  const end = toks[j].pos + toks[j].text.length;
  const cast = /^\s*::\s*interval\b/i.exec(sql.slice(end));
  return end + (cast ? cast[0].length : 0);
}
