/**
 * MaxMind databases the geoip/mmdb enrichment tests build with the test writer: a GeoIP2 City with
 * an IPv4 and an IPv6 network (records shaped as MaxMind's), a GeoLite2 ASN, a GeoIP2 ISP, a Connection-Type, an Anonymous-IP and a
 * custom IPv4-only database.
 */

import type { EnrichmentTableConfig } from "../../src/config/enrichment_tables.ts";
import { mmdb, type MmdbSpec, writeMmdb } from "../helpers/mmdb_writer.ts";

const names = (en: string, de: string) => ({ en, de });

/** A GeoIP2 City record as MaxMind ships it (the fields Vector reads and some it does not). */
export const CITY_PARIS = {
  city: { geoname_id: 2988507, names: names("Paris", "Paris") },
  continent: { code: "EU", geoname_id: 6255148, names: names("Europe", "Europa") },
  country: { geoname_id: 3017382, iso_code: "FR", names: names("France", "Frankreich") },
  location: { accuracy_radius: 20, latitude: 48.8534, longitude: 2.3488, time_zone: "Europe/Paris" },
  postal: { code: "75001" },
  subdivisions: [{ geoname_id: 3012874, iso_code: "IDF", names: names("Île-de-France", "Île-de-France") }],
};

const CITY_NEW_YORK = {
  city: { names: { en: "New York" } },
  continent: { code: "NA", names: { en: "North America" } },
  country: { iso_code: "US", names: { en: "United States", de: "USA" } },
  location: {
    latitude: mmdb.double(41),
    longitude: -74.006,
    metro_code: mmdb.uint16(501),
    time_zone: "America/New_York",
  },
  postal: { code: "10001" },
  subdivisions: [{ iso_code: "NY", names: { en: "New York" } }, {
    iso_code: "NYC",
    names: { en: "Manhattan" },
  }],
};

const SPECS: Record<string, MmdbSpec> = {
  city: {
    databaseType: "GeoIP2-City",
    languages: ["de", "en"],
    networks: [
      ["2.0.0.0/8", CITY_PARIS],
      ["2001:db8:100::/40", CITY_NEW_YORK],
      // A network MaxMind knows only the country of.
      ["5.5.0.0/16", { country: { iso_code: "DE", names: { en: "Germany" } }, continent: { code: "EU" } }],
    ],
  },
  asn: {
    databaseType: "GeoLite2-ASN",
    networks: [
      ["1.0.0.0/24", { autonomous_system_number: 13335, autonomous_system_organization: "CLOUDFLARENET" }],
      ["2606:4700::/32", {
        autonomous_system_number: 13335,
        autonomous_system_organization: "CLOUDFLARENET",
      }],
    ],
  },
  isp: {
    databaseType: "GeoIP2-ISP",
    networks: [["8.8.8.0/24", {
      autonomous_system_number: 15169,
      autonomous_system_organization: "GOOGLE",
      isp: "Google",
      organization: "Google LLC",
    }]],
  },
  connection: {
    databaseType: "GeoIP2-Connection-Type",
    networks: [["3.0.0.0/8", { connection_type: "Corporate" }]],
  },
  anonymous: {
    databaseType: "GeoIP2-Anonymous-IP",
    networks: [["4.0.0.0/8", { is_anonymous: true, is_public_proxy: true }]],
  },
  custom: {
    databaseType: "Petrel-Custom",
    ipVersion: 4,
    recordSize: 24,
    networks: [
      ["10.0.0.0/8", {
        site: "lab",
        rack: 7,
        weight: mmdb.double(2),
        load: 0.25,
        tags: ["a", "b"],
        raw: new Uint8Array([104, 105]),
        ratio: mmdb.float(0.5),
        ok: true,
      }],
      ["10.1.0.0/16", { site: "lab-annex", owner: { team: "infra", pager: mmdb.uint64(2n ** 63n + 5n) } }],
    ],
  },
};

/** Writes the databases under `dir` and returns their tables (`geo_de` reads the City in German). */
export async function writeGeoipTables(dir: string): Promise<EnrichmentTableConfig[]> {
  for (const [name, spec] of Object.entries(SPECS)) {
    await Deno.writeFile(`${dir}/${name}.mmdb`, writeMmdb(spec));
  }
  return [
    { name: "geo", type: "geoip", path: `${dir}/city.mmdb`, locale: "en" },
    { name: "geo_de", type: "geoip", path: `${dir}/city.mmdb`, locale: "de" },
    { name: "asn", type: "geoip", path: `${dir}/asn.mmdb`, locale: "en" },
    { name: "isp", type: "geoip", path: `${dir}/isp.mmdb`, locale: "en" },
    { name: "conn", type: "geoip", path: `${dir}/connection.mmdb`, locale: "en" },
    { name: "anon", type: "geoip", path: `${dir}/anonymous.mmdb`, locale: "en" },
    { name: "nets", type: "mmdb", path: `${dir}/custom.mmdb` },
    { name: "city_raw", type: "mmdb", path: `${dir}/city.mmdb` },
  ];
}
