/**
 * `CAST(x AS type)` (and `x::type`, expanded to it) as DataFusion computes it: timestamps change
 * unit (truncating toward zero, as arrow's cast kernel divides), strings parse strictly (`'abc'`
 * fails, `'NaN'`/`'inf'` are floats, `'yes'` is true), integers are range-checked, dates are days.
 *
 * A cast that is a whole output column yields its own type (`ts::timestamp(0)` is TimestampSecond);
 * inside a larger expression a time value stays in the segment's unit, so comparisons with time
 * columns and literals keep working.
 */
import { invalidArguments, PetrelError, StatusCode } from "../../common/errors.ts";
import { floorDiv, NS_PER_UNIT, nsToUnit, type TimeUnit } from "../../common/time_unit.ts";
import { quoteString } from "../../storage/table.ts";
import { isKeyword, isOp } from "../lexer.ts";
import { castAs, type CastTarget, castTarget } from "../cast_type.ts";
import { INTEGER_RANGES } from "../../storage/datatypes.ts";
import type { DataType } from "../../common/rows.ts";
import type { DecimalSpec } from "../../common/decimal.ts";
import { CMP_OPS, errorAt, NOW_NAMES, TIME_RESULT_FUNCS } from "../query_tokens.ts";
import { parseIntervalNs, parseTimestampIn } from "../time.ts";
import type { RewriteCtx, TokenRewrite } from "./context.ts";
import { realOfScaled } from "./decimals.ts";
import { columnRefType, isUInt64Column, u64Digits, u64Real, u64Text } from "./uint64.ts";

const DAY_NS = 86_400_000_000_000n;

/** SQL converting an integer expression from one unit to another (integer division truncates, as arrow's). */
export function unitChange(x: string, from: TimeUnit, to: TimeUnit): string {
  if (from === to) return x;
  const f = NS_PER_UNIT[from], t = NS_PER_UNIT[to];
  return f > t ? `(${x} * ${f / t})` : `(${x} / ${t / f})`;
}

/** A constant from one unit to another, as {@link unitChange} computes it. */
function unitChangeConst(v: bigint, from: TimeUnit, to: TimeUnit): bigint {
  const f = NS_PER_UNIT[from], t = NS_PER_UNIT[to];
  return f >= t ? v * (f / t) : v / (t / f);
}

/** The unit of a timestamp-valued operand `[s, e)`: a time column, or a time function (segment unit). */
function operandUnit(c: RewriteCtx, s: number, e: number): TimeUnit | undefined {
  const { toks, q } = c;
  if (e - s === 1) return c.time.isTsColumn(s);
  if (e - s === 3 && isOp(toks[s + 1], ".")) return c.time.isTsColumn(s + 2);
  const name = toks[s].kind === "ident" ? toks[s].text.toLowerCase() : "";
  if (isOp(toks[s + 1], "(") && q.match[s + 1] === e - 1) {
    if (NOW_NAMES.has(name) || TIME_RESULT_FUNCS.has(name) || name.startsWith("to_timestamp")) {
      return c.time.unitAt(s);
    }
  }
  return undefined;
}

/** The signed number literal `[s, e)`, or undefined. */
function numberLiteral(c: RewriteCtx, s: number, e: number): string | undefined {
  const t = c.toks[e - 1];
  if (t?.kind !== "number" || e - s > 2) return undefined;
  if (e - s === 1) return t.text;
  return isOp(c.toks[s], "-") ? `-${t.text}` : isOp(c.toks[s], "+") ? t.text : undefined;
}

/** A value checked against the 64-bit range a cast to `type` needs (arrow's cast fails past it). */
function inInt64(v: bigint, type: string): bigint {
  const [min, max] = INTEGER_RANGES.Int64;
  if (v < min || v > max) throw invalidArguments(`Can't cast value ${v} to type ${type}`);
  return v;
}

/**
 * Whether SQLite's own CAST of a column of type `col` gives DataFusion's answer: it clamps and
 * truncates silently, so only casts that cannot overflow (a float, a decimal or a wider integer
 * into a narrower one can) go to it; the rest are range-checked by `__petrel_cast_number`.
 */
function nativeCastFits(col: DataType, target: CastTarget & { kind: "integer" | "real" }): boolean {
  if (!/^(U?Int|Float|Boolean|Timestamp|Date|Decimal)/.test(col)) return false;
  if (target.kind === "real") return true;
  const to = INTEGER_RANGES[target.type], from = INTEGER_RANGES[col];
  if (!to) return false;
  if (from) return col === "UInt64" || (from[0] >= to[0] && from[1] <= to[1]);
  return col === "Boolean" || (/^(Timestamp|Date)/.test(col) && target.type === "Int64");
}

