/**
 * `get_enrichment_table_record` and `find_enrichment_table_records` over Vector's `geoip` and `mmdb`
 * tables, on MaxMind databases built by the test writer: Vector's flattened City, ASN, ISP and
 * Connection-Type records, the locale, `select`, unknown addresses and the lookup errors.
 */

import { loadEnrichmentTables } from "../../engine/vrl/enrichment/registry.ts";
import { exact, fails, ok, rejects, table } from "./harness.ts";
import { writeGeoipTables } from "./geoip_tables.ts";

const dir = await Deno.makeTempDir({ prefix: "geoip_vrl_" });
await loadEnrichmentTables(await writeGeoipTables(dir));
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));

const G = "get_enrichment_table_record";
const F = "find_enrichment_table_records";

const PARIS = {
  city_name: "Paris",
  continent_code: "EU",
  country_code: "FR",
  country_name: "France",
  latitude: 48.8534,
  longitude: 2.3488,
  metro_code: null,
  postal_code: "75001",
  region_code: "IDF",
  region_name: "Île-de-France",
  timezone: "Europe/Paris",
};
const CITY_NULLS = Object.fromEntries(Object.keys(PARIS).map((k) => [k, null]));

table("geoip City", [
  ok(`${G}!("geo", {"ip": .client_ip})`, PARIS, { client_ip: "2.3.4.5" }),
  ok(`${G}!("geo", {"ip": "2.255.255.255"}, ["city_name", "country_code"])`, {
    city_name: "Paris",
    country_code: "FR",
  }),
  // The last subdivision is the region; integral coordinates are still floats; metro_code an integer.
  exact(
    `${G}!("geo", {"ip": "2001:db8:1ff::1"}, ["latitude", "longitude", "metro_code", "region_code", "region_name"])`,
    `{"latitude":41.0,"longitude":-74.006,"metro_code":501,"region_code":"NYC","region_name":"Manhattan"}`,
  ),
  // Names in the table's locale; a name missing in that locale is null.
  ok(`${G}!("geo_de", {"ip": "2.0.0.1"}, ["city_name", "country_name"])`, {
    city_name: "Paris",
    country_name: "Frankreich",
  }),
  ok(`${G}!("geo_de", {"ip": "2001:db8:100::"}, ["city_name", "country_name"])`, {
    city_name: null,
    country_name: "USA",
  }),
  // What the database does not know is null, every field present.
  ok(`${G}!("geo", {"ip": "5.5.1.1"})`, {
    ...CITY_NULLS,
    country_code: "DE",
    country_name: "Germany",
    continent_code: "EU",
  }),
  // select keeps only the kind's fields (unknown names are ignored).
  ok(`${G}!("geo", {"ip": "2.0.0.1"}, ["timezone", "nope"])`, { timezone: "Europe/Paris" }),
  ok(`${G}!("geo", {"ip": "2.0.0.1"}, [])`, {}),
  // The condition's field name is not checked, as in Vector; case_sensitive and wildcard mean nothing.
  ok(`${G}!("geo", {"address": "2.0.0.1"}, ["city_name"], case_sensitive: false, wildcard: "*")`, {
    city_name: "Paris",
  }),
  fails(`${G}!("geo", {"ip": "9.9.9.9"})`, "IP not found"),
  fails(`${G}!("geo", {"ip": "2001:db9::1"})`, "IP not found"),
  ok(`${G}("geo", {"ip": "9.9.9.9"}) ?? "unknown"`, "unknown"),
  fails(`${G}!("geo", {"ip": "not an ip"})`, "Invalid IP address"),
  fails(`${G}!("geo", {"ip": "2.0.0.1/8"})`, "Invalid IP address"),
  fails(`${G}!("geo", {"ip": "fe80::1%eth0"})`, "Invalid IP address"),
  fails(`${G}!("geo", {"ip": 33554433})`, "Invalid IP address"),
  fails(`${G}!("geo", {"ip": .missing})`, "Invalid IP address"),
  fails(`${G}!("geo", {})`, "IP condition must be specified"),
  fails(`${G}!("geo", {"ip": "2.0.0.1", "other": "x"})`, "Only one condition is allowed"),
  fails(
    `${G}!("geo", {"ip": {"from": t'2024-01-01T00:00:00Z'}})`,
    "Only equality condition is allowed",
  ),
  rejects(
    `${G}!("geoip", {"ip": "2.0.0.1"})`,
    `E610|expected one of: "anon", "asn", "city_raw", "conn", "geo"`,
  ),
  rejects(`${G}("geo", {"ip": "2.0.0.1"})`, "E100"),
]);

