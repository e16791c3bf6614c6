/**
 * Vector's `geoip` table shapes (`src/enrichment_tables/geoip.rs`): the database type in the metadata
 * picks the kind (`GeoLite2-ASN` → ASN, `GeoIP2-ISP` → ISP, `GeoIP2-Connection-Type` → connection
 * type, `GeoIP2-Anonymous-IP` → anonymous-IP flags, anything else is read as a City database), and each kind's record is flattened to Vector's
 * fields, null where the database has nothing. Names are read in the table's `locale`; the region is
 * the last (most specific) subdivision. `select` keeps only the named fields of the kind.
 */

import type { VrlObject, VrlValue } from "../value.ts";
import { type MmdbRecord, toVrl } from "./mmdb_value.ts";

/** The kinds of MaxMind database Vector's geoip table knows. */
export type GeoipKind = "asn" | "isp" | "connection_type" | "anonymous_ip" | "city";

const ANONYMOUS_IP_FIELDS = [
  "is_anonymous",
  "is_anonymous_vpn",
  "is_hosting_provider",
  "is_public_proxy",
  "is_residential_proxy",
  "is_tor_exit_node",
];

/** Vector's `DatabaseKind::from(database_type)`. */
export function geoipKind(databaseType: string): GeoipKind {
  switch (databaseType) {
    case "GeoLite2-ASN":
      return "asn";
    case "GeoIP2-ISP":
      return "isp";
    case "GeoIP2-Connection-Type":
      return "connection_type";
    case "GeoIP2-Anonymous-IP":
      return "anonymous_ip";
    default:
      return "city";
  }
}

/** The flattened record of one lookup. */
export function geoipRecord(kind: GeoipKind, raw: MmdbRecord, locale: string, select?: string[]): VrlObject {
  const out: VrlObject = new Map();
  const add = (key: string, value: VrlValue | undefined) => {
    if (!select || select.includes(key)) out.set(key, value ?? null);
  };
  const r = asObject(raw);
  switch (kind) {
    case "asn":
    case "isp":
      // Vector reads ASN and ISP databases through the same ISP record.
      add("autonomous_system_number", integer(r.autonomous_system_number));
      add("autonomous_system_organization", text(r.autonomous_system_organization));
      add("isp", text(r.isp));
      add("organization", text(r.organization));
      break;
    case "connection_type":
      add("connection_type", text(r.connection_type));
      break;
    case "anonymous_ip":
      // MaxMind stores only the flags that are true.
      for (const f of ANONYMOUS_IP_FIELDS) add(f, typeof r[f] === "boolean" ? r[f] as boolean : undefined);
      break;
    case "city": {
      const name = (o: unknown) => text(asObject(asObject(o).names)[locale]);
      add("city_name", name(r.city));
      add("continent_code", text(asObject(r.continent).code));
      add("country_code", text(asObject(r.country).iso_code));
      add("country_name", name(r.country));
      const location = asObject(r.location);
      add("timezone", text(location.time_zone));
      add("latitude", float(location.latitude));
      add("longitude", float(location.longitude));
      add("metro_code", integer(location.metro_code));
      const subdivisions = Array.isArray(r.subdivisions) ? r.subdivisions : [];
      const region = subdivisions.at(-1);
      add("region_name", name(region));
      add("region_code", text(asObject(region).iso_code));
      add("postal_code", text(asObject(r.postal).code));
      break;
    }
  }
  return out;
}

function asObject(v: unknown): Record<string, unknown> {
  return v && typeof v === "object" && !Array.isArray(v) ? v as Record<string, unknown> : {};
}

function text(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function integer(v: unknown): VrlValue | undefined {
  const x = v === undefined ? undefined : toVrl(v);
  return typeof x === "bigint" ? x : undefined;
}

function float(v: unknown): VrlValue | undefined {
  const x = v === undefined ? undefined : toVrl(v);
  if (typeof x === "number") return x;
  return typeof x === "bigint" ? Number(x) : undefined;
}