/** Operators and words whose result is a Boolean; below every other operator, so one at the top makes the whole a predicate. */
const PREDICATE_OPS = [...CMP_OPS, "~", "!~", "~*", "!~*"];
const PREDICATE_WORDS = ["AND", "OR", "NOT", "IS", "IN", "LIKE", "ILIKE", "BETWEEN", "SIMILAR", "EXISTS"];

/**
 * Whether `[s, e)` is a predicate (`a > 1`, `x IS NULL`, `p AND q`): a comparison or logical word at its
 * top level, outside brackets and CASE … END. SQLite answers 1/0 for it where arrow's cast to a string
 * says 'true'/'false'.
 */
function isPredicate(c: RewriteCtx, s: number, e: number): boolean {
  const { toks, q } = c;
  if (isOp(toks[s], "(") && q.match[s] === e - 1) return isPredicate(c, s + 1, e - 1);
  // a subquery's WHERE is not its value
  if (isKeyword(toks[s], "SELECT", "WITH", "VALUES")) return false;
  let cases = 0;
  for (let k = s; k < e; k++) {
    const t = toks[k];
    if (isOp(t, "(") && q.match[k] > k) k = q.match[k];
    else if (isKeyword(t, "CASE")) cases++;
    else if (isKeyword(t, "END") && cases > 0) cases--;
    else if (cases === 0 && (isOp(t, ...PREDICATE_OPS) || isKeyword(t, ...PREDICATE_WORDS))) return true;
  }
  return false;
}

/** The user function behind a cast, or its variant answering NULL where the cast fails (`TRY_CAST`). */
function castFunction(name: string, safe: boolean): string {
  return safe ? `${name}_or_null` : name;
}

/** The unscaled integer SQL of `CAST(x AS DECIMAL(p, s))` whose brackets are `open`/`close`. */
export function decimalCastScaled(
  c: RewriteCtx,
  open: number,
  close: number,
  spec: DecimalSpec,
  safe = false,
): string {
  const as = castAs(c.toks, c.q.match, open, close), s = open + 1;
  const src = c.decimalExprAt(s, as);
  const lit = numberLiteral(c, s, as);
  const x = src
    ? `${src.sql}, ${src.spec.scale}`
    : `${
      lit !== undefined
        ? quoteString(lit)
        : isUInt64Column(c, [s, as])
        ? `(${u64Text(c.emit(s, as).trim())})`
        : c.emit(s, as).trim()
    }, NULL`;
  return `${castFunction("__petrel_to_decimal", safe)}(${x}, ${spec.precision}, ${spec.scale})`;
}

/**
 * `CAST(x AS type)`, or with `safe` `TRY_CAST(x AS type)`: NULL where the cast fails (a literal that
 * does not convert is NULL at once; the rest goes to the functions' `_or_null` variants).
 */
export function rewriteCast(
  c: RewriteCtx,
  open: number,
  close: number,
  safe = false,
): TokenRewrite | undefined {
  try {
    return castRewrite(c, open, close, safe);
  } catch (e) {
    if (!safe || !(e instanceof PetrelError) || e.code !== StatusCode.InvalidArguments) throw e;
    return { text: "NULL", next: close + 1 };
  }
}

