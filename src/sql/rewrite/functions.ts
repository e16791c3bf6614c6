/**
 * Function calls GreptimeDB and SQLite read differently, one handler per function name: time
 * functions become integer arithmetic or `__petrel_*` user functions in the unit of the segment,
 * casts keep DataFusion's strictness, and a few names map to SQLite's spelling.
 */
import { invalidArguments, PetrelError, StatusCode } from "../../common/errors.ts";
import { NS_PER_UNIT, nsToUnit, type TimeUnit } from "../../common/time_unit.ts";
import { isVectorType } from "../../common/vector.ts";
import { quoteString } from "../../storage/table.ts";
import { isKeyword, isOp } from "../lexer.ts";
import {
  FIXED_TRUNC_NS,
  fixedOffsetMinutes,
  NUMERIC_AGGREGATES,
  TO_TIMESTAMP_UNITS,
} from "../dialect_rules.ts";
import { parseIntervalNs } from "../time.ts";
import type { RewriteCtx, TokenRewrite } from "./context.ts";
import { rewriteCast } from "./casts.ts";
import { rewriteOrderedAggregate } from "./ordered_aggregates.ts";
import { rewriteNullTreatment } from "./null_treatment.ts";
import { isDateArg, SESSION_CALLS } from "./session_calls.ts";
import { TYPED_CALLS } from "./typed_calls.ts";
import { makeArray } from "./arrays.ts";
import { prefilterFulltext } from "./fulltext_prefilter.ts";
import { specialCall } from "../special_calls.ts";

/** One call being rewritten: its name, brackets and arguments. */
interface Call {
  name: string;
  open: number;
  close: number;
  /** Token ranges of the comma-separated arguments. */
  args: Array<[number, number]>;
  /** The unit of the segment the call is in. */
  unit: TimeUnit;
  /** Argument `k` rewritten, or NULL when absent. */
  arg(k: number): string;
}

type CallRewrite = (c: RewriteCtx, call: Call) => TokenRewrite | undefined;

/** The rewrite of the call whose name is token `i` (followed by `(`), if its function needs one. */
export function rewriteCall(c: RewriteCtx, i: number): TokenRewrite | undefined {
  const { toks, q } = c;
  const name = toks[i].text.toLowerCase();
  const open = i + 1;
  const args = q.args(open);
  if (NUMERIC_AGGREGATES.has(name) && args.length === 1 && args[0][1] - args[0][0] === 1) {
    const argType = c.time.columnTypeAt(args[0][0]);
    if (argType === "String" || argType === "Binary" || argType === "Json" || isVectorType(argType ?? "")) {
      throw new PetrelError(
        StatusCode.PlanQuery,
        `Failed to plan SQL: The function '${name}' does not support inputs of type ${argType}`,
      );
    }
  }
  const treated = rewriteNullTreatment(c, i);
  if (treated) return treated;
  const handler = CALL_REWRITES.get(name) ?? SESSION_CALLS.get(name) ?? TYPED_CALLS.get(name);
  if (!handler) return undefined;
  const arg = (k: number) => (args[k] ? c.emit(args[k][0], args[k][1]).trim() : "NULL");
  return handler(c, { name, open, close: q.match[open], args, unit: c.time.unitAt(i), arg });
}

/** database() and its synonyms: the session's database as a string. */
const currentDatabase: CallRewrite = (c, call) =>
  call.close === call.open + 1 ? { text: quoteString(c.env.db), next: call.close + 1 } : undefined;

/** `date_bin(stride, ts[, origin])`: plain integer arithmetic when the stride is a known interval. */
const dateBin: CallRewrite = (c, { args, close, unit, arg }) => {
  const { toks } = c;
  let stride: string | undefined;
  if (args[0] && args[0][1] - args[0][0] === 1 && toks[args[0][0]].kind === "string") {
    // DataFusion coerces a string stride to an interval
    stride = nsToUnit(parseIntervalNs(toks[args[0][0]].value), unit).toString();
  }
  let origin = "";
  if (args[2]) {
    const lit = args[2][1] - args[2][0] === 1 ? c.time.timeLiteral(args[2][0], unit) : undefined;
    origin = `, ${lit ?? arg(2)}`;
  }
  const interval = stride ?? arg(0);
  if (/^-?\d+$/.test(interval) && BigInt(interval) <= 0n) {
    throw invalidArguments(`date_bin stride must be a positive interval, got ${interval}`);
  }
  if (/^\d+$/.test(interval) && BigInt(interval) > 0n) {
    // plain integer arithmetic: a user function per row costs several times more
    const x = `(${arg(1)})`, o = origin ? `(${origin.slice(2)})` : "0";
    return {
      text: `(${x} - (((${x} - ${o}) % ${interval}) + ${interval}) % ${interval})`,
      next: close + 1,
    };
  }
  return { text: `__petrel_date_bin(${interval}, ${arg(1)}${origin})`, next: close + 1 };
};

