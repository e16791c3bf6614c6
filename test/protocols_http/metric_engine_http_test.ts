/**
 * Remote write into the metric engine over HTTP: logical tables on `greptime_physical_table`, on
 * the one named by `?physical_table=` or by a series' `__physical_table__` label, as SQL shows them;
 * `prom_store.with_metric_engine = false` keeps plain tables.
 */
import assert from "node:assert/strict";
import { post, showCreate, sqlExec, sqlRows, tableNames, withServer } from "./util.ts";
import { type Series } from "../../src/common/series.ts";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";

const RW = { "content-type": "application/x-protobuf", "content-encoding": "snappy" };
const T = 1_700_000_000_000;

function one(labels: Record<string, string>, value: number, t = T): Series {
  return { labels, samples: [{ value, timestampMs: t }] };
}

Deno.test("metric engine HTTP: remote write creates logical tables on greptime_physical_table", async () => {
  await withServer(async (s) => {
    const body = encodeRemoteWriteV1([
      one({ __name__: "cpu", host: "a", idc: "x" }, 1),
      one({ __name__: "cpu", host: "b", idc: "y" }, 2),
      one({ __name__: "mem", host: "a" }, 3),
    ]);
    assert.equal((await post(`${s.url}/v1/metricsapi/write`, body, RW)).status, 204);
    assert.deepEqual(await tableNames(s.url), ["cpu", "greptime_physical_table", "mem"]);
    assert.deepEqual(await sqlRows(s.url, "SHOW FULL TABLES LIKE 'cpu'"), [["cpu", "BASE TABLE"]]);
    const ddl = await showCreate(s.url, "cpu");
    assert.match(ddl, /ENGINE=metric/);
    assert.match(ddl, /on_physical_table = 'greptime_physical_table'/);
    assert.match(ddl, /'greptime.semantic.source' = 'prometheus'/);
    assert.match(await showCreate(s.url, "greptime_physical_table"), /physical_metric_table = 'true'/);
    assert.deepEqual(await sqlRows(s.url, "SELECT * FROM cpu WHERE host = 'a'"), [[T, 1, "a", "x"]]);
    assert.deepEqual(
      await sqlRows(
        s.url,
        "SELECT table_name, engine FROM information_schema.tables WHERE table_schema = 'public' AND engine = 'metric' ORDER BY table_name",
      ),
      [["cpu", "metric"], ["greptime_physical_table", "metric"], ["mem", "metric"]],
    );
    // a new label later is a new column of the logical table
    const later = encodeRemoteWriteV1([one({ __name__: "mem", host: "a", zone: "z" }, 4, T + 1)]);
    assert.equal((await post(`${s.url}/v1/metricsapi/write`, later, RW)).status, 204);
    assert.deepEqual(
      (await sqlRows(s.url, "DESC TABLE mem")).map((r) => r[0]),
      ["greptime_timestamp", "greptime_value", "host", "zone"],
    );
    assert.deepEqual(
      await sqlRows(s.url, "SELECT zone, greptime_value FROM mem ORDER BY greptime_timestamp"),
      [
        [null, 3],
        ["z", 4],
      ],
    );
    // line protocol into a metric table goes through the engine too
    const lp = await post(`${s.url}/v1/lineproto/write?precision=ms`, `mem,host=c greptime_value=5 ${T}`);
    assert.equal(lp.status, 204, lp.text);
    assert.deepEqual(await sqlRows(s.url, "SELECT count(*) FROM mem"), [[3]]);
  });
});

Deno.test("metric engine HTTP: physical table chosen by ?physical_table= and by the __physical_table__ label", async () => {
  await withServer(async (s) => {
    let r = await post(
      `${s.url}/v1/metricsapi/write?physical_table=by_param`,
      encodeRemoteWriteV1([one({ __name__: "m_param", job: "j" }, 1)]),
      { ...RW, "x-greptime-hints": "physical_table=by_hint" },
    );
    assert.equal(r.status, 204, r.text);
    r = await post(
      `${s.url}/v1/metricsapi/write?physical_table=by_param`,
      encodeRemoteWriteV1([one({ __name__: "m_label", __physical_table__: "by_label", job: "j" }, 2)]),
      RW,
    );
    assert.equal(r.status, 204, r.text);
    assert.match(await showCreate(s.url, "m_param"), /on_physical_table = 'by_param'/);
    assert.match(await showCreate(s.url, "m_label"), /on_physical_table = 'by_label'/);
    assert.deepEqual(await tableNames(s.url), ["by_label", "by_param", "m_label", "m_param"]);
    // the special label is not a tag
    assert.deepEqual((await sqlRows(s.url, "DESC TABLE m_label")).map((r) => r[0]), [
      "greptime_timestamp",
      "greptime_value",
      "job",
    ]);
    await sqlExec(s.url, "DROP TABLE m_param");
    await sqlExec(s.url, "DROP TABLE by_param");
    assert.deepEqual(await tableNames(s.url), ["by_label", "m_label"]);
  });
});

Deno.test("metric engine HTTP: with_metric_engine = false keeps plain tables", async () => {
  await withServer(async (s) => {
    const body = encodeRemoteWriteV1([one({ __name__: "plain_m", job: "j" }, 1)]);
    assert.equal((await post(`${s.url}/v1/metricsapi/write`, body, RW)).status, 204);
    assert.deepEqual(await tableNames(s.url), ["plain_m"]);
    assert.match(await showCreate(s.url, "plain_m"), /ENGINE=mito/);
  }, { prom_store: { enable: true, with_metric_engine: false } });
});

Deno.test("metric engine HTTP: a metric that exists as a plain table keeps being written there", async () => {
  await withServer(async (s) => {
    assert.equal(
      (await post(`${s.url}/v1/lineproto/write`, `pre,job=lp greptime_value=1 ${T}000000`)).status,
      204,
    );
    const body = encodeRemoteWriteV1([one({ __name__: "pre", job: "rw" }, 2, T + 1)]);
    const r = await post(`${s.url}/v1/metricsapi/write`, body, RW);
    assert.equal(r.status, 204, r.text);
    assert.match(await showCreate(s.url, "pre"), /ENGINE=mito/);
    assert.deepEqual(await tableNames(s.url), ["pre"]);
    assert.deepEqual(await sqlRows(s.url, "SELECT job FROM pre ORDER BY greptime_timestamp"), [["lp"], [
      "rw",
    ]]);
  });
});
