/** Time functions: `now`, `parse_timestamp`, `format_timestamp`, `to_unix_timestamp`, `from_unix_timestamp`. */

import { K } from "../types.ts";
import { VrlTimestamp } from "../value.ts";
import { fail, type FnDef, opt, req, str } from "./def.ts";
import { strftime, strptime, validTimezone } from "./timefmt.ts";
import { StrftimeError } from "../../../src/common/strftime.ts";

const UNITS: Record<string, bigint> = {
  seconds: 1_000_000_000n,
  milliseconds: 1_000_000n,
  microseconds: 1000n,
  nanoseconds: 1n,
};

const checkUnit = (i: number) => (a: ({ constant?: { value: unknown } } | undefined)[]) => {
  const u = a[i]?.constant?.value;
  if (typeof u === "string" && !(u in UNITS)) return `unit must be one of ${Object.keys(UNITS).join(", ")}`;
};

const checkTz = (i: number) => (a: ({ constant?: { value: unknown } } | undefined)[]) => {
  const tz = a[i]?.constant?.value;
  if (typeof tz === "string" && !validTimezone(tz)) return `unknown timezone "${tz}"`;
};

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

let lastNow = 0n;

/** Current time in nanoseconds (monotone within the process). */
export function nowNs(): bigint {
  const ns = BigInt(Math.round((performance.timeOrigin + performance.now()) * 1e6));
  lastNow = ns > lastNow ? ns : lastNow + 1n;
  return lastNow;
}

/** Time functions by name. */
export const TIME_FNS: Record<string, FnDef> = {
  now: { params: [], returns: K.TIMESTAMP, call: () => new VrlTimestamp(nowNs()) },
  get_timezone_name: { params: [], returns: K.BYTES, fallible: true, call: () => "UTC" },
  parse_timestamp: {
    params: [req("value", K.BYTES | K.TIMESTAMP), req("format", K.BYTES), opt("timezone", K.BYTES)],
    returns: K.TIMESTAMP,
    fallible: true,
    check: checkTz(2),
    call: ([v, f, tz]) => {
      if (v instanceof VrlTimestamp) return v;
      try {
        return strptime(v as string, f as string, str(tz, "UTC"));
      } catch (e) {
        return fail(`unable to parse timestamp "${v}" with format "${f}": ${(e as Error).message}`);
      }
    },
  },
  format_timestamp: {
    params: [req("value", K.TIMESTAMP), req("format", K.BYTES), opt("timezone", K.BYTES)],
    returns: K.BYTES,
    fallible: true,
    check: checkTz(2),
    call: ([v, f, tz]) => {
      try {
        return strftime(v as VrlTimestamp, f as string, str(tz, "UTC"));
      } catch (e) {
        // VRL maps chrono's `Item::Error` to this one text, whatever the specifier.
        return fail(e instanceof StrftimeError ? "invalid format" : (e as Error).message);
      }
    },
  },
  to_unix_timestamp: {
    params: [req("value", K.TIMESTAMP), opt("unit", K.BYTES)],
    returns: K.INTEGER,
    check: checkUnit(1),
    fallibleFor: (a) => !!a[1] && !a[1].constant,
    call: ([v, u]) => {
      const div = UNITS[str(u, "seconds")] ?? fail(`invalid unit "${u}"`);
      return floorDiv((v as VrlTimestamp).ns, div);
    },
  },
  from_unix_timestamp: {
    params: [req("value", K.INTEGER), opt("unit", K.BYTES)],
    returns: K.TIMESTAMP,
    check: checkUnit(1),
    fallible: true,
    call: ([v, u]) => {
      const mul = UNITS[str(u, "seconds")] ?? fail(`invalid unit "${u}"`);
      return new VrlTimestamp((v as bigint) * mul);
    },
  },
};