/** GreptimeDB's `to_timezone(ts, tz)`: a String of the wall-clock time in tz (functions/time.ts). */
const toTimezone: CallRewrite = (c, { args, close, unit, arg }) => {
  if (args.length !== 2) {
    throw new PetrelError(StatusCode.PlanQuery, `'to_timezone' expects 2 arguments, got ${args.length}`);
  }
  // GreptimeDB's signature takes timestamps only: a number (literal or column) is refused at planning
  const type = args[0][1] - args[0][0] === 1 ? operandType(c, args[0][0]) : undefined;
  if (type !== undefined && /^(U?Int|Float|Decimal|Boolean)/.test(type)) {
    throw new PetrelError(
      StatusCode.PlanQuery,
      `Failed to plan SQL: 'to_timezone' expects a timestamp and a time zone, got ${type}`,
    );
  }
  return { text: `__petrel_to_timezone(${arg(0)}, ${arg(1)}, '${unit}')`, next: close + 1 };
};

/** The type of the one-token operand `i`: a number literal's (Int64, Float64) or a column's; else undefined. */
function operandType(c: RewriteCtx, i: number): string | undefined {
  const t = c.toks[i];
  if (t.kind === "number") return /^\d+$/.test(t.text) ? "Int64" : "Float64";
  return t.kind === "ident" || t.kind === "qident" ? c.time.columnTypeAt(i) : undefined;
}

/** `date_trunc(field, ts)`: integer arithmetic for fixed-length fields in a fixed-offset zone. */
const dateTrunc: CallRewrite = (c, { args, close, unit, arg }) => {
  // no zone argument: DataFusion truncates in the timestamp's own zone (the rewrite adds the session's)
  checkTwoArgs("date_trunc", args.length);
  const { toks } = c;
  const field = args[0] && args[0][1] - args[0][0] === 1 && toks[args[0][0]].kind === "string"
    ? toks[args[0][0]].value.toLowerCase().replace(/s$/, "")
    : undefined;
  const perField = field === undefined ? undefined : FIXED_TRUNC_NS[field];
  const offsetMin = fixedOffsetMinutes(c.env.timezone);
  if (perField !== undefined && offsetMin !== undefined) {
    const d = perField / NS_PER_UNIT[unit];
    if (d <= 1n) return { text: `(${arg(1)})`, next: close + 1 };
    const off = (BigInt(offsetMin) * 60_000_000_000n) / NS_PER_UNIT[unit];
    const x = `(${arg(1)})`;
    return { text: `(${x} - (((${x} + ${off}) % ${d}) + ${d}) % ${d})`, next: close + 1 };
  }
  return { text: `__petrel_date_trunc(${arg(0)}, ${arg(1)}, '${unit}', ${c.tz})`, next: close + 1 };
};

/** Refuses a date_trunc or date_part call that is not `(field, time)`, as DataFusion's signature does. */
function checkTwoArgs(name: string, count: number): void {
  if (count === 2) return;
  throw new PetrelError(
    StatusCode.PlanQuery,
    `Failed to plan SQL: '${name}' expects 2 arguments, got ${count}`,
  );
}

/**
 * The `__petrel_date_part` call of a field and a time argument: a Date (days since the epoch) is
 * read as its midnight in the segment's unit, in UTC (a date has no zone to move it).
 */
function datePartCall(c: RewriteCtx, field: string, range: [number, number], text: string, unit: TimeUnit) {
  if (!isDateArg(c.q, c.time.columnTypeAt, range)) {
    return `__petrel_date_part(${field}, ${text}, '${unit}', ${c.tz})`;
  }
  const perDay = 86_400_000_000_000n / NS_PER_UNIT[unit];
  return `__petrel_date_part(${field}, (${text}) * ${perDay}, '${unit}', NULL)`;
}

const datePart: CallRewrite = (c, { args, close, unit, arg }) => {
  checkTwoArgs("date_part", args.length);
  if (!args[1]) {
    return { text: `__petrel_date_part(${arg(0)}, ${arg(1)}, '${unit}', ${c.tz})`, next: close + 1 };
  }
  return { text: datePartCall(c, arg(0), args[1], arg(1), unit), next: close + 1 };
};

