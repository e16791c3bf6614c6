/**
 * The hostile-input fuzzer: sends spoiled requests (`fuzz_cases.ts`) to a real Petrel child process
 * and holds it to the contract: never a 5xx, a crash or a hang, and a rejected request writes nothing
 * (every table's row count, read from the database files by a separate connection, is unchanged).
 * Seeded, so a failure replays. Shared by `fuzz_test.ts` (bounded) and `scripts/fuzz.ts` (long).
 */
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { type SpawnedServer, spawnServer } from "../helpers/server.ts";
import { seededRandom } from "./crash.ts";
import { errorShapeViolation, healthViolation } from "./fuzz_response.ts";
import { bombs, FUZZ_PIPELINE, type FuzzRequest, HEADER_MUTATIONS, MUTATIONS, seeds } from "./fuzz_cases.ts";

/** A server under fuzzing, and a reader of its tables' row counts. */
export interface FuzzTarget {
  url: string;
  server: SpawnedServer;
  /** `db.table=rows` for every table of every database file, committed state. */
  snapshot(): string;
  /**
   * The integer-declared columns (time indexes, integers, decimals) of the tables a `snapshot()`
   * entry names that hold anything but integers and nulls: a REAL there is a value the write
   * accepted without checking (an OpenTSDB `1e20` timestamp was one).
   */
  nonIntegers(entries: string[]): string[];
  /** Stops the server; the data dir is removed unless `keepData` (to replay a failure on it). */
  stop(keepData?: boolean): Promise<void>;
  dataHome: string;
  /** How soon `/health` must answer after each request. */
  healthMs: number;
}

/** How long one request may take before it counts as a hang. */
const HANG_MS = 20_000;

/**
 * Starts Petrel with a small body limit and uploads the pipeline the ingest seeds name; `/health`
 * must answer within `healthMs` of each request.
 */
export async function startFuzzTarget(bodyLimit: number, healthMs = 1000): Promise<FuzzTarget> {
  const dataHome = await Deno.makeTempDir({ prefix: "petrel_fuzz_" });
  const server = await spawnServer(["--http-addr", "127.0.0.1:0", "--data-home", dataHome], {
    PETREL__HTTP__BODY_LIMIT: String(bodyLimit),
    PETREL__LOGGING__LEVEL: "warn",
  });
  const up = await fetch(`${server.url}/v1/pipelines/fz_pipe`, {
    method: "POST",
    body: FUZZ_PIPELINE,
    headers: { "content-type": "application/x-yaml" },
  });
  if (up.status !== 200) throw new Error(`pipeline upload: ${up.status} ${await up.text()}`);
  const conns = new Map<string, DatabaseSync>();
  const dir = join(dataHome, "data");
  return {
    url: server.url,
    server,
    snapshot() {
      const parts: string[] = [];
      for (const e of [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : 1)) {
        if (!e.name.endsWith(".sqlite")) continue;
        let c = conns.get(e.name);
        if (!c) conns.set(e.name, c = new DatabaseSync(join(dir, e.name), { readOnly: true }));
        const tables = c.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
        for (const t of tables) {
          const name = String(t.name);
          // what the metric engine's background compaction writes on its own schedule
          if (/^__petrel_(chunks|compaction)_/.test(name)) continue;
          const n = c.prepare(`SELECT count(*) AS n FROM "${name.replaceAll('"', '""')}"`).get()!.n;
          parts.push(`${e.name}/${name}=${n}`);
        }
      }
      return parts.join(" ");
    },
    nonIntegers(entries) {
      const out: string[] = [];
      for (const entry of entries) {
        const [file, table] = entry.replace(/=\d+$/, "").split("/");
        const c = conns.get(file);
        if (!c) continue;
        const q = (n: string) => `"${n.replaceAll('"', '""')}"`;
        for (const col of c.prepare(`PRAGMA table_info(${q(table)})`).all()) {
          // `_INT`: time indexes, dates, booleans, decimals; and Int8…UInt64 (a float for one is refused
          // by the writer, as GreptimeDB's pipelines refuse it, not kept as a REAL)
          if (!/_INT$|^U?Int\d+$/i.test(String(col.type))) continue;
          const n = c.prepare(
            `SELECT count(*) AS n FROM ${q(table)} WHERE typeof(${
              q(String(col.name))
            }) NOT IN ('integer', 'null')`,
          ).get()!.n;
          if (Number(n) > 0) out.push(`${file}/${table}.${col.name}: ${n} non-integer values`);
        }
      }
      return out;
    },
    dataHome,
    healthMs,
    async stop(keepData = false) {
      for (const c of conns.values()) c.close();
      await server.stop("SIGKILL");
      if (!keepData) await Deno.remove(dataHome, { recursive: true }).catch(() => {});
    },
  };
}

/** The server stopped answering: the round ends, with the end of its log. */
export class ServerGone extends Error {}

/** What a fuzz round saw. */
export interface FuzzReport {
  requests: number;
  /** Count of responses per `family status`. */
  statuses: Map<string, number>;
  /** Contract violations, each with what reproduces it. */
  failures: string[];
}

function describe(req: FuzzRequest, how: string, body: Uint8Array): string {
  const head = new TextDecoder().decode(body.subarray(0, 120)).replaceAll(/[^\x20-\x7e]/g, "·");
  // The whole body goes to a file, so the failure replays with curl.
  const file = Deno.makeTempFileSync({ prefix: `petrel_fuzz_${req.family}_`, suffix: ".bin" });
  Deno.writeFileSync(file, body);
  return `${req.family} ${how} (${body.length} bytes in ${file}, ${req.method} ${req.path} headers ` +
    `${JSON.stringify(req.headers)}): ${head}`;
}

