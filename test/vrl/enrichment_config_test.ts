/**
 * Enrichment tables as Vector users configure them: the `[enrichment_tables.NAME]` TOML, the CSV
 * loader's typed cells and its errors, and `petrel vrl --config-file`.
 */

import assert from "node:assert/strict";
import { applyToml, ConfigError, defaultConfig, renderConfigToml } from "../../src/config/config.ts";
import { conversion, loadFileTable } from "../../engine/vrl/enrichment/file.ts";
import { encodeJson, toJson, type VrlValue } from "../../engine/vrl/mod.ts";
import { TEST_TABLES } from "./enrichment_tables.ts";

const VECTOR_TOML = `
[enrichment_tables.people]
type = "file"
file.path = "/data/people.csv"
file.encoding.type = "csv"
schema = { id = "integer", date_of_birth = "date", seen = "timestamp|%d/%m/%Y %H:%M" }

[enrichment_tables.codes]
type = "file"
[enrichment_tables.codes.file]
path = "/data/codes.csv"
encoding = { type = "csv", delimiter = ";", include_headers = false }
[enrichment_tables.codes.schema]
"0" = "int"
`;

Deno.test("enrichment tables: Vector's TOML forms parse, with its defaults, and render back", () => {
  const config = defaultConfig();
  applyToml(config, VECTOR_TOML, "petrel.toml");
  assert.deepEqual(config.enrichment_tables, [
    {
      name: "people",
      type: "file",
      file: { path: "/data/people.csv", encoding: { type: "csv", delimiter: ",", include_headers: true } },
      schema: { id: "integer", date_of_birth: "date", seen: "timestamp|%d/%m/%Y %H:%M" },
    },
    {
      name: "codes",
      type: "file",
      file: { path: "/data/codes.csv", encoding: { type: "csv", delimiter: ";", include_headers: false } },
      schema: { "0": "int" },
    },
  ]);
  const again = defaultConfig();
  applyToml(again, renderConfigToml(config), "rendered");
  assert.deepEqual(again.enrichment_tables, config.enrichment_tables);
  assert.deepEqual(defaultConfig().enrichment_tables, []);
});

Deno.test("enrichment tables: a bad table stops start-up naming the key", () => {
  const cases: [string, string][] = [
    [
      `type = "redis"`,
      `'enrichment_tables.t.type' in f.toml: expected "file", "geoip" or "mmdb", got "redis"`,
    ],
    [`type = "file"`, "Missing 'enrichment_tables.t.file'"],
    [`type = "file"\nfile.pth = "/x.csv"`, "Unknown configuration key 'enrichment_tables.t.file.pth'"],
    [
      `type = "file"\nfile.path = "/x.csv"\nfile.encoding.type = "json"`,
      "'enrichment_tables.t.file.encoding'",
    ],
    [
      `type = "file"\nfile.path = "/x.csv"\nfile.encoding = { type = "csv", delimiter = "::" }`,
      "expected one character",
    ],
    [`type = "file"\nfile.path = "/x.csv"\nschema.id = "integr"`, "'enrichment_tables.t.schema.id'"],
    [`type = "file"\nfile.path = "/x.csv"\nschema.id = 1`, "'enrichment_tables.t.schema.id'"],
    [
      `type = "file"\nfile.path = "/x.csv"\nsearch = 1`,
      "Unknown configuration key 'enrichment_tables.t.search'",
    ],
  ];
  for (const [body, message] of cases) {
    assert.throws(
      () => applyToml(defaultConfig(), `[enrichment_tables.t]\n${body}\n`, "f.toml"),
      (e: unknown) => e instanceof ConfigError && e.message.includes(message),
      body,
    );
  }
});

const j = (v: VrlValue) => encodeJson(v);

