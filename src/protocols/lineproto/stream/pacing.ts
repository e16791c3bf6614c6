/**
 * When a line-protocol write starts. The main thread cannot read request bodies while it runs a
 * synchronous SQLite write, so a write started while the parse worker is idle keeps it idle for
 * the whole write: the body a client sends on getting its previous response waits behind the
 * write, then the main thread waits for its parse. With concurrent writers, a write therefore first
 * waits briefly (at most `PACE_MS`) for the next body to reach the worker, and the two overlap; a
 * lone sequential client is never delayed, as no other body is coming. Measured: +~10 % with two
 * concurrent writers (`deno task bench lineproto_http`).
 */
import { lineProtocolWorkerBusy, nextBodyQueued, parsedInWorker } from "./pool.ts";

/** The longest a write waits for another body to reach the parse worker. */
const PACE_MS = 3;
/** Writes count as concurrent for this long after two were last seen in flight together. */
const RECENT_MS = 1000;

let active = 0;
let lastConcurrent = -Infinity;

const NOTHING = () => {};

/**
 * Marks a write of a `bytes`-long body in flight; call the returned function when it ends. Only
 * bodies the worker parses count: small ones are parsed inline, so there is nothing to overlap.
 */
export function enterWrite(bytes: number): () => void {
  if (!parsedInWorker(bytes)) return NOTHING;
  active++;
  if (active >= 2) lastConcurrent = performance.now();
  return () => {
    active--;
  };
}

/**
 * Resolves when the write of a `bytes`-long body should start: at once unless it was parsed in the
 * worker, writers are concurrent, and the worker is idle.
 */
export function paceWrite(bytes: number): Promise<void> | void {
  if (!parsedInWorker(bytes) || lineProtocolWorkerBusy() || performance.now() - lastConcurrent > RECENT_MS) {
    return;
  }
  return nextBodyQueued(PACE_MS);
}