/**
 * Sends one request; records a violation when it answers 5xx, hangs, kills the server, a rejection
 * wrote or is not in its endpoint's error shape, an acceptance stored a non-integer in an integer
 * column, or `/health` then takes longer than the target allows.
 */
export async function probe(
  target: FuzzTarget,
  req: FuzzRequest,
  how: string,
  report: FuzzReport,
): Promise<void> {
  const before = req.atomic ? target.snapshot() : "";
  let status: number;
  let text = "";
  try {
    const r = await fetch(target.url + req.path, {
      method: req.method,
      headers: req.headers,
      body: req.body as BodyInit,
      signal: AbortSignal.timeout(HANG_MS),
    });
    status = r.status;
    text = await r.text();
    const shape = errorShapeViolation(
      req.method,
      req.path,
      status,
      r.headers.get("content-type") ?? "",
      text,
    );
    if (shape) report.failures.push(`${shape}: ${describe(req, how, req.body)}`);
    for (const [name, value] of r.headers) {
      // curl refuses a response with a header this long: the client would never see the answer
      if (value.length > 8192) {
        report.failures.push(`header ${name} of ${value.length} bytes: ${describe(req, how, req.body)}`);
      }
    }
  } catch (e) {
    report.failures.push(
      `no answer (${(e as Error).name}: ${(e as Error).message}): ${describe(req, how, req.body)}`,
    );
    throw new ServerGone(target.server.stderr().slice(-3000));
  }
  report.requests++;
  const key = `${req.family} ${status}`;
  report.statuses.set(key, (report.statuses.get(key) ?? 0) + 1);
  if (status >= 500) {
    report.failures.push(`HTTP ${status} ${text.slice(0, 200)}: ${describe(req, how, req.body)}`);
  }
  if (status >= 400 && req.atomic) {
    const after = target.snapshot();
    if (after !== before) {
      report.failures.push(`rejected with ${status} but wrote: ${describe(req, how, req.body)}`);
    }
  } else if (status < 300 && req.atomic) {
    const was = new Set(before.split(" "));
    const bad = target.nonIntegers(target.snapshot().split(" ").filter((e) => e !== "" && !was.has(e)));
    if (bad.length > 0) report.failures.push(`accepted ${bad.join(", ")}: ${describe(req, how, req.body)}`);
  }
  const health = await healthViolation(target.url, target.healthMs);
  if (health) report.failures.push(`${health} after: ${describe(req, how, req.body)}`);
}

/** Runs `iterations` spoiled requests per seed family, then every bomb against every body-taking family. */
export async function fuzzRound(
  target: FuzzTarget,
  seed: number,
  iterations: number,
  bodyLimit: number,
  only?: RegExp,
): Promise<FuzzReport> {
  const report: FuzzReport = { requests: 0, statuses: new Map(), failures: [] };
  try {
    await sendRound(target, seed, iterations, bodyLimit, report, only);
  } catch (e) {
    if (!(e instanceof ServerGone)) throw e;
    report.failures.push(`the server stopped answering; its log ends with:\n${e.message}`);
  }
  return report;
}

async function sendRound(
  target: FuzzTarget,
  seed: number,
  iterations: number,
  bodyLimit: number,
  report: FuzzReport,
  only?: RegExp,
): Promise<void> {
  const random = seededRandom(seed);
  const families = seeds().filter((f) => !only || only.test(f.family));
  const names = Object.keys(MUTATIONS);
  const headerNames = Object.keys(HEADER_MUTATIONS);
  for (const base of families) {
    await probe(target, base.wrap ? { ...base, body: base.wrap(base.body) } : base, "seed", report);
    for (let i = 0; i < iterations; i++) {
      let body = base.body;
      const steps: string[] = [];
      const n = 1 + Math.floor(random() * 3);
      for (let k = 0; k < n; k++) {
        const m = names[Math.floor(random() * names.length)];
        body = MUTATIONS[m](body, random);
        steps.push(m);
      }
      let headers = base.headers;
      if (random() < 0.25) {
        const h = headerNames[Math.floor(random() * headerNames.length)];
        headers = HEADER_MUTATIONS[h](headers, random);
        steps.push(h);
      }
      if (base.wrap) body = base.wrap(body);
      await probe(target, { ...base, body, headers }, steps.join("+"), report);
    }
    for (const b of bombs(bodyLimit)) {
      const headers = { ...base.headers, ...b.headers };
      if (Object.keys(b.headers).length === 0) delete headers["content-encoding"];
      await probe(target, { ...base, headers, body: b.body }, b.name, report);
    }
  }
  try {
    const r = await fetch(`${target.url}/health`, { signal: AbortSignal.timeout(HANG_MS) });
    await r.body?.cancel();
    if (r.status !== 200) report.failures.push(`health answers ${r.status} after the round`);
  } catch (e) {
    report.failures.push(`the server is gone after the round: ${(e as Error).message}`);
  }
}

/**
 * A slow-loris body: one byte every `everyMs`, never ending; the request must be answered (408, or 504
 * on a write path) once its timeout passes, while other requests are served. Returns the status and how
 * long it took.
 */
export async function slowLoris(url: string, timeout: string, everyMs = 200): Promise<[number, number]> {
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setInterval(() => {
        try {
          controller.enqueue(new Uint8Array([0x61]));
        } catch {
          clearInterval(timer);
        }
      }, everyMs);
    },
    cancel() {
      clearInterval(timer);
    },
  });
  const started = performance.now();
  try {
    const r = await fetch(url, {
      method: "POST",
      body,
      headers: { "x-greptime-timeout": timeout },
      signal: AbortSignal.timeout(HANG_MS),
    });
    await r.body?.cancel();
    return [r.status, performance.now() - started];
  } finally {
    clearInterval(timer);
  }
}