table("geoip ASN, ISP, Connection-Type and Anonymous-IP", [
  ok(`${G}!("asn", {"ip": "1.0.0.1"})`, {
    autonomous_system_number: 13335,
    autonomous_system_organization: "CLOUDFLARENET",
    isp: null,
    organization: null,
  }),
  exact(
    `${G}!("asn", {"ip": "2606:4700::6810:84e5"}, ["autonomous_system_number"])`,
    `{"autonomous_system_number":13335}`,
  ),
  ok(`${G}!("isp", {"ip": "8.8.8.8"}, ["isp", "organization"])`, {
    isp: "Google",
    organization: "Google LLC",
  }),
  ok(`${G}!("conn", {"ip": "3.1.2.3"})`, { connection_type: "Corporate" }),
  fails(`${G}!("asn", {"ip": "1.0.1.0"})`, "IP not found"),
  ok(`${G}!("anon", {"ip": "4.4.4.4"})`, {
    is_anonymous: true,
    is_anonymous_vpn: null,
    is_hosting_provider: null,
    is_public_proxy: true,
    is_residential_proxy: null,
    is_tor_exit_node: null,
  }),
]);

table("mmdb", [
  // Records come back as stored, with MMDB's types: doubles stay floats even when integral.
  exact(
    `${G}!("nets", {"ip": "10.200.0.1"})`,
    `{"load":0.25,"ok":true,"rack":7,"ratio":0.5,"raw":"hi","site":"lab","tags":["a","b"],"weight":2.0}`,
  ),
  // uint64 beyond i64 wraps as Rust's cast would.
  exact(
    `${G}!("nets", {"ip": "10.1.0.9"})`,
    `{"owner":{"pager":-9223372036854775803,"team":"infra"},"site":"lab-annex"}`,
  ),
  // select keeps top-level keys and gives null for absent ones.
  ok(`${G}!("nets", {"ip": "10.1.0.9"}, ["site", "rack"])`, { site: "lab-annex", rack: null }),
  ok(`${G}!("city_raw", {"ip": "2.0.0.1"}).city.names.de`, "Paris"),
  ok(`${G}!("city_raw", {"ip": "2.0.0.1"}).location.accuracy_radius`, 20),
  // An IPv6 address in an IPv4-only database is simply not there.
  fails(`${G}!("nets", {"ip": "::a00:1"})`, "IP not found"),
  fails(`${G}!("nets", {"ip": "11.0.0.1"})`, "IP not found"),
  fails(`${G}!("nets", {"ip": "10.0.0"})`, "Invalid IP address"),
]);

table("find_enrichment_table_records over MMDB", [
  ok(`${F}!("geo", {"ip": "2.0.0.1"}, ["country_code"])`, [{ country_code: "FR" }]),
  ok(`${F}!("geo", {"ip": "9.9.9.9"})`, []),
  ok(`${F}!("nets", {"ip": "10.0.0.1"}, ["site"])`, [{ site: "lab" }]),
  fails(`${F}!("geo", {"ip": "x"})`, "Invalid IP address"),
  fails(`${F}!("geo", {})`, "IP condition must be specified"),
]);