function castRewrite(c: RewriteCtx, open: number, close: number, safe: boolean): TokenRewrite | undefined {
  const udf = (name: string) => castFunction(name, safe);
  const { toks, q } = c;
  const as = castAs(toks, q.match, open, close);
  if (as < 0) return undefined;
  const target = castTarget(toks, as + 1, close);
  if (!target) {
    // SQLite would take any word as a type name (affinity rules): DataFusion refuses it
    const word = toks[as + 1];
    if (word?.kind === "ident" || word?.kind === "qident") {
      throw errorAt(q.cursor, word, `Unsupported data type: ${word.value.toUpperCase()}`);
    }
    return undefined;
  }
  const s = open + 1, next = close + 1;
  const single = as === s + 1 && toks[s].kind === "string" ? toks[s] : undefined;
  const output = c.isOutputItem(open - 1, next);
  const segUnit = c.time.unitAt(open);
  const operand = () => c.emit(s, as).trim();
  const lit = numberLiteral(c, s, as);
  // a UInt64 column past 2^63 is stored as its two's complement (uint64.ts)
  const u64 = isUInt64Column(c, [s, as]);
  switch (target.kind) {
    case "timestamp": {
      // a subquery's item is its column's value: typed by the cast, as an output column is
      const p = target.unit, out = output || c.isSubqueryItem(open - 1, next) ? p : segUnit;
      if (single) {
        const v = parseTimestampIn(single.value, p, c.env.timezone);
        if (v === undefined) throw invalidArguments(`Cannot cast '${single.value}' to ${target.type}`);
        return { text: unitChangeConst(v, p, out).toString(), next };
      }
      if (lit !== undefined && /^-?\d+$/.test(lit)) {
        // arrow fails a cast past the 64-bit range (SQLite would read the literal as a rounded REAL)
        const v = unitChangeConst(inInt64(BigInt(lit), target.type), p, out);
        return { text: inInt64(v, target.type).toString(), next };
      }
      const from = operandUnit(c, s, as);
      const inP = from
        ? unitChange(operand(), from, p)
        : `${udf("__petrel_cast_ts")}(${operand()}, '${p}', ${c.tz})`;
      return { text: unitChange(inP, p, out), next };
    }
    case "date": {
      // a date meeting a time column compares as a timestamp in the column's unit
      const asTime = !output && c.time.hasTimeColumn(open);
      const days = (d: string) => asTime ? `(${d} * ${DAY_NS / NS_PER_UNIT[segUnit]})` : d;
      if (single) {
        const ns = parseTimestampIn(single.value, "ns", "UTC");
        if (ns === undefined) throw invalidArguments(`Cannot cast '${single.value}' to Date`);
        return {
          text: asTime
            ? nsToUnit(floorDiv(ns, DAY_NS) * DAY_NS, segUnit).toString()
            : floorDiv(ns, DAY_NS).toString(),
          next,
        };
      }
      const from = operandUnit(c, s, as);
      if (from) {
        const d = (DAY_NS / NS_PER_UNIT[from]).toString(), x = `(${operand()})`;
        return { text: days(`((${x} - ((${x} % ${d}) + ${d}) % ${d}) / ${d})`), next };
      }
      return { text: days(`${udf("__petrel_to_date")}(${operand()})`), next };
    }
    case "interval":
      return single ? { text: nsToUnit(parseIntervalNs(single.value), segUnit).toString(), next } : undefined;
    case "decimal": {
      const scaled = decimalCastScaled(c, open, close, target.spec, safe);
      return { text: output ? scaled : realOfScaled(scaled, target.spec.scale), next };
    }
    case "text": {
      const src = c.decimalExprAt(s, as);
      if (src) return { text: `${udf("__petrel_decimal_text")}(${src.sql}, ${src.spec.scale})`, next };
      // a timestamp becomes its ISO text, as arrow casts it (not its count of units)
      const from = operandUnit(c, s, as);
      if (from) return { text: `__petrel_ts_text(${operand()}, '${from}')`, next };
      if (u64) return { text: `(${u64Text(operand())})`, next };
      // SQLite holds a Boolean as 0/1: arrow casts it to 'true'/'false'
      if (isKeyword(toks[s], "TRUE", "FALSE") && as === s + 1) {
        return { text: `'${toks[s].text.toLowerCase()}'`, next };
      }
      if (columnRefType(c, [s, as]) === "Boolean" || isPredicate(c, s, as)) {
        return { text: `(CASE (${operand()}) WHEN 1 THEN 'true' WHEN 0 THEN 'false' END)`, next };
      }
      return { text: `CAST(${operand()} AS TEXT)`, next };
    }
    case "boolean":
      return { text: `${udf("__petrel_to_bool")}(${operand()})`, next };
    case "vector":
      return { text: `${udf("__petrel_to_vector")}(${operand()}, ${target.dim})`, next };
    case "integer":
    case "real": {
      const col = as === s + 1 ? c.time.columnTypeAt(s) : undefined;
      if (u64 && target.type !== "UInt64") {
        // past 2^63 the stored number is no value: the double, or the digits range-checked
        if (target.kind === "real") return { text: `(${u64Real(operand())})`, next };
        const x = operand();
        const low = nativeCastFits("UInt64", target)
          ? `CAST(${x} AS INTEGER)`
          : `${udf("__petrel_cast_number")}(${x}, '${target.type}')`;
        return {
          text: `(CASE WHEN ${x} < 0 THEN ${udf("__petrel_cast_number")}(${
            u64Digits(x)
          }, '${target.type}') ELSE ${low} END)`,
          next,
        };
      }
      if (col && nativeCastFits(col, target)) {
        return { text: `CAST(${operand()} AS ${target.kind === "real" ? "REAL" : "INTEGER"})`, next };
      }
      // an integer literal goes as its digits: SQLite would round one past 64 bits to a REAL
      const x = lit !== undefined && /^-?\d+$/.test(lit) ? quoteString(lit) : operand();
      return { text: `${udf("__petrel_cast_number")}(${x}, '${target.type}')`, next };
    }
    default:
      // SQLite's JSON is a numeric affinity (text would become 0): Json stays its JSON text
      if (target.type === "Json") return { text: `${udf("__petrel_to_json")}(${operand()})`, next };
      // SQLite's BINARY is a numeric affinity: bytes need BLOB
      return target.type === "Binary" ? { text: `CAST(${operand()} AS BLOB)`, next } : undefined;
  }
}
