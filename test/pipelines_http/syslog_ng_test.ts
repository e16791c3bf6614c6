/**
 * A real client: syslog-ng's `http()` destination posting to `/v1/ingest` — one text line per
 * request through a custom pipeline, JSON array batches through `greptime_identity`, and
 * newline-joined text batches (real-clients.md §2.5). The test installs syslog-ng itself where it
 * can, runs it in the foreground with its own files, feeds it over TCP and stops it at the end.
 */
import assert from "node:assert/strict";
import { ensureDebianBinary, findBinary, freePort, waitFor } from "../helpers/debian.ts";
import { startTestServer } from "../helpers/server.ts";
import { PipelineClient } from "./helpers.ts";

const LINES = 60;

/** syslog-ng's http() destination lives in its own package; true once its module is on disk. */
async function ensureHttpModule(): Promise<boolean> {
  const present = () => {
    for (const dir of ["/usr/lib/syslog-ng", "/usr/lib/x86_64-linux-gnu/syslog-ng", "/usr/lib64/syslog-ng"]) {
      try {
        for (const version of Deno.readDirSync(dir)) {
          try {
            if (Deno.statSync(`${dir}/${version.name}/libhttp.so`).isFile) return true;
          } catch { /* not in this version dir */ }
        }
      } catch { /* no such dir */ }
    }
    return false;
  };
  if (present()) return true;
  const apt = findBinary("apt-get");
  if (Deno.uid() !== 0 || apt === null) {
    console.warn(
      "skipping: syslog-ng-mod-http is not installed and cannot be installed here (not root or no apt-get)",
    );
    return false;
  }
  const install = () =>
    new Deno.Command(apt, {
      args: ["install", "-y", "--no-install-recommends", "syslog-ng-mod-http"],
      env: { DEBIAN_FRONTEND: "noninteractive" },
      stdout: "null",
      stderr: "null",
    }).output();
  if (!(await install()).success) {
    await new Deno.Command(apt, { args: ["update"], stdout: "null", stderr: "null" }).output();
    await install();
  }
  if (!present()) {
    console.warn("skipping: apt-get install -y syslog-ng-mod-http did not provide the http module");
  }
  return present();
}

const PIPELINE = `
processors:
  - dissect:
      field: message
      pattern: '%{time} %{level} %{service} %{msg}'
  - date:
      field: time
      formats: ['%Y-%m-%dT%H:%M:%S%.3f%z']
transform:
  - fields: [level, service]
    type: string
    tag: true
  - field: msg
    type: string
  - field: time
    type: time, ms
    index: timestamp
`;

function config(petrel: string, port: number): string {
  const ingest = (table: string, pipeline: string) =>
    `${petrel}/v1/ingest?db=public&table=${table}&pipeline_name=${pipeline}`;
  return `@version: 3.38
options { stats-freq(0); keep-hostname(yes); };
source s_net { network(ip("127.0.0.1") port(${port}) transport("tcp") flags(no-parse)); };
destination d_text {
  http(url("${ingest("syslog_text", "syslog_lines")}") method("POST")
       headers("Content-Type: text/plain") body("\${MESSAGE}"));
};
destination d_json {
  http(url("${ingest("syslog_json", "greptime_identity")}") method("POST")
       headers("Content-Type: application/json")
       batch-lines(25) batch-timeout(500)
       body-prefix("[") delimiter(",") body-suffix("]")
       body('$(format-json host=\${HOST} ts=\${ISODATE} message=\${MESSAGE} program=\${PROGRAM})'));
};
destination d_ndtext {
  http(url("${ingest("syslog_nd", "syslog_lines")}") method("POST")
       headers("Content-Type: text/plain")
       batch-lines(40) batch-timeout(500) delimiter("\\n") body("\${MESSAGE}"));
};
log { source(s_net); destination(d_text); destination(d_json); destination(d_ndtext); };
`;
}

