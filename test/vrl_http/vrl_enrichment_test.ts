/**
 * A pipeline's `vrl` processor enriches entries from a CSV enrichment table that Petrel's config file
 * declares as Vector does, on a real server process started with `--config-file`.
 */
import assert from "node:assert/strict";
import { spawnServer } from "../helpers/server.ts";

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

Deno.test("vrl processor looks entries up in a configured enrichment table", async () => {
  const dir = await Deno.makeTempDir({ prefix: "vrl_enrich_" });
  await Deno.writeTextFile(
    `${dir}/services.csv`,
    "port,service,team\n22,ssh,infra\n443,https,web\n80,http,web\n",
  );
  await Deno.writeTextFile(
    `${dir}/petrel.toml`,
    `[enrichment_tables.services]\ntype = "file"\nfile.path = "${dir}/services.csv"\n` +
      `file.encoding.type = "csv"\nschema = { port = "integer" }\n`,
  );
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
    assert.match(error, /expected one of: "services"/);
  } finally {
    await s.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
