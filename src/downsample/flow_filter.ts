/**
 * A flow's WHERE (`FlowPredicate`) as an SQLite condition on its source table: identifiers quoted,
 * every literal a bound parameter, converted to what the column stores, as GreptimeDB coerces a
 * literal to its column's type: a timestamp string or a number in the time index's unit, a
 * numeric string for a number column, TRUE/FALSE as 1/0, a number as its text for a string column.
 * Null tags stored as the empty-blob stand-in are read as NULL. LIKE becomes a case-sensitive GLOB
 * (DataFusion's LIKE is case-sensitive; the connection's LIKE may not be), `\` escaping `%` and `_`.
 *
 * Known corner: a tag or string holding U+0000 is stored as a BLOB (`storage/nul_text.ts`): `=`,
 * `!=` and IN still match it (the literal is bound as the same bytes), but it orders after every
 * text in `<`/`>`/BETWEEN and LIKE sees it only up to its first NUL.
 */
import { invalidArguments } from "../common/errors.ts";
import { unitOf } from "../common/time_unit.ts";
import { isTimestampType } from "../storage/datatypes.ts";
import { storedText } from "../storage/nul_text.ts";
import { type ColumnMeta, nullTagColumns, quoteIdent, type TableMeta } from "../storage/table.ts";
import type { RowFilter, SqlParam } from "../storage/window_aggregate.ts";
import { parseTimestampIn } from "../sql/time.ts";
import type { FlowLiteral, FlowPredicate } from "./flow_spec.ts";

const NUMERIC = /^(U?Int(8|16|32|64)|Float(32|64))$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The predicate with every column name passed through `resolve` (the source's own names). */
export function mapColumns(p: FlowPredicate, resolve: (name: string) => string): FlowPredicate {
  switch (p.op) {
    case "and":
    case "or":
      return { op: p.op, args: p.args.map((a) => mapColumns(a, resolve)) };
    case "not":
      return { op: "not", arg: mapColumns(p.arg, resolve) };
    default:
      return { ...p, column: resolve(p.column) };
  }
}

/** The predicate as a condition on table `t`; a literal its column cannot hold is a 400 naming both. */
export function filterSql(t: TableMeta, p: FlowPredicate): RowFilter {
  const params: SqlParam[] = [];
  const nullTags = new Set(nullTagColumns(t).map((c) => c.name));
  const walk = (p: FlowPredicate): string => {
    switch (p.op) {
      case "and":
      case "or":
        return `(${p.args.map(walk).join(` ${p.op.toUpperCase()} `)})`;
      case "not":
        return `(NOT ${walk(p.arg)})`;
    }
    const c = columnOf(t, p.column);
    const q = quoteIdent(c.name);
    // a null tag of a keyed table is stored as X'' (a key column cannot hold NULL)
    const ref = nullTags.has(c.name) ? `NULLIF(${q}, X'')` : q;
    const bind = (v: FlowLiteral) => {
      params.push(paramOf(c, v));
      return "?";
    };
    const not = "negated" in p && p.negated ? "NOT " : "";
    switch (p.op) {
      case "compare":
        return `${ref} ${p.cmp} ${bind(p.value)}`;
      case "in":
        return `${ref} ${not}IN (${p.values.map(bind).join(", ")})`;
      case "between":
        return `${ref} ${not}BETWEEN ${bind(p.low)} AND ${bind(p.high)}`;
      case "null":
        return `${ref} IS ${not}NULL`;
      case "like":
        if (c.type !== "String") {
          throw invalidArguments(
            `CREATE FLOW: LIKE on column ${c.name} of type ${c.type} (LIKE takes strings)`,
          );
        }
        params.push(storedText(globOf(p.pattern)));
        return `${ref} ${not}GLOB ?`;
    }
  };
  return { sql: walk(p), params };
}

function columnOf(t: TableMeta, name: string): ColumnMeta {
  const c = t.columns.find((c) => c.name === name);
  if (c === undefined) throw invalidArguments(`CREATE FLOW: column ${name} of ${t.name} does not exist`);
  return c;
}

/** A literal as the value column `c` stores for it. */
function paramOf(c: ColumnMeta, v: FlowLiteral): SqlParam {
  const shown = v.type === "string" ? `'${v.value}'` : v.type === "number" ? v.text : String(v.value);
  const mismatch = (why = "") =>
    invalidArguments(`CREATE FLOW: cannot compare column ${c.name} (${c.type}) with ${shown}${why}`);
  if (c.type === "String") {
    if (v.type === "string") return storedText(v.value);
    if (v.type === "number") return numberText(v.text);
    throw mismatch();
  }
  if (NUMERIC.test(c.type)) {
    if (v.type === "number") return numberParam(v.text);
    if (v.type === "string" && v.value.trim() !== "" && Number.isFinite(Number(v.value))) {
      return numberParam(v.value.trim());
    }
    throw mismatch();
  }
  if (c.type === "Boolean") {
    if (v.type === "boolean") return v.value ? 1 : 0;
    if (v.type === "string" && /^(true|false)$/i.test(v.value)) return /^true$/i.test(v.value) ? 1 : 0;
    throw mismatch();
  }
  if (isTimestampType(c.type)) {
    const unit = unitOf(c.type);
    if (v.type === "string") {
      const at = parseTimestampIn(v.value, unit);
      if (at === undefined) throw mismatch(" (not a timestamp)");
      return at;
    }
    if (v.type === "number") {
      const n = integerOf(v.text);
      if (n === undefined) throw mismatch(` (a whole number of the column's unit, ${unit})`);
      return n;
    }
    throw mismatch();
  }
  throw invalidArguments(`Unsupported in CREATE FLOW: a WHERE on column ${c.name} of type ${c.type}`);
}

/** A number token's text (`-12`, `0x1f`, `2.5e3`) as a bound number: an int64 stays exact. */
function numberParam(text: string): number | bigint {
  const n = integerOf(text);
  if (n !== undefined) return n >= -(2n ** 53n) && n <= 2n ** 53n ? Number(n) : n;
  const neg = text.startsWith("-");
  const body = text.replace(/^[+-]/, "");
  return neg ? -Number(body) : Number(body);
}

/** An integer literal within int64, else undefined. */
function integerOf(text: string): bigint | undefined {
  const neg = text.startsWith("-");
  const body = text.replace(/^[+-]/, "");
  if (!/^(\d+|0x[0-9a-fA-F]+)$/.test(body)) return undefined;
  const n = neg ? -BigInt(body) : BigInt(body);
  return n >= INT64_MIN && n <= INT64_MAX ? n : undefined;
}

/** A number compared with a string column: its text, as a cast to string would print it. */
function numberText(text: string): string {
  const n = integerOf(text);
  return n !== undefined ? n.toString() : String(numberParam(text));
}

/**
 * A LIKE pattern as a GLOB pattern: `%` → `*`, `_` → `?`, `\%`, `\_` and `\\` their character, GLOB's
 * own specials matched literally.
 */
function globOf(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    const next = pattern[i + 1];
    if (ch === "\\" && (next === "%" || next === "_" || next === "\\")) {
      out += literalGlob(pattern[++i]); // as arrow's LIKE: a backslash before anything else is itself
    } else if (ch === "%") out += "*";
    else if (ch === "_") out += "?";
    else out += literalGlob(ch);
  }
  return out;
}

function literalGlob(ch: string): string {
  return ch === "*" || ch === "?" || ch === "[" ? `[${ch}]` : ch;
}
