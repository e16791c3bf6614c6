/**
 * A parser for chrono's strftime dialect (reference §4.3), compiled once per format:
 * whitespace matches any run of whitespace, numeric fields take 1..width digits after optional
 * whitespace, `%.f`-style fractions are optional, `%z` needs `±hh[:]mm`, trailing input fails.
 */

type Num = "Y" | "C" | "y" | "m" | "d" | "H" | "I" | "M" | "S" | "j" | "f" | "s" | "u" | "w";
type Item =
  | { k: "lit"; s: string }
  | { k: "space" }
  | { k: "num"; f: Num; width: number; signed: boolean }
  | { k: "frac"; digits: 0 | 3 | 6 | 9; dot: boolean }
  | { k: "offset"; permissive: boolean }
  | { k: "tzname" }
  | { k: "month"; long: boolean }
  | { k: "weekday"; long: boolean }
  | { k: "ampm" };

/** The result of parsing: a UTC instant (zoned) or a wall-clock time (naive): ms + sub-ms ns. */
export interface ParsedTime {
  ms: number;
  subMs: number;
  zoned: boolean;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTHS_LONG = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const DAYS_LONG = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

const EXPAND: Record<string, string> = {
  T: "%H:%M:%S",
  D: "%m/%d/%y",
  F: "%Y-%m-%d",
  R: "%H:%M",
  r: "%I:%M:%S %p",
  c: "%a %b %e %H:%M:%S %Y",
  x: "%m/%d/%y",
  X: "%H:%M:%S",
  v: "%e-%b-%Y",
};

/** Compiles a format; returns null for an invalid format (chrono: `BadFormat`). */
export function compileStrftime(fmt: string): Item[] | null {
  const items: Item[] = [];
  let lit = "";
  const flush = () => {
    if (lit) items.push({ k: "lit", s: lit });
    lit = "";
  };
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i];
    if (c !== "%") {
      if (/\s/.test(c)) {
        flush();
        if (items[items.length - 1]?.k !== "space") items.push({ k: "space" });
      } else lit += c;
      continue;
    }
    let spec = fmt[++i];
    if (spec === undefined) return null;
    // Padding modifiers (`%-d`, `%_d`, `%0d`) do not change parsing.
    if (spec === "-" || spec === "_" || spec === "0") spec = fmt[++i];
    flush();
    const num = (f: Num, width: number, signed = false) => items.push({ k: "num", f, width, signed });
    switch (spec) {
      case "Y":
        num("Y", 4, true);
        break;
      case "C":
        num("C", 2);
        break;
      case "y":
        num("y", 2);
        break;
      case "m":
        num("m", 2);
        break;
      case "d":
      case "e":
        num("d", 2);
        break;
      case "H":
      case "k":
        num("H", 2);
        break;
      case "I":
      case "l":
        num("I", 2);
        break;
      case "M":
        num("M", 2);
        break;
      case "S":
        num("S", 2);
        break;
      case "j":
        num("j", 3);
        break;
      case "u":
        num("u", 1);
        break;
      case "w":
        num("w", 1);
        break;
      case "f":
        num("f", 9);
        break;
      case "s":
        num("s", 20, true);
        break;
      case "b":
      case "h":
        items.push({ k: "month", long: false });
        break;
      case "B":
        items.push({ k: "month", long: true });
        break;
      case "a":
        items.push({ k: "weekday", long: false });
        break;
      case "A":
        items.push({ k: "weekday", long: true });
        break;
      case "p":
      case "P":
        items.push({ k: "ampm" });
        break;
      case "Z":
        items.push({ k: "tzname" });
        break;
      case "z":
        items.push({ k: "offset", permissive: false });
        break;
      case ":":
        if (fmt[i + 1] === "z") i++;
        else if (fmt.startsWith(":z", i + 1)) i += 2;
        else return null;
        items.push({ k: "offset", permissive: false });
        break;
      case "#":
        if (fmt[i + 1] !== "z") return null;
        i++;
        items.push({ k: "offset", permissive: true });
        break;
      case ".": {
        const d = fmt[i + 1];
        if (d === "f") {
          i++;
          items.push({ k: "frac", digits: 0, dot: true });
        } else if ((d === "3" || d === "6" || d === "9") && fmt[i + 2] === "f") {
          i += 2;
          items.push({ k: "frac", digits: Number(d) as 3 | 6 | 9, dot: true });
        } else return null;
        break;
      }
      case "3":
      case "6":
      case "9":
        if (fmt[i + 1] !== "f") return null;
        i++;
        items.push({ k: "frac", digits: Number(spec) as 3 | 6 | 9, dot: false });
        break;
      case "%":
        lit += "%";
        break;
      case "n":
      case "t":
        if (items[items.length - 1]?.k !== "space") items.push({ k: "space" });
        break;
      default: {
        const exp = EXPAND[spec];
        if (!exp) return null;
        const sub = compileStrftime(exp);
        if (!sub) return null;
        items.push(...sub);
      }
    }
  }
  flush();
  return items;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Parses `s` with compiled `items`; null when it does not match completely. */
