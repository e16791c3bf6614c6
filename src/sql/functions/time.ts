/** Time functions (`date_bin`, `date_trunc`, `date_part`, `to_unixtime`, `arrow_cast`, …) in a column's unit. */
import { parseIntervalNs, timezoneOffsetMinutes } from "../time.ts";
import type { Arg, Ret, ScalarDef } from "./values.ts";
import { big, num, str, toNs, unitArg } from "./values.ts";
import { cachedFormat, CHRONO_FORMAT, type FormatDialect, formatTime } from "../../common/strftime.ts";
import { convertUnit, NS_PER_UNIT, nsToUnit, type TimeUnit, unitToNs } from "../../common/time_unit.ts";

const TRUNC_FIELDS = [
  "microsecond",
  "millisecond",
  "second",
  "minute",
  "hour",
  "day",
  "week",
  "month",
  "quarter",
  "year",
];

function dateTrunc(field: string, ns: bigint, offsetMin: number): bigint {
  const f = field.toLowerCase().replace(/s$/, "");
  const fixed: Record<string, bigint> = {
    microsecond: 1_000n,
    millisecond: 1_000_000n,
    second: 1_000_000_000n,
    minute: 60_000_000_000n,
    hour: 3_600_000_000_000n,
  };
  const offNs = BigInt(offsetMin) * 60_000_000_000n;
  const local = ns + offNs;
  if (fixed[f]) {
    const d = fixed[f];
    const r = local % d;
    return local - (r < 0n ? r + d : r) - offNs;
  }
  const ms = Number(local / 1_000_000n) - (local % 1_000_000n < 0n ? 1 : 0);
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  let mo = d.getUTCMonth(), day = d.getUTCDate();
  if (f === "day") { /* keep */ }
  else if (f === "week") {
    const dow = (d.getUTCDay() + 6) % 7;
    day -= dow;
  } else if (f === "month") day = 1;
  else if (f === "quarter") {
    day = 1;
    mo = mo - (mo % 3);
  } else if (f === "year") {
    day = 1;
    mo = 0;
  } else {
    throw new Error(`Unsupported date_trunc field: ${field} (expected one of ${TRUNC_FIELDS.join(", ")})`);
  }
  return BigInt(Date.UTC(y, mo, day)) * 1_000_000n - offNs;
}

