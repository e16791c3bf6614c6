/**
 * DataFusion's date functions over Petrel's time values: dates are days since the epoch, timestamps
 * integers in their column's unit (the rewriter adds the unit): `date_add`/`date_sub` with calendar
 * months, `from_unixtime`, `to_date`, `make_date`, `current_date`, `current_time` and `to_char`.
 */
import { parseIntervalNs, parseTimestampNs } from "../time.ts";
import { cachedFormat, CHRONO_FORMAT, formatTime } from "../../common/strftime.ts";
import { nsToUnit } from "../../common/time_unit.ts";
import type { Arg, ScalarDef } from "./values.ts";
import { big, str, toNs, unitArg } from "./values.ts";
import { compileParse, PARSE_FAILURE_TEXT, parseTime } from "../../common/strptime.ts";

const NS_PER_DAY = 86_400_000_000_000n;
const MS_PER_DAY = 86_400_000;

/** An interval's calendar months and its fixed-length rest in nanoseconds (`1 month 2 days`). */
function splitInterval(text: string): { months: number; ns: bigint } {
  let months = 0;
  const rest = text.replace(/(-?\d+)\s*(years?|y|months?|mons?)\b/gi, (_, n: string, u: string) => {
    months += Number(n) * (/^y/i.test(u) ? 12 : 1);
    return "";
  });
  return { months, ns: rest.trim() === "" ? 0n : parseIntervalNs(rest) };
}

/** Adds calendar months to an instant (UTC), clamping the day to the target month's length. */
function addMonths(ns: bigint, months: number): bigint {
  if (months === 0) return ns;
  const dayNs = ((ns % NS_PER_DAY) + NS_PER_DAY) % NS_PER_DAY;
  const d = new Date(Number((ns - dayNs) / 1_000_000n));
  const y = d.getUTCFullYear(), m = d.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), last);
  return BigInt(Date.UTC(y, m, day)) * 1_000_000n + dayNs;
}

/** A date argument (days, or `YYYY-MM-DD` text) as days since the epoch. */
function toDays(v: Arg, fn: string): bigint | null {
  if (v === null) return null;
  if (typeof v === "string") {
    const ns = parseTimestampNs(v.trim());
    if (ns === undefined) throw new Error(`${fn}: cannot read '${v}' as a date`);
    return ns / NS_PER_DAY - (ns % NS_PER_DAY < 0n ? 1n : 0n);
  }
  return big(v);
}

/** `to_date(text, fmt1, fmt2, …)`: the first chrono format that reads the text whole. */
function parseDate(text: string, formats: Arg[]): bigint {
  let why = "no format given";
  for (const f of formats) {
    if (f === null) continue;
    const format = compileParse(str(f)!);
    if (!format) throw new Error(`to_date: invalid format '${str(f)}'`);
    let r = parseTime(text, format);
    // chrono's NaiveDate needs no time of day: give it midnight
    if (r === "not_enough") r = parseTime(`${text} 0:0`, compileParse(`${str(f)} %H:%M`)!);
    if (typeof r !== "string") return BigInt(Math.floor(r.ms / MS_PER_DAY));
    why = PARSE_FAILURE_TEXT[r];
  }
  throw new Error(`to_date: error parsing '${text}' as a date: ${why}`);
}

function dayOfEpoch(y: number, m: number, d: number, fn: string): bigint {
  const ms = Date.UTC(y, m - 1, d);
  const check = new Date(ms);
  if (
    !Number.isFinite(ms) || check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 ||
    check.getUTCDate() !== d
  ) {
    throw new Error(`${fn}: ${y}-${m}-${d} is not a valid date`);
  }
  return BigInt(Math.floor(ms / MS_PER_DAY));
}

/** The date functions by name. */
export const DATE_SCALARS: Record<string, ScalarDef> = {
  __petrel_date_add: {
    bigint: true,
    fn: (v, interval, sign, kind, tz) => {
      if (v === null || interval === null) return null;
      const { months, ns } = splitInterval(str(interval)!);
      const s = Number(sign) < 0 ? -1 : 1;
      if (kind === "date_op") {
        // DataFusion's `date ± interval`: months, then whole days; a sub-day rest truncates toward zero
        const days = toDays(v, "date_add")!;
        const shifted = addMonths(days * NS_PER_DAY, s * months) / NS_PER_DAY;
        return shifted + BigInt(s) * (ns / NS_PER_DAY);
      }
      if (kind === "date") {
        const days = toDays(v, "date_add")!;
        const shifted = addMonths(days * NS_PER_DAY, s * months) + BigInt(s) * ns;
        return shifted / NS_PER_DAY - (shifted % NS_PER_DAY < 0n ? 1n : 0n);
      }
      const unit = unitArg(kind);
      const at = toNs(v, unit, str(tz) ?? undefined);
      if (at === null) return null;
      return nsToUnit(addMonths(at, s * months) + BigInt(s) * ns, unit);
    },
  },
  from_unixtime: {
    args: [1, 1],
    bigint: true,
    fn: (v) => {
      if (v === null) return null;
      if (typeof v !== "bigint") {
        throw new Error(`from_unixtime expects an integer number of seconds, got ${v}`);
      }
      return v;
    },
  },
  to_date: {
    args: [1, Infinity],
    bigint: true,
    fn: (v, ...formats) => {
      if (v === null) return null;
      return formats.length === 0 || typeof v !== "string" ? toDays(v, "to_date") : parseDate(v, formats);
    },
  },
  make_date: {
    args: [3, 3],
    bigint: true,
    fn: (y, m, d) => {
      if (y === null || m === null || d === null) return null;
      return dayOfEpoch(Number(y), Number(m), Number(d), "make_date");
    },
  },
  __petrel_current_date: {
    deterministic: false,
    fn: () => BigInt(Math.floor(Date.now() / MS_PER_DAY)),
  },
  __petrel_current_time: {
    deterministic: false,
    fn: () => {
      const ms = Date.now() % MS_PER_DAY;
      return new Date(ms).toISOString().slice(11, 23) + "000000";
    },
  },
  __petrel_to_char: {
    bigint: true,
    fn: (v, fmt, kind) => {
      if (v === null || fmt === null) return null;
      const ns = kind === "date" ? toDays(v, "to_char")! * NS_PER_DAY : toNs(v, unitArg(kind));
      if (ns === null) return null;
      const sec = ns / 1_000_000_000n - (ns % 1_000_000_000n < 0n ? 1n : 0n);
      const nanos = Number(ns - sec * 1_000_000_000n);
      const epochMs = Number(sec) * 1000 + Math.floor(nanos / 1_000_000);
      return formatTime(cachedFormat(str(fmt)!, CHRONO_FORMAT), {
        epochMs,
        nanos,
        offsetMin: 0,
        zoneName: "UTC",
      });
    },
  },
};