export function parseStrftime(s: string, items: Item[]): ParsedTime | null {
  let pos = 0;
  const len = s.length;
  let year: number | undefined, century: number | undefined, yy: number | undefined;
  let month: number | undefined, day: number | undefined, ordinal: number | undefined;
  let hour: number | undefined, hour12: number | undefined, pm: boolean | undefined;
  let minute: number | undefined, second: number | undefined, nanos = 0;
  let offset: number | undefined, epoch: number | undefined, weekday: number | undefined;
  for (let idx = 0; idx < items.length; idx++) {
    const it = items[idx];
    switch (it.k) {
      case "lit":
        if (it.s.length === 1 ? s.charCodeAt(pos) !== it.s.charCodeAt(0) : !s.startsWith(it.s, pos)) {
          return null;
        }
        pos += it.s.length;
        break;
      case "space":
        while (pos < len && isSpace(s.charCodeAt(pos))) pos++;
        break;
      case "num": {
        while (pos < len && isSpace(s.charCodeAt(pos))) pos++;
        let neg = false;
        let maxW = it.width;
        if (it.signed && (s[pos] === "-" || s[pos] === "+")) {
          neg = s[pos] === "-";
          pos++;
          maxW = 40;
        }
        const start = pos;
        let acc = 0;
        while (pos < len && pos - start < maxW) {
          const c = s.charCodeAt(pos) - 48;
          if (c < 0 || c > 9) break;
          acc = acc * 10 + c;
          pos++;
        }
        if (pos === start) return null;
        const v = neg ? -acc : acc;
        if (it.f === "s") {
          epoch = v;
          break;
        }
        switch (it.f) {
          case "Y":
            year = v;
            break;
          case "C":
            century = v;
            break;
          case "y":
            yy = v;
            break;
          case "m":
            month = v;
            break;
          case "d":
            day = v;
            break;
          case "H":
            hour = v;
            break;
          case "I":
            hour12 = v;
            break;
          case "M":
            minute = v;
            break;
          case "S":
            second = v;
            break;
          case "j":
            ordinal = v;
            break;
          case "f":
            nanos = v;
            break;
          case "u":
            if (v < 1 || v > 7) return null;
            weekday = v % 7;
            break;
          case "w":
            if (v > 6) return null;
            weekday = v;
            break;
        }
        break;
      }
      case "frac": {
        if (it.dot) {
          if (s[pos] !== ".") break;
          pos++;
        }
        const start = pos;
        const want = it.digits === 0 ? 9 : it.digits;
        let acc = 0;
        let taken = 0;
        while (pos < len) {
          const c = s.charCodeAt(pos) - 48;
          if (c < 0 || c > 9) break;
          if (taken < want) {
            acc = acc * 10 + c;
            taken++;
          } else if (it.digits !== 0) break;
          pos++;
        }
        if (pos === start || taken < (it.digits === 0 ? 1 : it.digits)) return null;
        nanos = acc * POW10[9 - taken];
        break;
      }
      case "offset": {
        while (pos < len && isSpace(s.charCodeAt(pos))) pos++;
        if (it.permissive && (s[pos] === "Z" || s[pos] === "z")) {
          pos++;
          offset = 0;
          break;
        }
        const sign = s[pos];
        if (sign !== "+" && sign !== "-") return null;
        pos++;
        const hh = twoDigits(s, pos);
        if (hh < 0) return null;
        pos += 2;
        if (s[pos] === ":" || s[pos] === " ") pos++;
        const mm = twoDigits(s, pos);
        if (mm < 0) {
          if (!it.permissive) return null;
          offset = (sign === "-" ? -1 : 1) * hh * 3600;
          break;
        }
        pos += 2;
        offset = (sign === "-" ? -1 : 1) * (hh * 3600 + mm * 60);
        break;
      }
      case "tzname":
        while (pos < len && !isSpace(s.charCodeAt(pos))) pos++;
        break;
      case "month": {
        const idx = matchName(s, pos, MONTHS, it.long ? MONTHS_LONG : undefined);
        if (idx < 0) return null;
        month = (idx >> 4) + 1;
        pos += idx & 15;
        break;
      }
      case "weekday": {
        const idx = matchName(s, pos, DAYS, it.long ? DAYS_LONG : undefined);
        if (idx < 0) return null;
        weekday = idx >> 4;
        pos += idx & 15;
        break;
      }
      case "ampm": {
        const t = s.slice(pos, pos + 2).toLowerCase();
        if (t !== "am" && t !== "pm") return null;
        pm = t === "pm";
        pos += 2;
        break;
      }
    }
  }
  if (pos !== len) return null;
  const subMs = nanos % 1_000_000;
  const nanoMs = (nanos - subMs) / 1_000_000;
  if (epoch !== undefined) return { ms: epoch * 1000 + nanoMs, subMs, zoned: offset !== undefined };
  if (year === undefined) {
    if (yy === undefined) return null;
    year = century !== undefined ? century * 100 + yy : (yy < 70 ? 2000 + yy : 1900 + yy);
  } else if (century !== undefined || yy !== undefined) {
    if (century !== undefined && Math.floor(year / 100) !== century) return null;
    if (yy !== undefined && year % 100 !== yy) return null;
  }
  if (hour === undefined) {
    if (hour12 === undefined || pm === undefined || hour12 < 1 || hour12 > 12) return null;
    hour = (hour12 % 12) + (pm ? 12 : 0);
  } else if (hour > 23) return null;
  if (minute === undefined || minute > 59) return null;
  const sec = second ?? 0;
  if (sec > 60) return null;
  let dayMs: number;
  if (month !== undefined && day !== undefined) {
    if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
    dayMs = Date.UTC(year, month - 1, day);
  } else if (ordinal !== undefined) {
    if (ordinal < 1 || ordinal > (isLeap(year) ? 366 : 365)) return null;
    dayMs = Date.UTC(year, 0, ordinal);
  } else return null;
  if (year >= 0 && year < 100) dayMs = setFullYear(dayMs, year);
  if (weekday !== undefined && new Date(dayMs).getUTCDay() !== weekday) return null;
  const ms = dayMs + (hour * 3600 + minute * 60 + sec - (offset ?? 0)) * 1000 + nanoMs;
  if (!Number.isFinite(ms)) return null;
  return { ms, subMs, zoned: offset !== undefined };
}

