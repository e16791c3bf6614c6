import assert from "node:assert/strict";
import { parse as parseToml } from "smol-toml";
import { startTestServer } from "../helpers/server.ts";

Deno.test("admin endpoints: health, status, metrics, config, 404/405", async (t) => {
  const s = await startTestServer({ user_provider: "static_user_provider:cmd:alice=s3cret" });
  try {
    await t.step("health answers {} on GET and POST at /health, /ready, /v1/health", async () => {
      for (const path of ["/health", "/ready", "/v1/health"]) {
        for (const method of ["GET", "POST"]) {
          const res = await fetch(s.url + path + "?x=1", { method });
          assert.equal(res.status, 200, `${method} ${path}`);
          assert.deepEqual(await res.json(), {});
        }
      }
    });

    await t.step("status reports build facts", async () => {
      const body = await (await fetch(s.url + "/status")).json();
      for (const key of ["version", "hostname", "source_time", "commit", "branch", "runtime"]) {
        assert.equal(typeof body[key], "string", key);
        assert.notEqual(body[key], "", key);
      }
      assert.match(body.runtime, /^deno /);
    });

    await t.step(
      "metrics exposes request counters, latency histogram, ingest rows and process gauges",
      async () => {
        await fetch(s.url + "/health");
        // counted under the path as requested: GreptimeDB's name, or the spec's
        await (await fetch(s.url + "/v1/influxdb/ping")).body?.cancel();
        await (await fetch(s.url + "/v1/lineproto/ping")).body?.cancel();
        await (await fetch(s.url + "/v1/prometheus/api/v1/label/job/values")).body?.cancel();
        const res = await fetch(s.url + "/metrics");
        assert.equal(res.status, 200);
        const text = await res.text();
        assert.match(text, /# TYPE greptime_servers_http_requests_total counter/);
        assert.match(
          text,
          /greptime_servers_http_requests_total\{method="GET",path="\/health",code="200"\} \d+/,
        );
        for (
          const path of [
            "/v1/influxdb/ping",
            "/v1/lineproto/ping",
            "/v1/prometheus/api/v1/label/:name/values",
          ]
        ) {
          assert.ok(
            text.includes(`greptime_servers_http_requests_total{method="GET",path="${path}",code=`),
            path,
          );
        }
        assert.match(text, /# TYPE greptime_servers_http_requests_elapsed histogram/);
        assert.match(
          text,
          /greptime_servers_http_requests_elapsed_bucket\{le="0\.005",method="GET",path="\/health"/,
        );
        assert.match(text, /# HELP petrel_ingest_rows_total /);
        assert.match(text, /process_resident_memory_bytes \d+/);
        assert.match(text, /nodejs_heap_size_used_bytes \d+/);
        // The series the dashboard's status view reads.
        assert.match(text, /# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total [\d.]+/);
        assert.match(text, /process_start_time_seconds \d+/);
        assert.match(
          text,
          /# TYPE nodejs_eventloop_lag_p99_seconds gauge\nnodejs_eventloop_lag_p99_seconds [\d.e-]+/,
        );
      },
    );

    await t.step("config is TOML that round-trips and hides passwords", async () => {
      const res = await fetch(s.url + "/config");
      assert.equal(res.status, 200);
      const text = await res.text();
      assert.ok(!text.includes("s3cret"), "password printed");
      const doc = parseToml(text) as Record<string, Record<string, unknown>>;
      assert.equal(doc.enable_telemetry, true);
      assert.equal(doc.user_provider, "static_user_provider:cmd:alice=********");
      assert.equal(doc.init_regions_in_background, false);
      assert.equal(doc.init_regions_parallelism, 16);
      assert.equal(doc.http.addr, "127.0.0.1:0");
      assert.equal(doc.http.timeout, "30s");
      assert.equal(doc.http.body_limit, "64MiB");
      assert.equal(doc.http.is_strict_mode, false);
      assert.equal(doc.storage.data_home, s.dataHome);
      assert.equal(doc.logging.level, "error");
    });

    await t.step(
      "unknown path → 404, wrong method → 405 with Allow, both with no body, as axum's",
      async () => {
        for (const path of ["/nope", "/v1/nope", "/v1/sql/nope"]) {
          const nf = await fetch(s.url + path, { method: "POST" });
          assert.equal(nf.status, 404, path);
          assert.equal(nf.headers.get("content-type"), null, path);
          assert.equal(await nf.text(), "", path);
        }
        const na = await fetch(s.url + "/status", { method: "DELETE" });
        assert.equal(na.status, 405);
        assert.equal(na.headers.get("allow"), "GET,HEAD");
        assert.equal(na.headers.get("content-type"), null);
        assert.equal(await na.text(), "");
        const post = await fetch(s.url + "/v1/sql/parse", { method: "PUT", body: "sql=select 1" });
        assert.equal(post.status, 405);
        assert.equal(post.headers.get("allow"), "GET,HEAD,POST");
        assert.equal(await post.text(), "");
      },
    );
  } finally {
    await s.stop();
  }
});

Deno.test("debug endpoints: log level and trace switch", async () => {
  const s = await startTestServer();
  try {
    const post = (path: string, body: string) => fetch(s.url + path, { method: "POST", body });
    let res = await post("/debug/log_level", "debug");
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "Log Level changed from error to debug");
    res = await post("/debug/log_level", "info,petrel::http=debug");
    assert.equal(await res.text(), "Log Level changed from debug to info,petrel::http=debug");
    res = await post("/debug/log_level", "loud");
    assert.equal(res.status, 400);
    assert.match((await res.json()).error, /Invalid filter "loud"/);
    res = await post("/debug/log_level", "petrel=shouty");
    assert.equal(res.status, 400);
    await res.body?.cancel();
    res = await post("/debug/log_level", "error");
    assert.equal(await res.text(), "Log Level changed from info,petrel::http=debug to error");

    res = await post("/debug/enable_trace", "true");
    assert.equal(await res.text(), "trace enabled");
    assert.equal(s.server.app.traceEnabled, true);
    res = await post("/debug/enable_trace", "false\n");
    assert.equal(await res.text(), "trace disabled");
    res = await post("/debug/enable_trace", "yes");
    assert.equal(res.status, 400);
    assert.match((await res.json()).error, /Invalid parameter "enable"/);
  } finally {
    await s.stop();
  }
});

Deno.test("spec paths and GreptimeDB's real protocol names both route", async () => {
  const s = await startTestServer();
  try {
    for (
      const path of [
        "/v1/lineproto/write",
        "/v1/influxdb/write",
        "/v1/tsjson/api/put",
        "/v1/opentsdb/api/put",
      ]
    ) {
      const res = await fetch(s.url + path, { method: "GET" });
      assert.equal(res.status, 405, path);
      assert.equal(res.headers.get("allow"), "POST");
      await res.body?.cancel();
    }
  } finally {
    await s.stop();
  }
});

Deno.test("a disabled protocol has no routes", async () => {
  const s = await startTestServer({ influxdb: { enable: false } });
  try {
    const res = await fetch(s.url + "/v1/influxdb/ping");
    assert.equal(res.status, 404);
    await res.body?.cancel();
  } finally {
    await s.stop();
  }
});

Deno.test("metrics count ingested rows per database under GreptimeDB's name", async () => {
  const s = await startTestServer();
  const dir = await Deno.makeTempDir();
  try {
    const now = Date.now() * 1e6;
    for (const [db, lines] of [["public", 3], ["edge", 2]] as const) {
      if (db !== "public") await fetch(`${s.url}/v1/sql?sql=${encodeURIComponent(`CREATE DATABASE ${db}`)}`);
      const body = Array.from({ length: lines }, (_, i) => `cpu,host=h${i} v=${i} ${now + i}`).join("\n");
      const w = await fetch(`${s.url}/v1/influxdb/write?db=${db}`, { method: "POST", body });
      assert.equal(w.status, 204, await w.text());
    }
    // SQL INSERTs count too (in the session's database, as GreptimeDB labels them); a SELECT does not
    const sql = async (q: string, db = "public") => {
      const r = await fetch(`${s.url}/v1/sql?db=${db}`, {
        method: "POST",
        body: new URLSearchParams({ sql: q }),
      });
      assert.equal(r.status, 200, await r.text());
    };
    await sql(
      "INSERT INTO cpu (host, v, greptime_timestamp) VALUES ('x', 1, 1), ('y', 2, 2); SELECT * FROM cpu",
    );
    await sql("INSERT INTO public.cpu (host, v, greptime_timestamp) VALUES ('z', 1, 3)", "edge");
    // COPY … FROM writes rows (6 in public.cpu now); COPY … TO does not
    const file = `${dir}/cpu.csv`;
    await sql(`COPY cpu TO '${file}' WITH (FORMAT = 'csv')`);
    await sql(
      "CREATE TABLE cpu2 (host STRING PRIMARY KEY, v DOUBLE, greptime_timestamp TIMESTAMP TIME INDEX)",
    );
    await sql(`COPY cpu2 FROM '${file}' WITH (FORMAT = 'csv')`);
    const text = await (await fetch(s.url + "/metrics")).text();
    assert.match(text, /# TYPE greptime_table_operator_ingest_rows counter/);
    assert.match(text, /\ngreptime_table_operator_ingest_rows\{db="public"\} 11\n/);
    assert.match(text, /\ngreptime_table_operator_ingest_rows\{db="edge"\} 3\n/);
    assert.match(text, /\npetrel_ingest_rows_total\{protocol="sql"\} 9\n/);
  } finally {
    await s.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
