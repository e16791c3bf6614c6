/**
 * The npm libraries behind synchronous VRL functions (`validate_json_schema`: Ajv; `parse_user_agent`:
 * ua-parser-js; `parse_proto`/`encode_proto`: protobufjs' descriptor messages), imported ahead because a
 * VRL call cannot await. The pipeline engine and `petrel vrl` await this when they load; until then those
 * functions fail with a clear error.
 */
import { loadAjv } from "./json_schema.ts";
import { loadProtoDescriptors } from "./proto_schema.ts";
import { loadUaParser } from "./user_agent.ts";

/** Imports the libraries of the VRL functions that need one; cheap after the first call. */
export async function loadVrlLibraries(): Promise<void> {
  await Promise.all([loadAjv(), loadUaParser(), loadProtoDescriptors()]);
}
