/**
 * Human duration and size strings as GreptimeDB's config accepts them (humantime durations like
 * `30s`, `1h30m`, `1h 30m`, `7days`; ReadableSize sizes like `64MiB`, `64MB`, `1GB`).
 */

const DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  nsec: 1e-6,
  us: 1e-3,
  "µs": 1e-3,
  usec: 1e-3,
  ms: 1,
  msec: 1,
  millis: 1,
  s: 1000,
  sec: 1000,
  secs: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hrs: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
  w: 604_800_000,
  week: 604_800_000,
  weeks: 604_800_000,
  nanos: 1e-6,
  nano: 1e-6,
  nanosecond: 1e-6,
  nanoseconds: 1e-6,
  micros: 1e-3,
  micro: 1e-3,
  microsecond: 1e-3,
  microseconds: 1e-3,
  milli: 1,
  millisecond: 1,
  milliseconds: 1,
  wk: 604_800_000,
  yr: 31_557_600_000,
  M: 2_630_016_000,
  month: 2_630_016_000,
  months: 2_630_016_000,
  y: 31_557_600_000,
  year: 31_557_600_000,
  years: 31_557_600_000,
};

/** Parses a humantime duration (`"30s"`, `"1h30m"`, `"1h 30m"`, `"0s"`) into milliseconds; null if invalid. */
export function parseDuration(text: string): number | null {
  const s = text.trim();
  if (s === "") return null;
  if (s === "0") return 0;
  const re = /(\d+(?:\.\d+)?)\s*([a-zA-Zµ]+)\s*/y;
  let total = 0;
  let pos = 0;
  while (pos < s.length) {
    re.lastIndex = pos;
    const m = re.exec(s);
    if (!m) return null;
    const unit = DURATION_UNITS[m[2]] ?? DURATION_UNITS[m[2].toLowerCase()];
    if (unit === undefined) return null;
    total += Number(m[1]) * unit;
    pos = re.lastIndex;
  }
  return total;
}

/** Renders milliseconds back as humantime does (`"1h 30m"`, `"30s"`, `"0s"`). */
export function formatDuration(ms: number): string {
  if (ms === 0) return "0s";
  const parts: string[] = [];
  let rest = ms;
  for (
    const [unit, size] of [["d", 86_400_000], ["h", 3_600_000], ["m", 60_000], ["s", 1000], [
      "ms",
      1,
    ]] as const
  ) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  if (rest > 0) parts.push(`${Math.round(rest * 1e6)}ns`);
  return parts.join(" ");
}

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  tib: 1024 ** 4,
  p: 1024 ** 5,
  pb: 1024 ** 5,
  pib: 1024 ** 5,
};

/**
 * Parses a size (`"64MiB"`, `"64MB"`, `"1GB"`, `"512"`) into bytes; null if invalid. Like GreptimeDB's
 * ReadableSize, `MB` and `MiB` both mean 2^20 bytes, so config files move between the two unchanged.
 */
export function parseSize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  if (!m) return null;
  const unit = SIZE_UNITS[m[2].toLowerCase() || "b"];
  if (unit === undefined) return null;
  return Math.floor(Number(m[1]) * unit);
}

/** Renders bytes in the largest binary unit that divides them (`67108864` → `"64MiB"`). */
export function formatSize(bytes: number): string {
  for (
    const [unit, size] of [["PiB", 1024 ** 5], ["TiB", 1024 ** 4], ["GiB", 1024 ** 3], ["MiB", 1024 ** 2], [
      "KiB",
      1024,
    ]] as const
  ) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return `${bytes}B`;
}
