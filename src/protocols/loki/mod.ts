/**
 * Loki push bodies (`POST /loki/api/v1/push`) → a typed push: JSON, or a snappy-compressed (raw
 * block, whatever `Content-Encoding` says) protobuf `PushRequest`. Any other content type is a 400,
 * as are a bad snappy block, bad protobuf, invalid UTF-8, or a JSON body without `streams`.
 */
import { decodeSnappy } from "../../codec/snappy.ts";
import { ProtoDecodeError } from "../../codec/protobuf.ts";
import { invalidArguments, PetrelError } from "../../common/errors.ts";
import type { LokiPushRequest } from "./model.ts";
import { decodeLokiProto } from "./proto.ts";
import { decodeLokiJson, LokiJsonError } from "./json.ts";
import { LabelSyntaxError } from "./labels.ts";

export type { LokiEntry, LokiPushRequest, LokiStream } from "./model.ts";
export { parseLokiLabels } from "./labels.ts";

/** The body format a `Content-Type` names (its media type, parameters ignored); else a 400. */
export function lokiFormat(contentType: string | null | undefined): "json" | "protobuf" {
  // GreptimeDB's TypedHeader<ContentType> rejection (reference §4.4), as /v1/ingest words it
  if (contentType === null || contentType === undefined) {
    throw invalidArguments("Header of type `content-type` was missing");
  }
  const mime = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (mime === "application/json") return "json";
  if (mime === "application/x-protobuf") return "protobuf";
  throw invalidArguments(`Unsupported content type: ${contentType}`);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Decodes a Loki push body; `limit` caps the snappy-decoded size (413 past it). */
export function decodeLokiPush(
  body: Uint8Array,
  contentType: string | null | undefined,
  limit: number,
): LokiPushRequest {
  if (lokiFormat(contentType) === "json") {
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      throw invalidArguments("Invalid Loki JSON request: body is not valid UTF-8");
    }
    try {
      return decodeLokiJson(text);
    } catch (e) {
      if (e instanceof LokiJsonError) throw invalidArguments(`Invalid Loki JSON request: ${e.message}`);
      throw e;
    }
  }
  let raw: Uint8Array;
  try {
    raw = decodeSnappy(body, limit);
  } catch (e) {
    if (e instanceof PetrelError && e.reason === undefined) {
      throw invalidArguments(`Failed to decompress snappy Loki request: ${e.message}`);
    }
    throw e;
  }
  try {
    return decodeLokiProto(raw);
  } catch (e) {
    if (e instanceof ProtoDecodeError) {
      throw invalidArguments(`Failed to decode Loki protobuf request: ${e.message}`);
    }
    if (e instanceof LabelSyntaxError) throw invalidArguments(`Invalid Loki labels: ${e.message}`);
    throw e;
  }
}

/** The number of entries (lines) in a push. */
export function countLokiEntries(req: LokiPushRequest): number {
  let n = 0;
  for (const s of req.streams) n += s.entries.length;
  return n;
}
