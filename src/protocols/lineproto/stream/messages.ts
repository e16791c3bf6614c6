/** What the line-protocol pool and its parse worker say to each other. */
import type { ErrorData } from "../../../common/errors.ts";
import type { EncodedBatches } from "../columnar.ts";

/** A body to parse, as posted to the worker (in shared memory, so posting it copies nothing). */
export interface ParseRequest {
  id: number;
  body: Uint8Array;
  precision: string | undefined;
  now: bigint;
}

/** The worker's answer to request `id`. */
export interface ParseReply {
  id: number;
  encoded?: EncodedBatches;
  error?: ErrorData;
  crashed?: string;
}
