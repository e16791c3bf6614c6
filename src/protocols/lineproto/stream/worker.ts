/**
 * Worker entry for line-protocol parsing (see `lineproto_pool.ts`): decodes and parses one body per
 * message and replies with the batches in columnar form, its buffers transferred. A PetrelError is
 * sent back as code/message/status; any other failure as `crashed`, so the caller parses inline and
 * behaves exactly as without the worker.
 */
/// <reference lib="deno.worker" />

import { errorToData, PetrelError } from "../../../common/errors.ts";
import { parseLineProtocolColumns } from "../parser.ts";
import { encodeBatches, StringTable } from "../columnar.ts";
import type { ParseReply, ParseRequest } from "./messages.ts";

const decoder = new TextDecoder();
/** Mirrored by the pool: tag values of series seen before are sent as numbers only. */
const strings = new StringTable();

self.onmessage = (e: MessageEvent<ParseRequest | { crash: true }>) => {
  if ("crash" in e.data) {
    // Test hook: an error escaping the handler, as a bug here would raise.
    throw new Error("line protocol worker crash requested");
  }
  const { id, body, precision, now } = e.data;
  let reply: ParseReply;
  try {
    const { encoded, transfer } = encodeBatches(
      parseLineProtocolColumns(decoder.decode(body), precision, now),
      strings,
    );
    self.postMessage({ id, encoded } satisfies ParseReply, transfer);
    return;
  } catch (err) {
    reply = err instanceof PetrelError ? { id, error: errorToData(err) } : { id, crashed: String(err) };
  }
  self.postMessage(reply);
};

self.postMessage({ id: 0, ready: true });