Deno.test("enrichment tables: schema conversions as Vector's", () => {
  const cases: [string, string, string][] = [
    ["integer", "-42", "-42"],
    ["int", "9223372036854775807", "9223372036854775807"],
    ["float", "3", "3.0"],
    ["float", "-1.5e3", "-1500.0"],
    ["boolean", "yes", "true"],
    ["bool", "F", "false"],
    ["bool", "0", "false"],
    ["bool", "17", "true"],
    ["string", " as is ", '" as is "'],
    ["date", "2024-02-29", '"2024-02-29T00:00:00Z"'],
    ["date|%d.%m.%Y", "29.02.2024", '"2024-02-29T00:00:00Z"'],
    ["timestamp", "2024-01-02 03:04:05", '"2024-01-02T03:04:05Z"'],
    ["timestamp", "2024-01-02T03:04:05.5+01:00", '"2024-01-02T02:04:05.500Z"'],
    ["timestamp", "1700000000", '"2023-11-14T22:13:20Z"'],
    ["timestamp", "14/Nov/2023:22:13:20 +0000", '"2023-11-14T22:13:20Z"'],
    ["timestamp|%Y%m%d %H%M", "20240102 0304", '"2024-01-02T03:04:00Z"'],
  ];
  for (const [type, text, want] of cases) assert.equal(j(conversion(type)(text)), want, `${type} ${text}`);
  const bad: [string, string][] = [
    ["integer", "1.5"],
    ["integer", "9223372036854775808"],
    ["float", "one"],
    ["bool", "maybe"],
    ["date", "2024-02-30"],
    ["timestamp", "yesterday"],
  ];
  for (const [type, text] of bad) assert.throws(() => conversion(type)(text), Error, `${type} ${text}`);
  assert.throws(() => conversion("timestamp|%Q"), /invalid time format/);
});

Deno.test("enrichment tables: the loader types cells and names the row of a bad one", async () => {
  const people = await loadFileTable(TEST_TABLES[0]);
  assert.deepEqual(people.headers, [
    "id",
    "firstname",
    "surname",
    "date_of_birth",
    "score",
    "active",
    "team",
    "seen",
  ]);
  assert.equal(people.rows.length, 4);
  assert.deepEqual(toJson(people.rows[1]), [
    2,
    "Fred",
    "Smith",
    "1985-07-02T00:00:00Z",
    3,
    false,
    "*",
    "2024-01-21T11:00:00Z",
  ]);
  const codes = await loadFileTable(TEST_TABLES[1]);
  assert.deepEqual(codes.headers, ["0", "1", "2"]);
  const dir = await Deno.makeTempDir({ prefix: "enrich_" });
  try {
    await Deno.writeTextFile(`${dir}/bad.csv`, "code,name\n1,a\nx,b\n");
    const cfg = { ...TEST_TABLES[0], name: "bad", file: { ...TEST_TABLES[0].file, path: `${dir}/bad.csv` } };
    await assert.rejects(
      () => loadFileTable({ ...cfg, schema: { code: "integer" } }),
      /enrichment table "bad" .*row 3, column "code": "x" is not an integer/,
    );
    await Deno.writeTextFile(`${dir}/ragged.csv`, "a,b\n1,2,3\n");
    await assert.rejects(
      () => loadFileTable({ ...cfg, file: { ...cfg.file, path: `${dir}/ragged.csv` } }),
      /enrichment table "bad"/,
    );
    await assert.rejects(
      () => loadFileTable({ ...cfg, file: { ...cfg.file, path: `${dir}/missing.csv` } }),
      /enrichment table "bad" \(.*missing\.csv\)/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const CLI = new URL("../../engine/vrl/cli.ts", import.meta.url).pathname;

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test("petrel vrl --config-file reads the enrichment tables of Petrel's config", async () => {
  const dir = await Deno.makeTempDir({ prefix: "enrich_cli_" });
  try {
    const [people] = TEST_TABLES;
    await Deno.writeTextFile(
      `${dir}/petrel.toml`,
      `[enrichment_tables.people]\ntype = "file"\nfile.path = ${JSON.stringify(people.file.path)}\n` +
        `file.encoding.type = "csv"\nschema = { id = "integer" }\n`,
    );
    const program = `get_enrichment_table_record!("people", {"id": 2}, ["firstname", "id"])`;
    let r = await cli(["--config-file", `${dir}/petrel.toml`, program]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `{"firstname":"Fred","id":2}\n`);
    r = await cli([program]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /error\[E610\][\s\S]*no enrichment tables are configured/);
    await Deno.writeTextFile(
      `${dir}/bad.toml`,
      `[enrichment_tables.x]\ntype = "file"\nfile.path = "${dir}/nope.csv"\n`,
    );
    r = await cli(["--config-file", `${dir}/bad.toml`, program]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /enrichment table "x"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
