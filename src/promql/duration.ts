/** Prometheus durations (`model.Duration`): `1y2w3d4h5m6s7ms`, parsed and printed as Prometheus does. */

const UNIT_MS: Record<string, number> = {
  y: 365 * 86_400_000,
  w: 7 * 86_400_000,
  d: 86_400_000,
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
};
const ORDER = ["y", "w", "d", "h", "m", "s", "ms"];

/**
 * Milliseconds of a duration string, or null when it is not one (units must descend, each once).
 * @example parseDurationMs("1h30m") === 5_400_000
 */
export function parseDurationMs(text: string): number | null {
  if (text === "0") return 0;
  const re = /(\d+)(ms|y|w|d|h|m|s)/y;
  let pos = 0, total = 0, lastUnit = -1;
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (m === null) return null;
    const unit = ORDER.indexOf(m[2]);
    if (unit <= lastUnit) return null;
    lastUnit = unit;
    total += Number(m[1]) * UNIT_MS[m[2]];
    pos = re.lastIndex;
  }
  return pos === 0 || !Number.isSafeInteger(total) ? null : total;
}

/**
 * A duration as `model.Duration.String()` prints it: years and weeks only when exact.
 * @example formatDurationMs(5_400_000) === "1h30m"
 */
export function formatDurationMs(ms: number): string {
  if (ms === 0) return "0s";
  if (ms < 0) return "-" + formatDurationMs(-ms);
  let out = "";
  let rest = Math.trunc(ms);
  for (const unit of ORDER) {
    const mult = UNIT_MS[unit];
    if ((unit === "y" || unit === "w") && rest % mult !== 0) continue;
    const v = Math.floor(rest / mult);
    if (v > 0) {
      out += `${v}${unit}`;
      rest -= v * mult;
    }
  }
  return out;
}
