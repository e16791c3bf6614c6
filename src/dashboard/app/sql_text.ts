/** SQL text the dashboard builds: quoted identifiers and literals, and cell values for display. */

/** A double-quoted identifier (`"my table"`), with embedded quotes doubled. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A single-quoted string literal, with embedded quotes doubled. */
export function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

const TIME_UNITS: Record<string, number> = {
  TimestampSecond: 1,
  TimestampMillisecond: 1e3,
  TimestampMicrosecond: 1e6,
  TimestampNanosecond: 1e9,
};

/** Whether a column type is a timestamp. */
export function isTimestampType(dataType: string): boolean {
  return dataType in TIME_UNITS;
}

/**
 * A timestamp value (an integer in the column's unit, possibly as exact digits) as UTC text with
 * the unit's precision: `2024-01-02 03:04:05.123456789`.
 */
export function formatTimestamp(value: unknown, dataType: string): string {
  const perSecond = TIME_UNITS[dataType];
  if (perSecond === undefined || (typeof value !== "number" && typeof value !== "string")) {
    return String(value);
  }
  let big: bigint;
  try {
    big = BigInt(value);
  } catch {
    return String(value);
  }
  const unit = BigInt(perSecond);
  let seconds = big / unit;
  let frac = big % unit;
  if (frac < 0n) {
    frac += unit;
    seconds -= 1n;
  }
  const date = new Date(Number(seconds) * 1000);
  if (Number.isNaN(date.getTime())) return String(value);
  const base = date.toISOString().slice(0, 19).replace("T", " ");
  const digits = String(perSecond).length - 1;
  return digits === 0 ? base : `${base}.${frac.toString().padStart(digits, "0")}`;
}

/** A cell as text: timestamps as UTC, JSON as compact JSON, null as empty. */
export function formatCell(value: unknown, dataType = ""): string {
  if (value === null || value === undefined) return "";
  if (isTimestampType(dataType)) return formatTimestamp(value, dataType);
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