function twoDigits(s: string, pos: number): number {
  const a = s.charCodeAt(pos) - 48;
  const b = s.charCodeAt(pos + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

// ASCII case-insensitive prefix test without allocating.
function startsWithCi(s: string, pos: number, lower: string): boolean {
  if (pos + lower.length > s.length) return false;
  for (let i = 0; i < lower.length; i++) {
    if ((s.charCodeAt(pos + i) | 32) !== lower.charCodeAt(i)) return false;
  }
  return true;
}

// Returns index * 16 + matched length, or -1 (packed to avoid allocating a result per call).
function matchName(s: string, pos: number, short: string[], long?: string[]): number {
  if (long) {
    for (let i = 0; i < long.length; i++) if (startsWithCi(s, pos, long[i])) return i * 16 + long[i].length;
  }
  for (let i = 0; i < short.length; i++) if (startsWithCi(s, pos, short[i])) return i * 16 + 3;
  return -1;
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const POW10 = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000];
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function daysIn(y: number, m: number): number {
  return m === 2 && isLeap(y) ? 29 : DAYS_IN_MONTH[m - 1];
}

// Date.UTC maps years 0..99 to 1900..1999; put the real year back.
function setFullYear(ms: number, year: number): number {
  const d = new Date(ms);
  d.setUTCFullYear(year);
  return d.getTime();
}
