/**
 * Strings holding NUL written by a Petrel before they were stored as bytes (stored whole as TEXT,
 * read back cut at the NUL) are mended once when the database opens (storage/nul_mend.ts), in
 * WAL and skip_wal tables, keyed and append ones; other values are left as they were.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { startTestServer } from "../helpers/server.ts";
import { post, sqlRows } from "../protocols_http/util.ts";

/** Rewrites every BLOB of `columns` as TEXT and clears the mend mark: the files an older Petrel left. */
function downgrade(file: string, schemaTables: Array<[string, string[]]>): void {
  const db = new DatabaseSync(file);
  try {
    for (const [table, columns] of schemaTables) {
      const sets = columns.map((c) =>
        `"${c}" = CASE WHEN typeof("${c}") = 'blob' THEN CAST("${c}" AS TEXT) ELSE "${c}" END`
      );
      db.exec(`UPDATE "${table}" SET ${sets.join(", ")}`);
      const kinds = db.prepare(`SELECT DISTINCT typeof("${columns[0]}") AS k FROM "${table}"`).all();
      assert.deepEqual(kinds.map((r) => r.k), ["text"], `${table} downgraded`);
    }
    db.exec("PRAGMA user_version = 0");
  } finally {
    db.close();
  }
}

Deno.test("nul text: values an older Petrel stored as TEXT read back whole after the upgrade", async () => {
  let s = await startTestServer();
  const dataHome = s.dataHome;
  try {
    const lp = (table: string) =>
      `${table},host=h\u0000x msg="a\u0000b",n=1i 1700000000\n${table},host=plain msg="plain",n=2i 1700000001\n`;
    for (
      const [table, hint] of [
        ["mend_keyed", {}],
        ["mend_append", { "x-greptime-hint-append_mode": "true" }],
        [
          "mend_nowal",
          { "x-greptime-hint-skip_wal": "true" },
        ],
      ] as const
    ) {
      const r = await post(`${s.url}/v1/influxdb/write?precision=s`, lp(table), hint);
      assert.ok(r.status < 300, r.text);
    }
    await s.stop();
    downgrade(join(dataHome, "data", "public.sqlite"), [["mend_keyed", ["host", "msg"]], ["mend_append", [
      "host",
      "msg",
    ]]]);
    downgrade(join(dataHome, "data", "public.nowal.sqlite"), [["mend_nowal", ["host", "msg"]]]);

    s = await startTestServer({ storage: { data_home: dataHome } });
    for (const table of ["mend_keyed", "mend_append", "mend_nowal"]) {
      assert.deepEqual(
        await sqlRows(s.url, `SELECT host, msg, typeof(msg), n FROM ${table} ORDER BY n`),
        [["h\u0000x", "a\u0000b", "blob", 1], ["plain", "plain", "text", 2]],
        table,
      );
    }
  } finally {
    await s.stop();
    await Deno.remove(dataHome, { recursive: true });
  }
});
