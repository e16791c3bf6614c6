/** strftime/strptime in chrono's dialect (what VRL uses), RFC 3339 parsing, and time zone offsets. */

import { VrlTimestamp } from "../value.ts";
import { lenientTimeZone } from "../../../src/common/timezone.ts";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const pad = (n: number, w = 2, c = "0") => String(n).padStart(w, c);

const RFC3339 =
  /^([+-]?\d{4,6})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

/** Parses RFC 3339 (as `t'…'` literals and chrono's `parse_from_rfc3339` accept). */
export function parseRfc3339(s: string): VrlTimestamp | null {
  const m = RFC3339.exec(s.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, se, frac, z, sign, oh, om] = m;
  const offset = z ? 0 : (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om));
  return fromParts(
    Number(y),
    Number(mo),
    Number(d),
    Number(h),
    Number(mi),
    Number(se),
    fracToNs(frac ?? ""),
    offset,
  );
}

/** Parses a timestamp literal `t'…'`. */
export function parseTimestampLiteral(s: string): VrlTimestamp | null {
  return parseRfc3339(s);
}

function fracToNs(frac: string): number {
  if (!frac) return 0;
  return Number((frac + "000000000").slice(0, 9));
}

function daysInMonth(y: number, mo: number): number {
  if (mo === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31;
}

/** Builds a timestamp from civil fields at a UTC offset in minutes; null when fields are out of range. */
export function fromParts(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ns: number,
  offsetMin: number,
): VrlTimestamp | null {
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 60) return null;
  let ms: number;
  if (y >= 100) ms = Date.UTC(y, mo - 1, d, h, mi, Math.min(s, 59));
  else {
    // Date.UTC maps years 0..99 to 1900..1999.
    const date = new Date(0);
    date.setUTCFullYear(y, mo - 1, d);
    date.setUTCHours(h, mi, Math.min(s, 59), 0);
    ms = date.getTime();
  }
  ms -= offsetMin * 60_000;
  return new VrlTimestamp(BigInt(ms) * 1_000_000n + BigInt(ns));
}

/** Offset from UTC in minutes of time zone `tz` at instant `ms`; null for unknown zones. */
export function tzOffset(tz: string, ms: number): number | null {
  if (tz === "UTC" || tz === "utc" || tz === "Z" || tz === "Etc/UTC") return 0;
  if (tz === "local") return -new Date(ms).getTimezoneOffset();
  const fixed = /^([+-])(\d{2}):?(\d{2})$/.exec(tz);
  if (fixed) return (fixed[1] === "-" ? -1 : 1) * (Number(fixed[2]) * 60 + Number(fixed[3]));
  const zone = lenientTimeZone(tz);
  return zone ? Math.round(zone.offsetAt(ms) / 60_000) : null;
}

/** True when `tz` names a zone we can resolve. */
export function validTimezone(tz: string): boolean {
  return tzOffset(tz, 0) !== null;
}

function fmtOffset(off: number, colon: boolean): string {
  const sign = off < 0 ? "-" : "+";
  const a = Math.abs(off);
  return sign + pad(Math.floor(a / 60)) + (colon ? ":" : "") + pad(a % 60);
}

function autoFrac(ns: number): string {
  if (ns === 0) return "";
  if (ns % 1_000_000 === 0) return "." + pad(ns / 1_000_000, 3);
  if (ns % 1000 === 0) return "." + pad(ns / 1000, 6);
  return "." + pad(ns, 9);
}

