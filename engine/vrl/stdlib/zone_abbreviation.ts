/**
 * Time zone abbreviations as chrono-tz prints them for `%Z` (`EST`, `CEST`, `GMT`, `+04`). `Intl` has
 * no IANA abbreviations (its short names are per locale: `GMT+1` in en-US), so they come from a table
 * of the tz database (`data/zone_abbreviations.ts`); the offset in force still comes from `Intl`.
 */

import { ZONE_ABBREVIATIONS } from "./data/zone_abbreviations.ts";
import { lenientTimeZone } from "../../../src/common/timezone.ts";

/** A zone's eras, oldest first: from `startMs` on, each offset (minutes) has that abbreviation. */
type Eras = { startMs: number; byOffset: Map<number, string> }[];

let rowsByName: Map<string, string> | null = null;
const parsed = new Map<string, Eras | null>();

function parseEras(data: string): Eras {
  const eras: Eras = [];
  let byOffset = new Map<number, string>();
  for (const [i, era] of data.split("|").entries()) {
    const colon = i === 0 ? -1 : era.indexOf(":");
    byOffset = new Map(byOffset);
    for (const entry of era.slice(colon + 1).split(",")) {
      const space = entry.lastIndexOf(" ");
      byOffset.set(Number(entry.slice(space + 1)), entry.slice(0, space));
    }
    eras.push({ startMs: i === 0 ? -Infinity : Number(era.slice(0, colon)) * 1000, byOffset });
  }
  return eras;
}

function erasOf(zone: string): Eras | null {
  let eras = parsed.get(zone);
  if (eras !== undefined) return eras;
  if (!rowsByName) {
    rowsByName = new Map();
    for (const [names, data] of ZONE_ABBREVIATIONS) for (const n of names.split(" ")) rowsByName.set(n, data);
  }
  // Petrel takes zone names in any case (`asia/tokyo`); Intl gives back the spelling the table uses.
  const data = rowsByName.get(zone) ?? rowsByName.get(lenientTimeZone(zone)?.name ?? "");
  eras = data === undefined ? null : parseEras(data);
  if (parsed.size > 1000) parsed.clear();
  parsed.set(zone, eras);
  return eras;
}

/** chrono-tz's rendering of an offset without a name in the tz database: `+04`, `-0930`. */
function numericAbbreviation(offMin: number): string {
  const a = Math.abs(offMin);
  const mm = a % 60;
  return (offMin < 0 ? "-" : "+") + String(Math.floor(a / 60)).padStart(2, "0") +
    (mm ? String(mm).padStart(2, "0") : "");
}

/** What chrono-tz prints for `%Z` in IANA zone `zone` at instant `ms`, where the offset is `offMin`. */
export function zoneAbbreviation(zone: string, ms: number, offMin: number): string {
  const eras = erasOf(zone);
  if (eras) {
    for (let i = eras.length - 1; i >= 0; i--) {
      if (eras[i].startMs <= ms) {
        const abbr = eras[i].byOffset.get(offMin);
        if (abbr !== undefined) return abbr;
        break;
      }
    }
  }
  // A zone or offset newer than the table (or an older `Intl`): what chrono-tz prints for unnamed offsets.
  return numericAbbreviation(offMin);
}
