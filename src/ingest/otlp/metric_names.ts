/**
 * OTLP metric and attribute names → Prometheus-style names, as GreptimeDB does (reference §7.3,
 * `src/servers/src/otlp/metrics.rs`, after Prometheus' otlptranslator): the name split on
 * non-alphanumerics and joined with `_`, the unit as a word suffix (UCUM → word), `total` for
 * monotonic sums, `ratio` for gauges of unit `1`, `_` before a leading digit. Also Rust's `f64`
 * Display, which GreptimeDB uses for `le`, `quantile` and double-valued labels.
 */

/** GreptimeDB's `x-greptime-otlp-metric-translation-strategy` values. */
export const TRANSLATION_STRATEGIES = [
  "UnderscoreEscapingWithSuffixes",
  "UnderscoreEscapingWithoutSuffixes",
  "NoUTF8EscapingWithSuffixes",
  "NoTranslation",
] as const;

/** How metric and label names are translated. */
export type TranslationStrategy = (typeof TRANSLATION_STRATEGIES)[number];

/** The kind of metric, for the suffix rules. */
export type MetricKind = "gauge" | "monotonic_sum" | "sum" | "histogram" | "summary";

const UNIT_WORDS: Record<string, string> = {
  d: "days",
  h: "hours",
  min: "minutes",
  s: "seconds",
  ms: "milliseconds",
  us: "microseconds",
  ns: "nanoseconds",
  By: "bytes",
  KiBy: "kibibytes",
  MiBy: "mebibytes",
  GiBy: "gibibytes",
  TiBy: "tebibytes",
  KBy: "kilobytes",
  MBy: "megabytes",
  GBy: "gigabytes",
  TBy: "terabytes",
  m: "meters",
  V: "volts",
  A: "amperes",
  J: "joules",
  W: "watts",
  g: "grams",
  Cel: "celsius",
  Hz: "hertz",
  "1": "",
  "%": "percent",
};

const UCUM_OF_WORD = new Map(Object.entries(UNIT_WORDS).filter(([, w]) => w !== "").map(([u, w]) => [w, u]));

/** A Prometheus unit word as its UCUM unit (`seconds` → `s`, `bytes` → `By`); other units as they are. */
export function ucumUnit(word: string): string {
  return UCUM_OF_WORD.get(word) ?? word;
}

const PER_UNIT_WORDS: Record<string, string> = {
  s: "second",
  m: "minute",
  h: "hour",
  d: "day",
  w: "week",
  mo: "month",
  y: "year",
};

const NON_ALNUM = /[^a-zA-Z0-9]+/;

function tokens(s: string): string[] {
  return s.split(NON_ALNUM).filter((t) => t !== "");
}

/** A unit part as its word (unknown units kept, cleaned), or null (empty, or an annotation in `{}`). */
function unitWord(unit: string, words: Record<string, string>): string | null {
  const u = unit.trim();
  if (u === "" || u.includes("{") || u.includes("}")) return null;
  const word = tokens(Object.hasOwn(words, u) ? words[u] : u).join("_");
  return word === "" ? null : word;
}

/** The unit suffix words: main unit and, for `a/b`, the per-unit (`per_<b>`). */
function unitSuffixes(unit: string): [string | null, string | null] {
  const slash = unit.indexOf("/");
  const main = slash < 0 ? unit : unit.slice(0, slash);
  const per = slash < 0 ? "" : unit.slice(slash + 1);
  return [unitWord(main, UNIT_WORDS), unitWord(per, PER_UNIT_WORDS)];
}

const cache = new Map<string, string>();

/** The table (metric) name of an OTLP metric under a translation strategy. */
export function metricName(
  name: string,
  unit: string,
  kind: MetricKind,
  strategy: TranslationStrategy,
): string {
  const key = `${strategy}\u0000${kind}\u0000${unit}\u0000${name}`;
  let out = cache.get(key);
  if (out === undefined) {
    out = computeMetricName(name, unit, kind, strategy);
    if (cache.size > 10_000) cache.clear();
    cache.set(key, out);
  }
  return out;
}

function computeMetricName(
  name: string,
  unit: string,
  kind: MetricKind,
  strategy: TranslationStrategy,
): string {
  if (strategy === "NoTranslation") return name;
  const escape = strategy !== "NoUTF8EscapingWithSuffixes";
  const suffixes = strategy !== "UnderscoreEscapingWithoutSuffixes";
  const parts = escape ? tokens(name) : [name];
  if (suffixes) {
    const has = (w: string) => escape ? parts.includes(w) : name.split("_").includes(w);
    if (unit !== "") {
      const [main, per] = unitSuffixes(unit);
      if (main !== null && !has(main)) parts.push(main);
      if (per !== null && !has(per)) parts.push("per", per);
    }
    if (kind === "monotonic_sum") moveToEnd(parts, "total");
    if (unit === "1" && kind === "gauge") moveToEnd(parts, "ratio");
  }
  const joined = parts.join("_");
  if (!escape) return joined;
  const c = joined.charCodeAt(0);
  return c >= 48 && c <= 57 ? "_" + joined : joined;
}

function moveToEnd(parts: string[], word: string): void {
  for (let i = parts.length - 1; i >= 0; i--) if (parts[i] === word) parts.splice(i, 1);
  parts.push(word);
}

const labelCache = new Map<string, string>();

/** A label name: non-alphanumerics → `_`, `key_` before a leading digit, `key` before a single leading `_`. */
export function labelName(name: string, escape: boolean): string {
  if (!escape || name === "") return name;
  let out = labelCache.get(name);
  if (out === undefined) {
    // per code point, as GreptimeDB's Rust regex: an astral character (emoji) is one `_`, not two
    out = name.replace(/[^a-zA-Z0-9]/gu, "_");
    const c = out.charCodeAt(0);
    if (c >= 48 && c <= 57) out = "key_" + out;
    else if (out[0] === "_" && out[1] !== "_") out = "key" + out;
    if (labelCache.size > 10_000) labelCache.clear();
    labelCache.set(name, out);
  }
  return out;
}

/**
 * Rust's `Display` of an f64: shortest round-trip digits, never an exponent, integral values
 * without `.0`, `inf`/`-inf`/`NaN`, and `-0` for negative zero.
 */
export function rustF64(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "inf";
  if (v === -Infinity) return "-inf";
  if (v === 0) return Object.is(v, -0) ? "-0" : "0";
  const s = String(v);
  const e = s.indexOf("e");
  if (e < 0) return s;
  const neg = s[0] === "-";
  const mantissa = s.slice(neg ? 1 : 0, e);
  const exp = Number(s.slice(e + 1));
  const dot = mantissa.indexOf(".");
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const point = (dot < 0 ? mantissa.length : dot) + exp;
  let out: string;
  if (point <= 0) out = "0." + "0".repeat(-point) + digits;
  else if (point >= digits.length) out = digits + "0".repeat(point - digits.length);
  else out = digits.slice(0, point) + "." + digits.slice(point);
  return neg ? "-" + out : out;
}
