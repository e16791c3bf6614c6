/**
 * The VRL network thread (see `net_bridge.ts`): performs one operation per request and writes its
 * JSON answer into the request's SharedArrayBuffer, then wakes the blocked caller.
 */

import { parentPort } from "node:worker_threads";
import { dnsLookup, type DnsLookupArgs, reverseDns, type ReverseDnsArgs } from "./dns_client.ts";
import { httpRequest, type HttpRequestArgs } from "./http_client.ts";
import { HEADER_BYTES, MAX_REPLY_BYTES, type NetReply, type NetRequest } from "./net_protocol.ts";

function perform(req: NetRequest): Promise<unknown> {
  const signal = AbortSignal.timeout(req.timeoutMs);
  if (req.op === "http") return httpRequest(req.args as HttpRequestArgs, signal);
  if (req.op === "dns") return dnsLookup(req.args as DnsLookupArgs);
  return reverseDns(req.args as ReverseDnsArgs, req.timeoutMs);
}

function answer(sab: SharedArrayBuffer, reply: NetReply): void {
  let bytes = new TextEncoder().encode(JSON.stringify(reply));
  if (bytes.length > MAX_REPLY_BYTES) {
    bytes = new TextEncoder().encode(JSON.stringify({ err: `reply larger than ${MAX_REPLY_BYTES} bytes` }));
  }
  if (HEADER_BYTES + bytes.length > sab.byteLength) sab.grow(HEADER_BYTES + bytes.length);
  new Uint8Array(sab, HEADER_BYTES, bytes.length).set(bytes);
  const head = new Int32Array(sab, 0, 2);
  Atomics.store(head, 1, bytes.length);
  Atomics.store(head, 0, 1);
  Atomics.notify(head, 0);
}

parentPort!.on("message", async (req: NetRequest) => {
  let reply: NetReply;
  try {
    reply = { ok: await perform(req) };
  } catch (e) {
    reply = { err: e instanceof Error ? e.message : String(e) };
  }
  answer(req.sab, reply);
  parentPort!.postMessage({ id: req.id });
});