function line(i: number): string {
  const ms = String(i).padStart(3, "0");
  return `2024-05-25T20:16:37.${ms}+0000 ${["INFO", "WARN", "ERROR"][i % 3]} svc${i % 2} request ${i} done`;
}

Deno.test("syslog-ng http() → /v1/ingest: text lines, JSON batches, newline batches", async () => {
  const binary = await ensureDebianBinary("syslog-ng", "syslog-ng-core");
  if (binary === null || !(await ensureHttpModule())) return;
  const server = await startTestServer();
  const client = new PipelineClient(server.url);
  const dir = await Deno.makeTempDir({ prefix: "petrel_syslogng_" });
  let child: Deno.ChildProcess | null = null;
  let drained: Promise<unknown> = Promise.resolve();
  let log = "";
  try {
    await client.uploadOk("syslog_lines", PIPELINE);
    const port = freePort();
    await Deno.writeTextFile(`${dir}/syslog-ng.conf`, config(server.url, port));
    child = new Deno.Command(binary, {
      args: [
        "-F",
        "-f",
        `${dir}/syslog-ng.conf`,
        `--persist-file=${dir}/persist`,
        `--pidfile=${dir}/pid`,
        `--control=${dir}/ctl`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const collect = async (stream: ReadableStream<Uint8Array>) => {
      for await (const chunk of stream.pipeThrough(new TextDecoderStream())) log += chunk;
    };
    drained = Promise.all([collect(child.stdout), collect(child.stderr)]);
    const exited = child.status.then((s) => s);

    const conn = await waitFor(() => Deno.connect({ hostname: "127.0.0.1", port }), 15_000);
    assert.ok(conn, `syslog-ng did not listen on ${port}:\n${log}`);
    const text = Array.from({ length: LINES }, (_, i) => line(i)).join("\n") + "\n";
    await conn.write(new TextEncoder().encode(text));
    conn.close();

    const count = async (table: string) => {
      const rows = await client.sql(`SELECT count(*) FROM ${table}`);
      return rows[0][0] === LINES ? true : null;
    };
    for (const table of ["syslog_text", "syslog_json", "syslog_nd"]) {
      const done = await waitFor(() => count(table), 30_000);
      const have = await client.sql(`SELECT count(*) FROM ${table}`).catch((e) => String(e));
      assert.ok(done, `${table}: expected ${LINES} rows, have ${JSON.stringify(have)}\n${log}`);
    }

    // The custom pipeline parsed every line the same way, one request per line or batched.
    for (const table of ["syslog_text", "syslog_nd"]) {
      assert.deepEqual(
        await client.sql(`SELECT level, count(*) FROM ${table} GROUP BY level ORDER BY level`),
        [["ERROR", 20], ["INFO", 20], ["WARN", 20]],
      );
      assert.deepEqual(
        await client.sql(`SELECT time, level, service, msg FROM ${table} WHERE time = 1716668197007`),
        [[1716668197007, "WARN", "svc1", "request 7 done"]],
      );
      assert.ok((await client.showCreate(table)).includes('PRIMARY KEY ("level", "service")'));
    }
    // The identity pipeline kept syslog-ng's JSON keys as columns.
    assert.deepEqual(
      await client.sql(`SELECT message FROM syslog_json WHERE message LIKE '%request 7 done'`),
      [[line(7)]],
    );
    const ddl = await client.showCreate("syslog_json");
    for (
      const column of [
        '"host" STRING',
        '"message" STRING',
        '"ts" STRING',
        '"greptime_timestamp" TIMESTAMP(9)',
      ]
    ) {
      assert.ok(ddl.includes(column), `${column} in\n${ddl}`);
    }

    child.kill("SIGTERM");
    const status = await Promise.race([
      exited,
      new Promise<null>((r) => setTimeout(() => r(null), 10_000)),
    ]);
    if (status === null) child.kill("SIGKILL");
    await exited;
    child = null;
  } finally {
    if (child) {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
      await child.status;
    }
    await drained;
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
