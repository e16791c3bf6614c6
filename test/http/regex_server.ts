/**
 * The harness of the runaway-regex tests: a Petrel child process (so a hang fails a test by its
 * request timeout instead of stopping the test runner), requests bounded by that timeout, and the
 * pipeline client with the transform every test pipeline ends with.
 */
import assert from "node:assert/strict";
import { spawnServer } from "../helpers/server.ts";
import { PipelineClient } from "../pipelines_http/helpers.ts";

/** What a test body gets. */
export interface RegexServer {
  url: string;
  client: PipelineClient;
  /** The transform that ends every test pipeline: `ts` as an epoch-ms time index. */
  tail: string;
  post(path: string, body: string, type: string): Promise<Response>;
  /** Runs SQL, asserts 200, answers the rows of its first output. */
  sqlRows(sql: string): Promise<unknown[][]>;
}

/** Runs `body` against a fresh child server whose requests time out after `timeoutMs`. */
export async function withRegexServer(
  prefix: string,
  timeoutMs: number,
  body: (s: RegexServer) => Promise<void>,
): Promise<void> {
  const dataHome = await Deno.makeTempDir({ prefix });
  const server = await spawnServer(["--data-home", dataHome, "--http-addr", "127.0.0.1:0"]);
  const { url } = server;
  const post = (path: string, text: string, type: string) =>
    fetch(url + path, {
      method: "POST",
      body: text,
      headers: { "content-type": type },
      signal: AbortSignal.timeout(timeoutMs),
    });
  const sqlRows = async (sql: string): Promise<unknown[][]> => {
    const r = await post(
      "/v1/sql",
      new URLSearchParams({ sql }).toString(),
      "application/x-www-form-urlencoded",
    );
    const out = await r.json();
    assert.equal(r.status, 200, JSON.stringify(out).slice(0, 500));
    return out.output[0].records?.rows ?? [];
  };
  let answered = false;
  try {
    const tail = "transform:\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n";
    await body({ url, client: new PipelineClient(url), tail, post, sqlRows });
    answered = true;
  } finally {
    // a server stuck in a regex never gets to its SIGTERM handler
    await server.stop(answered ? "SIGTERM" : "SIGKILL");
    await Deno.remove(dataHome, { recursive: true });
  }
}