/** chrono-style strftime of a timestamp in the given zone (`UTC` by default). */
export function strftime(ts: VrlTimestamp, fmt: string, tz = "UTC"): string {
  const ms = ts.ms;
  const off = tzOffset(tz, ms) ?? 0;
  const d = new Date(ms + off * 60_000);
  const ns = ts.subsecNs;
  const Y = d.getUTCFullYear(), M = d.getUTCMonth(), D = d.getUTCDate();
  const h = d.getUTCHours(), mi = d.getUTCMinutes(), s = d.getUTCSeconds(), wd = d.getUTCDay();
  let out = "";
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i];
    if (c !== "%") {
      out += c;
      continue;
    }
    let spec = fmt[++i];
    let width = "";
    if (spec === "." && /[369]/.test(fmt[i + 1]) && fmt[i + 2] === "f") {
      out += "." + pad(ns, 9).slice(0, Number(fmt[i + 1]));
      i += 2;
      continue;
    }
    if (/[369]/.test(spec) && fmt[i + 1] === "f") {
      out += pad(ns, 9).slice(0, Number(spec));
      i++;
      continue;
    }
    if (spec === "." && fmt[i + 1] === "f") {
      out += autoFrac(ns);
      i++;
      continue;
    }
    if (spec === ":" && fmt[i + 1] === "z") {
      out += fmtOffset(off, true);
      i++;
      continue;
    }
    if (spec === "-" || spec === "_" || spec === "0") {
      width = spec;
      spec = fmt[++i];
    }
    const num = (n: number, w = 2) => width === "-" ? String(n) : pad(n, w, width === "_" ? " " : "0");
    switch (spec) {
      case "Y":
        out += Y >= 0 && Y <= 9999 ? pad(Y, 4) : String(Y);
        break;
      case "C":
        out += num(Math.floor(Y / 100));
        break;
      case "y":
        out += num(Y % 100);
        break;
      case "m":
        out += num(M + 1);
        break;
      case "b":
      case "h":
        out += MONTHS[M].slice(0, 3);
        break;
      case "B":
        out += MONTHS[M];
        break;
      case "d":
        out += num(D);
        break;
      case "e":
        out += width ? num(D) : pad(D, 2, " ");
        break;
      case "a":
        out += DAYS[wd].slice(0, 3);
        break;
      case "A":
        out += DAYS[wd];
        break;
      case "u":
        out += String(wd === 0 ? 7 : wd);
        break;
      case "w":
        out += String(wd);
        break;
      case "j": {
        const doy = Math.floor((Date.UTC(Y, M, D) - Date.UTC(Y, 0, 1)) / 86_400_000) + 1;
        out += num(doy, 3);
        break;
      }
      case "H":
        out += num(h);
        break;
      case "k":
        out += pad(h, 2, " ");
        break;
      case "I":
        out += num(h % 12 === 0 ? 12 : h % 12);
        break;
      case "l":
        out += pad(h % 12 === 0 ? 12 : h % 12, 2, " ");
        break;
      case "M":
        out += num(mi);
        break;
      case "S":
        out += num(s);
        break;
      case "f":
        out += pad(ns, 9);
        break;
      case "p":
        out += h < 12 ? "AM" : "PM";
        break;
      case "P":
        out += h < 12 ? "am" : "pm";
        break;
      case "z":
        out += fmtOffset(off, false);
        break;
      case "Z":
        out += tz === "UTC" || off === 0 && tz.length <= 3
          ? "UTC"
          : tz.startsWith("+") || tz.startsWith("-")
          ? fmtOffset(off, true)
          : tz;
        break;
      case "s":
        out += String(Math.floor(ms / 1000));
        break;
      case "T":
        out += `${pad(h)}:${pad(mi)}:${pad(s)}`;
        break;
      case "R":
        out += `${pad(h)}:${pad(mi)}`;
        break;
      case "D":
        out += `${pad(M + 1)}/${pad(D)}/${pad(Y % 100)}`;
        break;
      case "F":
        out += `${pad(Y, 4)}-${pad(M + 1)}-${pad(D)}`;
        break;
      case "c":
        out += `${DAYS[wd].slice(0, 3)} ${MONTHS[M].slice(0, 3)} ${pad(D, 2, " ")} ${pad(h)}:${pad(mi)}:${
          pad(s)
        } ${Y}`;
        break;
      case "+":
        out += `${pad(Y, 4)}-${pad(M + 1)}-${pad(D)}T${pad(h)}:${pad(mi)}:${pad(s)}${autoFrac(ns)}${
          fmtOffset(off, true)
        }`;
        break;
      case "n":
        out += "\n";
        break;
      case "t":
        out += "\t";
        break;
      case "%":
        out += "%";
        break;
      default:
        throw new Error(`invalid format specifier %${spec ?? ""}`);
    }
  }
  return out;
}

