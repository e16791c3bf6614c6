/**
 * `type = "geoip"` and `type = "mmdb"` enrichment tables as Vector users configure them: the TOML and
 * its defaults, the keys refused, and the files refused when they are loaded.
 */

import assert from "node:assert/strict";
import { applyToml, ConfigError, defaultConfig, renderConfigToml } from "../../src/config/config.ts";
import { loadEnrichmentTables } from "../../engine/vrl/enrichment/registry.ts";
import { writeMmdb } from "../helpers/mmdb_writer.ts";

Deno.test('geoip/mmdb tables: Vector\'s TOML parses, with locale "en" by default, and renders back', () => {
  const config = defaultConfig();
  applyToml(
    config,
    `[enrichment_tables.geo]\ntype = "geoip"\npath = "/db/GeoLite2-City.mmdb"\n\n` +
      `[enrichment_tables.geo_fr]\ntype = "geoip"\npath = "/db/GeoIP2-City.mmdb"\nlocale = "fr"\n\n` +
      `[enrichment_tables.nets]\ntype = "mmdb"\npath = "/db/nets.mmdb"\n`,
    "petrel.toml",
  );
  assert.deepEqual(config.enrichment_tables, [
    { name: "geo", type: "geoip", path: "/db/GeoLite2-City.mmdb", locale: "en" },
    { name: "geo_fr", type: "geoip", path: "/db/GeoIP2-City.mmdb", locale: "fr" },
    { name: "nets", type: "mmdb", path: "/db/nets.mmdb" },
  ]);
  const again = defaultConfig();
  applyToml(again, renderConfigToml(config), "rendered");
  assert.deepEqual(again.enrichment_tables, config.enrichment_tables);
});

Deno.test("geoip/mmdb tables: a bad key stops start-up naming it", () => {
  const cases: [string, string][] = [
    [`type = "geoip"`, "Invalid 'enrichment_tables.t.path' in f.toml: expected the path of an MMDB file"],
    [`type = "mmdb"\npath = ""`, "Invalid 'enrichment_tables.t.path'"],
    [`type = "geoip"\npath = 1`, "Invalid 'enrichment_tables.t.path'"],
    [`type = "geoip"\npath = "/x.mmdb"\nlocale = 1`, "Invalid 'enrichment_tables.t.locale'"],
    // `locale` is the geoip table's only: the mmdb table has no names to translate.
    [
      `type = "mmdb"\npath = "/x.mmdb"\nlocale = "en"`,
      "Unknown configuration key 'enrichment_tables.t.locale'",
    ],
    [
      `type = "geoip"\npath = "/x.mmdb"\nfile.path = "/x"`,
      "Unknown configuration key 'enrichment_tables.t.file'",
    ],
    [`type = "geoip"\npth = "/x.mmdb"`, "Unknown configuration key 'enrichment_tables.t.pth'"],
  ];
  for (const [body, message] of cases) {
    assert.throws(
      () => applyToml(defaultConfig(), `[enrichment_tables.t]\n${body}\n`, "f.toml"),
      (e: unknown) => e instanceof ConfigError && e.message.includes(message),
      body,
    );
  }
});

Deno.test("geoip/mmdb tables: a missing file or one that is not a MaxMind DB stops loading", async () => {
  const dir = await Deno.makeTempDir({ prefix: "geoip_cfg_" });
  try {
    const db = writeMmdb({ databaseType: "GeoIP2-City", networks: [["1.0.0.0/8", { city: {} }]] });
    await Deno.writeFile(`${dir}/good.mmdb`, db);
    await Deno.writeTextFile(`${dir}/text.mmdb`, "ip,city\n1.2.3.4,Paris\n");
    // The metadata is there but the search tree and data it describes are not.
    const marker = db.findLastIndex((b, i) => b === 0xab && db[i + 1] === 0xcd && db[i + 2] === 0xef);
    await Deno.writeFile(`${dir}/cut.mmdb`, db.slice(marker));
    const cases: [string, "geoip" | "mmdb", RegExp][] = [
      [`${dir}/none.mmdb`, "geoip", /enrichment table "t" \(.*none\.mmdb\): no such file/],
      [`${dir}/text.mmdb`, "geoip", /enrichment table "t" \(.*text\.mmdb\): not a MaxMind DB/],
      [`${dir}/text.mmdb`, "mmdb", /not a MaxMind DB/],
      [`${dir}/cut.mmdb`, "mmdb", /not a MaxMind DB/],
      [dir, "mmdb", /enrichment table "t" \(.*\): (?!not a MaxMind DB)/],
    ];
    for (const [path, type, message] of cases) {
      const config = type === "geoip" ? { name: "t", type, path, locale: "en" } : { name: "t", type, path };
      await assert.rejects(() => loadEnrichmentTables([config]), message, path);
    }
    await loadEnrichmentTables([{ name: "t", type: "mmdb", path: `${dir}/good.mmdb` }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("petrel vrl --config-file reads a geoip table", async () => {
  const dir = await Deno.makeTempDir({ prefix: "geoip_cli_" });
  try {
    const city = { city: { names: { en: "Lisbon", pt: "Lisboa" } }, country: { iso_code: "PT" } };
    await Deno.writeFile(
      `${dir}/city.mmdb`,
      writeMmdb({ databaseType: "GeoLite2-City", networks: [["5.0.0.0/8", city]] }),
    );
    await Deno.writeTextFile(
      `${dir}/petrel.toml`,
      `[enrichment_tables.geo]\ntype = "geoip"\npath = "${dir}/city.mmdb"\nlocale = "pt"\n`,
    );
    const program = `get_enrichment_table_record!("geo", {"ip": "5.6.7.8"}, ["city_name", "country_code"])`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../../engine/vrl/cli.ts", import.meta.url).pathname,
        "--config-file",
        `${dir}/petrel.toml`,
        program,
      ],
      stdin: "null",
      env: { NO_COLOR: "1" },
    }).output();
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    assert.equal(out.code, 0, text(out.stderr));
    assert.equal(text(out.stdout), `{"city_name":"Lisboa","country_code":"PT"}\n`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