function datePart(field: string, ns: bigint): number | null {
  const ms = Number(ns / 1_000_000n);
  const d = new Date(ms);
  switch (field.toLowerCase()) {
    case "year":
      return d.getUTCFullYear();
    case "quarter":
      return Math.floor(d.getUTCMonth() / 3) + 1;
    case "month":
      return d.getUTCMonth() + 1;
    case "week": {
      const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
      const dayNum = (t.getUTCDay() + 6) % 7;
      t.setUTCDate(t.getUTCDate() - dayNum + 3);
      const firstThursday = new Date(Date.UTC(t.getUTCFullYear(), 0, 4));
      return 1 +
        Math.round(
          ((t.getTime() - firstThursday.getTime()) / 86400000 - 3 + ((firstThursday.getUTCDay() + 6) % 7)) /
            7,
        );
    }
    case "day":
      return d.getUTCDate();
    case "dow":
      return d.getUTCDay();
    case "doy":
      return Math.floor((ms - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400000) + 1;
    case "hour":
      return d.getUTCHours();
    case "minute":
      return d.getUTCMinutes();
    // DataFusion's Int32 parts: whole seconds of the minute, or the second in ms/µs (seconds_as_i32)
    case "second":
      return d.getUTCSeconds();
    case "millisecond":
      return d.getUTCSeconds() * 1000 + d.getUTCMilliseconds();
    case "microsecond":
      return d.getUTCSeconds() * 1_000_000 +
        Number((((ns % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n) / 1000n);
    case "epoch":
      return Number(ns) / 1e9;
    // DataFusion's Int32 date_part refuses nanoseconds rather than overflow (seconds_as_i32)
    case "nanosecond":
    case "nanoseconds":
      throw new Error("This feature is not implemented: Date part Nanosecond not supported");
    default:
      return null;
  }
}

/** GreptimeDB's `date_format`: the chrono specifiers it documents; any other stays as text. */
const SQL_FORMAT: FormatDialect = {
  only: new Set([..."YmdHMSfzZjaAbBe%", "3f", "6f", "9f"]),
  unknown: "literal",
};

/** `ns` formatted by `fmt` as a wall-clock time in time zone `tz` (UTC when absent). */
function strftime(fmt: string, ns: bigint, tz: string | undefined, dialect = SQL_FORMAT): string {
  const sec = ns / 1_000_000_000n;
  const nanos = Number(ns - sec * 1_000_000_000n);
  const floorSec = Number(sec) - (nanos < 0 ? 1 : 0);
  const sub = nanos < 0 ? nanos + 1_000_000_000 : nanos;
  const epochMs = floorSec * 1000 + Math.floor(sub / 1_000_000);
  const offsetMin = timezoneOffsetMinutes(tz, epochMs);
  const zoneName = offsetMin === 0 && (tz === undefined || /^(utc|z|gmt)$/i.test(tz.trim()))
    ? "UTC"
    : tz!.trim();
  return formatTime(cachedFormat(fmt, dialect), { epochMs, nanos: sub, offsetMin, zoneName });
}

/**
 * A timestamp cast to a string, as arrow casts one: `2022-11-03T03:39:57.450`, the fraction with 3, 6 or 9
 * digits as its precision needs (none for a whole second).
 */
function timestampText(ns: bigint): string {
  const sec = ns / 1_000_000_000n;
  let nanos = Number(ns - sec * 1_000_000_000n);
  let s = Number(sec);
  if (nanos < 0) [s, nanos] = [s - 1, nanos + 1_000_000_000];
  const base = new Date(s * 1000).toISOString().slice(0, 19);
  if (nanos === 0) return base;
  const digits = String(nanos).padStart(9, "0");
  return `${base}.${
    nanos % 1_000_000 === 0 ? digits.slice(0, 3) : nanos % 1000 === 0 ? digits.slice(0, 6) : digits
  }`;
}

const ARROW_UNITS: Record<string, TimeUnit> = {
  second: "s",
  millisecond: "ms",
  microsecond: "us",
  nanosecond: "ns",
};

/** arrow_cast of `v` (a time in `srcUnit`, or a plain number when `count`) to the Arrow type `target`. */
function arrowCast(v: Arg, target: string, srcUnit: TimeUnit, count: boolean): Ret {
  if (v === null) return null;
  const t = target.trim();
  const ts = /^Timestamp\((\w+)/i.exec(t);
  if (ts) {
    const unit = ARROW_UNITS[ts[1].toLowerCase()] ?? "ms";
    // a number is a count of the target's unit (arrow's Int64 → Timestamp cast keeps the value)
    if (count && typeof v !== "string") return big(v);
    if (typeof v !== "string") {
      // arrow's cast kernel divides, truncating toward zero (also before 1970)
      const b = big(v);
      return b === null ? null : unitToNs(b, srcUnit) / NS_PER_UNIT[unit];
    }
    const ns = toNs(v, srcUnit);
    return ns === null ? null : nsToUnit(ns, unit);
  }
  if (/^(U?Int\d+)$/i.test(t)) {
    const b = big(v);
    return b;
  }
  if (/^Float\d+$/i.test(t)) return num(v);
  if (/^(Utf8|LargeUtf8|Utf8View)$/i.test(t)) return str(v);
  if (/^Boolean$/i.test(t)) return num(v) ? 1 : 0;
  throw new Error(`Unsupported arrow_cast type: ${target}`);
}

/** The time functions the rewriter calls (it adds the unit and timezone arguments). */
export const TIME_SCALARS: Record<string, ScalarDef> = {
  __petrel_now: {
    fn: (unit) => nsToUnit(BigInt(Date.now()) * 1_000_000n, unitArg(unit)),
    deterministic: false,
  },
  __petrel_date_bin: {
    bigint: true,
    fn: (interval, ts, origin) => {
      const i = big(interval), t = big(ts), o = big(origin ?? 0n) ?? 0n;
      if (t === null) return null;
      if (i === null || i <= 0n) {
        throw new Error(`date_bin stride must be a positive interval, got ${interval}`);
      }
      const r = (t - o) % i;
      return t - (r < 0n ? r + i : r);
    },
  },
  __petrel_date_trunc: {
    bigint: true,
    fn: (field, ts, unit, tz) => {
      const u = unitArg(unit);
      const ns = toNs(ts, u, str(tz) ?? undefined);
      if (ns === null || field === null) return null;
      const off = timezoneOffsetMinutes(str(tz) ?? undefined, Number(ns / 1_000_000n));
      return nsToUnit(dateTrunc(String(field), ns, off), u);
    },
  },
  __petrel_date_part: {
    bigint: true,
    int: true,
    fn: (field, ts, unit, tz) => {
      const ns = toNs(ts, unitArg(unit), str(tz) ?? undefined);
      if (ns === null || field === null) return null;
      const off = BigInt(timezoneOffsetMinutes(str(tz) ?? undefined, Number(ns / 1_000_000n))) *
        60_000_000_000n;
      return datePart(String(field), ns + off);
    },
  },
  __petrel_to_unixtime: {
    bigint: true,
    fn: (v, unit, tz) => {
      const ns = toNs(v, unitArg(unit), str(tz) ?? undefined);
      return ns === null ? null : nsToUnit(ns, "s");
    },
  },
  __petrel_to_ts: {
    bigint: true,
    // a number in unit `read` or a timestamp string, as a value in unit `own` (`read` when absent)
    fn: (v, read, tz, own) => {
      // a fraction of a second counts, as DataFusion scales a Float64 before its cast
      const ns = typeof v === "number" && !Number.isInteger(v)
        ? BigInt(Math.trunc(v * Number(NS_PER_UNIT[unitArg(read)])))
        : toNs(v, unitArg(read), str(tz) ?? undefined);
      return ns === null ? null : nsToUnit(ns, unitArg(own ?? read));
    },
  },
  __petrel_at_time_zone: {
    bigint: true,
    // a time-zone-less value is wall-clock time in `tz` (arrow's cast to Timestamp(_, Some(tz))); an
    // aware one (now(), another AT TIME ZONE) is already an instant and keeps it
    fn: (v, from, to, tz, naive) => {
      let ns = toNs(v, unitArg(from));
      if (ns === null) return null;
      if (num(naive)) {
        const zone = str(tz) ?? undefined, wallMs = Number(ns / 1_000_000n);
        const offset = timezoneOffsetMinutes(zone, wallMs - timezoneOffsetMinutes(zone, wallMs) * 60_000);
        ns -= BigInt(offset) * 60_000_000_000n;
      }
      return nsToUnit(ns, unitArg(to));
    },
  },
  __petrel_convert_unit: {
    bigint: true,
    fn: (v, from, to) => {
      const b = big(v);
      return b === null ? null : convertUnit(b, unitArg(from), unitArg(to));
    },
  },
  __petrel_interval: { fn: (text, unit) => nsToUnit(parseIntervalNs(String(text)), unitArg(unit)) },
  __petrel_arrow_cast: {
    bigint: true,
    fn: (v, type, unit, count) => arrowCast(v, String(type), unitArg(unit), num(count) === 1),
  },
  __petrel_ts_text: {
    bigint: true,
    fn: (ts, unit) => {
      const b = big(ts);
      return b === null ? null : timestampText(unitToNs(b, unitArg(unit)));
    },
  },
  // GreptimeDB's to_timezone: the instant as wall-clock text in `tz` (chrono's `%Y-%m-%d %H:%M:%S%.f`);
  // a zone it cannot read gives NULL, as its Timezone::from_tz_string(..).ok()
  __petrel_to_timezone: {
    bigint: true,
    args: [3, 3],
    fn: (ts, tz, unit) => {
      const ns = toNs(ts, unitArg(unit));
      const zone = str(tz);
      if (ns === null || zone === null) return null;
      try {
        return strftime("%Y-%m-%d %H:%M:%S%.f", ns, zone, CHRONO_FORMAT);
      } catch {
        return null;
      }
    },
  },
  __petrel_date_format: {
    bigint: true,
    fn: (ts, fmt, unit, tz) => {
      const ns = toNs(ts, unitArg(unit), str(tz) ?? undefined);
      return ns === null || fmt === null ? null : strftime(String(fmt), ns, str(tz) ?? undefined);
    },
  },
};
