/**
 * IANA time zones through `Intl`: offsets at an instant, and local→UTC conversion that fails on
 * DST-ambiguous or non-existent local times (as chrono's `from_local_datetime(..).single()` does).
 */

/** A named time zone with cached offset lookups. */
export interface TimeZone {
  readonly name: string;
  /** Offset from UTC in ms at the UTC instant `utcMs`. */
  offsetAt(utcMs: number): number;
  /** The UTC instant of a local wall-clock time (given as ms since epoch "as if UTC"); null if none/ambiguous. */
  localToUtc(localMs: number): number | null;
}

const UTC: TimeZone = { name: "UTC", offsetAt: () => 0, localToUtc: (ms) => ms };
/**
 * Zones (and unknown names, as null) looked up so far, per spelling; names come from requests (a
 * time zone header, SQL `SET time_zone`), so past {@link CACHED_NAMES} the cache starts over.
 */
const zones = new Map<string, TimeZone | null>();
/** Spellings each zone cache keeps (IANA has ~600 zones). */
const CACHED_NAMES = 1000;

/** Spellings cached now, by `resolveTimeZone` and `lenientTimeZone` together (for tests). */
export function cachedTimeZoneNames(): number {
  return zones.size + lenient.size;
}

/** Resolves a chrono-tz style name (case-sensitive, no fixed offsets); null when unknown. */
export function resolveTimeZone(name: string): TimeZone | null {
  if (name === "UTC") return UTC;
  const hit = zones.get(name);
  if (hit !== undefined) return hit;
  let tz: TimeZone | null = null;
  if (/^[A-Za-z]/.test(name)) {
    try {
      const fmt = zoneFormatter(name);
      const resolved = fmt.resolvedOptions().timeZone;
      // Intl matches names case-insensitively; chrono-tz does not.
      if (resolved === name || resolved.toLowerCase() !== name.toLowerCase()) tz = makeZone(name, fmt);
    } catch {
      tz = null;
    }
  }
  if (zones.size >= CACHED_NAMES) zones.clear();
  zones.set(name, tz);
  return tz;
}

/** The formatter offsets are read from; throws RangeError for a zone Intl does not know. */
function zoneFormatter(name: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat("en-US", {
    timeZone: name,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  });
}

const lenient = new Map<string, TimeZone | null>();

/**
 * Like `resolveTimeZone`, but takes any zone name `Intl` knows, in any case (SQL session time zones
 * and VRL accept `asia/shanghai`); null when unknown.
 */
export function lenientTimeZone(name: string): TimeZone | null {
  const exact = resolveTimeZone(name);
  if (exact) return exact;
  const hit = lenient.get(name);
  if (hit !== undefined) return hit;
  let tz: TimeZone | null = null;
  try {
    const fmt = zoneFormatter(name);
    tz = makeZone(fmt.resolvedOptions().timeZone, fmt);
  } catch {
    tz = null;
  }
  if (lenient.size >= CACHED_NAMES) lenient.clear();
  lenient.set(name, tz);
  return tz;
}

function makeZone(name: string, fmt: Intl.DateTimeFormat): TimeZone {
  const cache = new Map<number, number>();
  const compute = (utcMs: number): number => {
    const parts = fmt.formatToParts(new Date(utcMs));
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
    const local = Date.UTC(
      get("year"),
      get("month") - 1,
      get("day"),
      get("hour"),
      get("minute"),
      get("second"),
    );
    return local - Math.floor(utcMs / 1000) * 1000;
  };
  const offsetAt = (utcMs: number): number => {
    // Transitions happen on quarter-hour boundaries, so one lookup per 15 minutes suffices.
    const key = Math.floor(utcMs / 900_000);
    let off = cache.get(key);
    if (off === undefined) {
      off = compute(key * 900_000);
      if (cache.size > 100_000) cache.clear();
      cache.set(key, off);
    }
    return off;
  };
  const localToUtc = (localMs: number): number | null => {
    const candidates = new Set([
      offsetAt(localMs - 86_400_000),
      offsetAt(localMs),
      offsetAt(localMs + 86_400_000),
    ]);
    let found: number | null = null;
    let count = 0;
    for (const off of candidates) {
      const t = localMs - off;
      if (offsetAt(t) === off && t !== found) {
        found = t;
        count++;
      }
    }
    return count === 1 ? found : null;
  };
  return { name, offsetAt, localToUtc };
}
