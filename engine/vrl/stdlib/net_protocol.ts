/** What the VRL network thread and its callers exchange (see `net_bridge.ts`). */

/** The operations the network thread performs. */
export type NetOp = "http" | "dns" | "reverse";

/** A request as the worker receives it (the pool adds `id`). */
export interface NetRequest {
  id: number;
  op: NetOp;
  args: unknown;
  /** The worker abandons the operation after this long. */
  timeoutMs: number;
  /** `[state, length]` as Int32 at byte 0, the answer's UTF-8 JSON from byte 8. */
  sab: SharedArrayBuffer;
}

/** The answer the worker writes: a JSON value or VRL's error message. */
export type NetReply = { ok: unknown } | { err: string };

/** Largest answer (an HTTP body, mostly); the worker fails the call beyond it. */
export const MAX_REPLY_BYTES = 16 * 1024 * 1024;
/** Bytes before the answer in the shared buffer. */
export const HEADER_BYTES = 8;