interface Parsed {
  Y?: number;
  M?: number;
  D?: number;
  h?: number;
  h12?: number;
  pm?: boolean;
  mi?: number;
  s?: number;
  ns?: number;
  off?: number;
  epoch?: number;
  doy?: number;
}

type Field = { re: string; set: (p: Parsed, v: string) => void };

const monthIdx = (v: string) =>
  MONTHS.findIndex((m) => m.slice(0, 3).toLowerCase() === v.slice(0, 3).toLowerCase()) + 1;

function parseOffset(v: string): number {
  if (v === "Z" || v === "z" || v.toUpperCase() === "UTC" || v.toUpperCase() === "GMT") return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(v)!;
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

const FIELDS: Record<string, Field> = {
  Y: { re: "([+-]?\\d{1,6})", set: (p, v) => (p.Y = Number(v)) },
  y: { re: "(\\d{2})", set: (p, v) => (p.Y = 2000 + Number(v) - (Number(v) >= 70 ? 100 : 0)) },
  m: { re: "(\\d{1,2})", set: (p, v) => (p.M = Number(v)) },
  b: { re: "([A-Za-z]{3})", set: (p, v) => (p.M = monthIdx(v)) },
  B: { re: "([A-Za-z]{3,9})", set: (p, v) => (p.M = monthIdx(v)) },
  d: { re: "(\\d{1,2})", set: (p, v) => (p.D = Number(v)) },
  e: { re: " ?(\\d{1,2})", set: (p, v) => (p.D = Number(v)) },
  j: { re: "(\\d{1,3})", set: (p, v) => (p.doy = Number(v)) },
  a: { re: "([A-Za-z]{3})", set: () => {} },
  A: { re: "([A-Za-z]{6,9})", set: () => {} },
  H: { re: "(\\d{1,2})", set: (p, v) => (p.h = Number(v)) },
  k: { re: " ?(\\d{1,2})", set: (p, v) => (p.h = Number(v)) },
  I: { re: "(\\d{1,2})", set: (p, v) => (p.h12 = Number(v)) },
  l: { re: " ?(\\d{1,2})", set: (p, v) => (p.h12 = Number(v)) },
  M: { re: "(\\d{1,2})", set: (p, v) => (p.mi = Number(v)) },
  S: { re: "(\\d{1,2})", set: (p, v) => (p.s = Number(v)) },
  f: { re: "(\\d{1,9})", set: (p, v) => (p.ns = fracToNs(v)) },
  ".f": { re: "(?:\\.(\\d{1,9}))?", set: (p, v) => (p.ns = fracToNs(v ?? "")) },
  p: { re: "([AaPp][Mm])", set: (p, v) => (p.pm = v.toLowerCase() === "pm") },
  P: { re: "([AaPp][Mm])", set: (p, v) => (p.pm = v.toLowerCase() === "pm") },
  z: { re: "([+-]\\d{2}:?(?:\\d{2})?|Z|z|UTC|GMT)", set: (p, v) => (p.off = parseOffset(v)) },
  ":z": { re: "([+-]\\d{2}:?\\d{2}|Z|z)", set: (p, v) => (p.off = parseOffset(v)) },
  Z: {
    re: "([A-Za-z][A-Za-z_/+-]*|[+-]\\d{2}:?\\d{2})",
    set: (p, v) => (p.off = /^(UTC|GMT|Z)$/i.test(v) || /^[+-]/.test(v) ? parseOffset(v) : p.off),
  },
  s: { re: "(-?\\d+)", set: (p, v) => (p.epoch = Number(v)) },
};

const EXPAND: Record<string, string> = {
  T: "%H:%M:%S",
  R: "%H:%M",
  D: "%m/%d/%y",
  F: "%Y-%m-%d",
  c: "%a %b %e %H:%M:%S %Y",
  "+": "%Y-%m-%dT%H:%M:%S%.f%:z",
  h: "%b",
};

const strptimeCache = new Map<string, { re: RegExp; sets: Field["set"][] }>();

function compileStrptime(fmt: string): { re: RegExp; sets: Field["set"][] } {
  let cached = strptimeCache.get(fmt);
  if (cached) return cached;
  let re = "";
  const sets: Field["set"][] = [];
  const walk = (f: string) => {
    for (let i = 0; i < f.length; i++) {
      const c = f[i];
      if (c !== "%") {
        re += /\s/.test(c) ? "\\s+" : c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
        continue;
      }
      let spec = f[++i];
      if (spec === "-" || spec === "_" || spec === "0") spec = f[++i];
      if (spec === "." && /[369]?f/.test(f.slice(i + 1, i + 3))) {
        i += f[i + 1] === "f" ? 1 : 2;
        spec = ".f";
      } else if (/[369]/.test(spec) && f[i + 1] === "f") {
        i++;
        spec = "f";
      } else if (spec === ":" && f[i + 1] === "z") {
        i++;
        spec = ":z";
      }
      if (spec === "%") {
        re += "%";
        continue;
      }
      if (spec === "n" || spec === "t") {
        re += "\\s+";
        continue;
      }
      if (EXPAND[spec]) {
        walk(EXPAND[spec]);
        continue;
      }
      const fld = FIELDS[spec];
      if (!fld) throw new Error(`invalid format specifier %${spec ?? ""}`);
      re += fld.re;
      sets.push(fld.set);
    }
  };
  walk(fmt);
  cached = { re: new RegExp("^" + re + "$"), sets };
  if (strptimeCache.size > 1000) strptimeCache.clear();
  strptimeCache.set(fmt, cached);
  return cached;
}

/** chrono-style strptime; `tz` applies when the format has no offset. Throws with a reason on mismatch. */
export function strptime(input: string, fmt: string, tz = "UTC"): VrlTimestamp {
  const { re, sets } = compileStrptime(fmt);
  const m = re.exec(input);
  if (!m) throw new Error("input does not match format");
  const p: Parsed = {};
  sets.forEach((set, i) => set(p, m[i + 1]));
  if (p.epoch !== undefined) {
    return new VrlTimestamp(BigInt(p.epoch) * 1_000_000_000n + BigInt(p.ns ?? 0));
  }
  if (p.h12 !== undefined) p.h = (p.h12 % 12) + (p.pm ? 12 : 0);
  if (p.Y === undefined || (p.doy === undefined && (p.M === undefined || p.D === undefined)) || p.M === 0) {
    throw new Error("input is not enough for unique date and time");
  }
  if (p.doy !== undefined && p.M === undefined) {
    const d = new Date(Date.UTC(p.Y, 0, p.doy));
    p.M = d.getUTCMonth() + 1;
    p.D = d.getUTCDate();
  }
  let off = p.off;
  if (off === undefined) {
    const guess = Date.UTC(p.Y, p.M! - 1, p.D!, p.h ?? 0, p.mi ?? 0, p.s ?? 0);
    const o = tzOffset(tz, guess);
    if (o === null) throw new Error(`unknown timezone ${tz}`);
    off = tzOffset(tz, guess - o * 60_000) ?? o;
  }
  const ts = fromParts(p.Y, p.M!, p.D!, p.h ?? 0, p.mi ?? 0, p.s ?? 0, p.ns ?? 0, off);
  if (!ts) throw new Error("input is out of range");
  return ts;
}
