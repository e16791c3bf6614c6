/**
 * Pipeline versions are creation timestamps in nanoseconds, shown as `YYYY-MM-DD HH:MM:SS%.f`
 * (0, 3, 6 or 9 fractional digits as needed) and parsed back from the forms GreptimeDB accepts.
 */
import { invalidArguments } from "../src/common/errors.ts";

/** Renders a ns timestamp as GreptimeDB prints pipeline versions (UTC). */
export function formatVersion(ns: bigint): string {
  const ms = Number(ns / 1_000_000n);
  const iso = new Date(ms).toISOString(); // 2024-07-04T08:31:00.987Z
  const base = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  const frac = ns % 1_000_000_000n;
  if (frac === 0n) return base;
  if (frac % 1_000_000n === 0n) return `${base}.${String(frac / 1_000_000n).padStart(3, "0")}`;
  if (frac % 1_000n === 0n) return `${base}.${String(frac / 1_000n).padStart(6, "0")}`;
  return `${base}.${String(frac).padStart(9, "0")}`;
}

const VERSION_RE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/;

/** Parses a version string (RFC 3339, with or without zone, `T` or space) as UTC ns. */
export function parseVersion(text: string): bigint {
  const m = VERSION_RE.exec(text.trim());
  if (!m) throw invalidArguments(`Invalid pipeline version format: ${text}`);
  const [, y, mo, d, h, mi, s, frac = "", zone] = m;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  // Date.UTC rolls over (month 13, day 40); a real date reads back the same fields.
  const back = new Date(ms);
  if (
    Number.isNaN(ms) || back.getUTCMonth() !== Number(mo) - 1 || back.getUTCDate() !== Number(d) ||
    back.getUTCHours() !== Number(h) || back.getUTCMinutes() !== Number(mi) ||
    back.getUTCSeconds() !== Number(s)
  ) {
    throw invalidArguments(`Invalid pipeline version format: ${text}`);
  }
  if (zone && zone !== "Z") {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return BigInt(ms) * 1_000_000n + BigInt(frac.padEnd(9, "0"));
}