/** `extract(field FROM ts)`. */
const extract: CallRewrite = (c, { open, close, unit }) => {
  const field = c.toks[open + 1];
  if (!field || !isKeyword(c.toks[open + 2], "FROM")) return undefined;
  const text = c.emit(open + 3, close).trim();
  return {
    text: datePartCall(c, quoteString(field.value.toLowerCase()), [open + 3, close], text, unit),
    next: close + 1,
  };
};

/**
 * `to_timestamp*(x)`: a number read in the unit the function reads (seconds for to_timestamp), the
 * value in its result's unit (`TO_TIMESTAMP_UNITS`); an output column keeps that unit, inside an
 * expression it moves to the segment's.
 */
const toTimestamp: CallRewrite = (c, { name, open, close, unit, arg }) => {
  const { read, own } = TO_TIMESTAMP_UNITS[name];
  const next = close + 1;
  const out = c.isOutputItem(open - 1, next) || c.isSubqueryItem(open - 1, next) ? own : unit;
  return {
    text: `__petrel_convert_unit(__petrel_to_ts(${
      arg(0)
    }, '${read}', ${c.tz}, '${own}'), '${own}', '${out}')`,
    next,
  };
};

/**
 * `substring(s FROM a FOR n)`, `trim(LEADING c FROM s)`, `overlay(s PLACING x FROM a)`, `position(n IN
 * s)`: the plain call DataFusion plans (`special_calls.ts`), SQLite's or ours of that name.
 */
const special: CallRewrite = (c, { open, close }) => {
  const call = specialCall(c.q, open);
  if (!call) return undefined;
  const args = call.args.map((a) => "range" in a ? c.emit(a.range[0], a.range[1]).trim() : a.sql);
  // SQLite's instr counts characters as DataFusion's strpos does
  return { text: `${call.fn === "strpos" ? "instr" : call.fn}(${args.join(", ")})`, next: close + 1 };
};

/**
 * `to_local_time(ts)`: DataFusion drops the time zone of a zoned timestamp, keeping its wall-clock
 * time; GreptimeDB's values carry none (now() is UTC), so the value and type are its argument's.
 * Anything but a timestamp fails its plan, as DataFusion's signature does.
 */
const toLocalTime: CallRewrite = (c, { name, args, close, arg }) => {
  if (args.length !== 1) throw invalidArguments(`${name} function requires 1 argument, got ${args.length}`);
  const [s, e] = args[0];
  const single = e - s === 1 ? c.toks[s] : undefined;
  const type = single?.kind === "string"
    ? "String"
    : single?.kind === "number"
    ? "Int64"
    : single
    ? c.time.columnTypeAt(s)
    : undefined;
  if (type !== undefined && !type.startsWith("Timestamp")) {
    throw new PetrelError(
      StatusCode.PlanQuery,
      `Failed to plan SQL: The to_local_time function can only accept Timestamp as the arg, got ${type}`,
    );
  }
  return { text: `(${arg(0)})`, next: close + 1 };
};

/**
 * Whether `[s, e)` is a number and no time: numeric literals and columns, arithmetic over them, numeric
 * calls (`abs`, `length`, …) and casts to numbers. Arrow casts one to a timestamp as a count of the
 * target's unit, where a time value changes unit.
 */
function isPlainNumber(c: RewriteCtx, [s, e]: [number, number]): boolean {
  const { toks, q } = c;
  let number = false;
  for (let i = s; i < e; i++) {
    const t = toks[i];
    if (t.kind === "number") number = true;
    else if (isOp(t, "+", "-", "*", "/", "%", "(", ")")) continue;
    else if (t.kind === "ident" && isOp(toks[i + 1], "(")) {
      const close = q.match[i + 1];
      const name = t.text.toLowerCase();
      if (name === "cast" || name === "try_cast") {
        const as = toks.slice(i + 2, close).findLastIndex((x) => isKeyword(x, "AS"));
        const type = toks.slice(i + 3 + as, close).map((x) => x.text).join(" ");
        if (as < 0 || !NUMERIC_CAST.test(type)) return false;
      } else if (!NUMERIC_CALLS.has(name)) return false;
      number = true;
      i = close;
    } else if (t.kind === "ident" || t.kind === "qident") {
      // `rel.col` is typed at its column
      const col = isOp(toks[i + 1], ".") ? i + 2 : i;
      if (!/^(U?Int|Float)/.test(c.time.columnTypeAt(col) ?? "")) return false;
      number = true;
      i = col;
    } else return false;
  }
  return number;
}

