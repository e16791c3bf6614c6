/**
 * A pipeline's `vrl` processor enriches entries from a CSV enrichment table that Petrel's config file
 * declares as Vector does, on a real server process started with `--config-file`.
 */
import assert from "node:assert/strict";
import { spawnServer } from "../helpers/server.ts";
import { writeMmdb } from "../helpers/mmdb_writer.ts";

const PIPELINE = `processors:
  - vrl:
      source: |
        row, err = get_enrichment_table_record("services", {"port": .port}, ["service", "team"])
        if err == null {
          .service = row.service
          .team = row.team
        } else {
          .service = "unknown"
        }
        .owners = length(find_enrichment_table_records!("services", {"team": "WEB"}, case_sensitive: false))
        .
transform:
  - field: port
    type: int64
  - fields: [service, team]
    type: string
  - field: owners
    type: int64
`;

// Vector's documented GeoIP enrichment, copied unchanged.
const GEO_PIPELINE = `processors:
  - vrl:
      source: |
        .geo, err = get_enrichment_table_record("geo", {"ip": .client_ip}, ["city_name", "country_code", "latitude"])
        if err != null { .geo = {} }
        .city = .geo.city_name
        .country = .geo.country_code
        .lat = .geo.latitude
        del(.geo)
        .
transform:
  - field: client_ip
    type: string
  - fields: [city, country]
    type: string
  - field: lat
    type: float64
`;

const CITY_DB = writeMmdb({
  databaseType: "GeoLite2-City",
  networks: [
    ["81.2.69.0/24", {
      city: { names: { en: "London" } },
      country: { iso_code: "GB" },
      location: { latitude: 51.5142, longitude: -0.0931 },
    }],
    ["2001:db8::/32", {
      city: { names: { en: "Sydney" } },
      country: { iso_code: "AU" },
      location: { latitude: -33.8 },
    }],
  ],
});

Deno.test("vrl processor looks entries up in a configured enrichment table", async () => {
  const dir = await Deno.makeTempDir({ prefix: "vrl_enrich_" });
  await Deno.writeTextFile(
    `${dir}/services.csv`,
    "port,service,team\n22,ssh,infra\n443,https,web\n80,http,web\n",
  );
  await Deno.writeTextFile(
    `${dir}/petrel.toml`,
    `[enrichment_tables.services]\ntype = "file"\nfile.path = "${dir}/services.csv"\n` +
      `file.encoding.type = "csv"\nschema = { port = "integer" }\n` +
      `[enrichment_tables.geo]\ntype = "geoip"\npath = "${dir}/GeoLite2-City.mmdb"\n`,
  );
  await Deno.writeFile(`${dir}/GeoLite2-City.mmdb`, CITY_DB);
  const s = await spawnServer([
    "--http-addr",
    "127.0.0.1:0",
    "--data-home",
    `${dir}/data`,
    "--config-file",
    `${dir}/petrel.toml`,
  ]);
  try {
    const upload = (name: string, yaml: string) =>
      fetch(`${s.url}/v1/pipelines/${name}`, {
        method: "POST",
        headers: { "content-type": "application/x-yaml" },
        body: yaml,
      });
    let res = await upload("enrich", PIPELINE);
    assert.equal(res.status, 200, await res.text());
    res = await fetch(`${s.url}/v1/ingest?table=conns&pipeline_name=enrich`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([{ port: 22 }, { port: 443 }, { port: 9 }]),
    });
    assert.equal(res.status, 200, await res.text());
    res = await fetch(`${s.url}/v1/sql`, {
      method: "POST",
      body: new URLSearchParams({ sql: "SELECT port, service, team, owners FROM conns ORDER BY port" }),
    });
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.deepEqual(body.output[0].records.rows, [
      [9, "unknown", null, 2],
      [22, "ssh", "infra", 2],
      [443, "https", "web", 2],
    ]);
    // A table the config does not declare is refused when the pipeline is uploaded (VRL's E610).
    res = await upload("unknown", PIPELINE.replaceAll(`"services"`, `"hosts"`));
    assert.equal(res.status, 400);
    const error = String((await res.json()).error);
    assert.match(error, /E610/);
    assert.match(error, /expected one of: "geo", "services"/);
    res = await upload("geo", GEO_PIPELINE);
    assert.equal(res.status, 200, await res.text());
    res = await fetch(`${s.url}/v1/ingest?table=visits&pipeline_name=geo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([{ client_ip: "81.2.69.160" }, { client_ip: "2001:db8::1" }, {
        client_ip: "10.0.0.1",
      }]),
    });
    assert.equal(res.status, 200, await res.text());
    res = await fetch(`${s.url}/v1/sql`, {
      method: "POST",
      body: new URLSearchParams({
        sql: "SELECT client_ip, city, country, lat FROM visits ORDER BY client_ip",
      }),
    });
    const geo = await res.json();
    assert.equal(res.status, 200, JSON.stringify(geo));
    assert.deepEqual(geo.output[0].records.rows, [
      ["10.0.0.1", null, null, null],
      ["2001:db8::1", "Sydney", "AU", -33.8],
      ["81.2.69.160", "London", "GB", 51.5142],
    ]);
  } finally {
    await s.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