/** Calls that answer a number whatever their arguments (so `arrow_cast` reads them as a count). */
const NUMERIC_CALLS = new Set([
  "abs",
  "round",
  "floor",
  "ceil",
  "trunc",
  "power",
  "pow",
  "length",
  "char_length",
  "character_length",
  "octet_length",
  "strpos",
  "to_unixtime",
]);
const NUMERIC_CAST =
  /^(BIGINT|INT|INTEGER|SMALLINT|TINYINT|INT[0-9]+|UINT[0-9]+|U?Int(8|16|32|64)|BIGINT UNSIGNED|INT UNSIGNED)$/i;

const charLength: CallRewrite = (_c, { close, arg }) => ({ text: `length(${arg(0)})`, next: close + 1 });

/**
 * `grouping(x, …)` where it is still a call: every expression is grouped (a plain GROUP BY, or the
 * grouping set that keeps them all), so 0; the other sets write their own bits (`grouping_sets.ts`).
 */
const grouping: CallRewrite = (_c, { close }) => ({ text: "0", next: close + 1 });

// A Map, not an object literal: a call named `constructor(` must find nothing.
const CALL_REWRITES = new Map<string, CallRewrite>([
  ["database", currentDatabase],
  ["current_schema", currentDatabase],
  ["current_database", currentDatabase],
  ["schema", currentDatabase],
  ["cast", (c, { open, close }) => rewriteCast(c, open, close)],
  ["try_cast", (c, { open, close }) => rewriteCast(c, open, close, true)],
  ["date_bin", dateBin],
  ["matches", prefilterFulltext],
  ["matches_term", prefilterFulltext],
  ["date_trunc", dateTrunc],
  ["datetrunc", dateTrunc],
  ["date_part", datePart],
  ["datepart", datePart],
  ["extract", extract],
  ["to_unixtime", (c, { close, unit, arg }) => ({
    text: `__petrel_to_unixtime(${arg(0)}, '${unit}', ${c.tz})`,
    next: close + 1,
  })],
  ["arrow_cast", (c, { args, close, unit, arg }) => ({
    text: `__petrel_arrow_cast(${arg(0)}, ${arg(1)}, '${unit}', ${
      args[0] && isPlainNumber(c, args[0]) ? 1 : 0
    })`,
    next: close + 1,
  })],
  ["to_char", (c, { args, close, unit, arg }) => ({
    text: `__petrel_to_char(${arg(0)}, ${arg(1)}, '${
      args[0] && isDateArg(c.q, c.time.columnTypeAt, args[0]) ? "date" : unit
    }')`,
    next: close + 1,
  })],
  // a timestamp is formatted in the session time zone, as GreptimeDB's date_format; a Date (a count of
  // days) as the day it is
  ["date_format", (c, { args, close, unit, arg }) => ({
    text: args[0] && isDateArg(c.q, c.time.columnTypeAt, args[0])
      ? `__petrel_date_format((${arg(0)}) * 86400, ${arg(1)}, 's', 'UTC')`
      : `__petrel_date_format(${arg(0)}, ${arg(1)}, '${unit}', ${c.tz})`,
    next: close + 1,
  })],
  ["to_timezone", toTimezone],
  ...Object.keys(TO_TIMESTAMP_UNITS).map((name) => [name, toTimestamp] as [string, CallRewrite]),
  ["to_local_time", toLocalTime],
  // DataFusion takes one argument (answered as is), SQLite's coalesce at least two
  [
    "coalesce",
    (_c, { args, close, arg }) =>
      args.length === 1 ? { text: `coalesce(${arg(0)}, NULL)`, next: close + 1 } : undefined,
  ],
  ["position", special],
  ["substring", special],
  ["substr", special],
  ["trim", special],
  ["overlay", special],
  ["first_value", (c, { name, open }) => rewriteOrderedAggregate(c, name, open)],
  ["last_value", (c, { name, open }) => rewriteOrderedAggregate(c, name, open)],
  ["nth_value", (c, { name, open }) => rewriteOrderedAggregate(c, name, open)],
  ["character_length", charLength],
  ["char_length", charLength],
  ["grouping", grouping],
  ["make_array", (c, { args, close }) => makeArray(c, args, close)],
]);
