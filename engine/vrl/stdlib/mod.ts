/** The standard library: one table from function name to definition. */

import { BINARY_FNS } from "./binary.ts";
import { COMPRESSION_FNS } from "./compression.ts";
import { CRYPTO_FNS } from "./crypto.ts";
import { CASING_FNS } from "./casing.ts";
import { COLLECTION_FNS } from "./collections.ts";
import { DATADOG_FNS } from "./datadog_query.ts";
import type { FnDef } from "./def.ts";
import { DNSTAP_FNS } from "./dnstap.ts";
import { ENCODING_FNS } from "./encoding.ts";
import { ENRICHMENT_FNS } from "../enrichment/functions.ts";
import { ETLD_FNS } from "./etld.ts";
import { EVENT_FNS } from "./event_fns.ts";
import { EXTRA_FNS } from "./extra.ts";
import { FORMAT_FNS } from "./formats.ts";
import { GROK_FNS } from "./grok.ts";
import { HASH_FNS } from "./hashes.ts";
import { IP_CRYPT_FNS } from "./ip_crypt.ts";
import { JSON_SCHEMA_FNS } from "./json_schema.ts";
import { LOG_FNS } from "./logs.ts";
import { MATH_FNS } from "./math.ts";
import { MISC_FNS } from "./misc.ts";
import { NETWORK_FNS } from "./network.ts";
import { NGINX_FNS } from "./nginx.ts";
import { PARSE_FNS } from "./parse.ts";
import { PROTO_FNS } from "./proto.ts";
import { AWS_FNS } from "./parse_aws.ts";
import { REDACT_FNS } from "./redact.ts";
import { REGEX_FNS } from "./regex_fns.ts";
import { STRING_FNS } from "./strings.ts";
import { TIME_FNS } from "./time.ts";
import { TYPE_FNS } from "./type_fns.ts";
import { USER_AGENT_FNS } from "./user_agent.ts";
import { XML_FNS } from "./xml.ts";

/** Every function VRL programs can call (`del`, `exists` and `unnest` take paths and are compiled as special forms). */
export const STDLIB: Record<string, FnDef> = {
  ...TYPE_FNS,
  ...STRING_FNS,
  ...REGEX_FNS,
  ...PARSE_FNS,
  ...LOG_FNS,
  ...GROK_FNS,
  ...ENCODING_FNS,
  ...TIME_FNS,
  ...COLLECTION_FNS,
  ...MATH_FNS,
  ...MISC_FNS,
  ...EXTRA_FNS,
  ...HASH_FNS,
  ...FORMAT_FNS,
  ...XML_FNS,
  ...COMPRESSION_FNS,
  ...CRYPTO_FNS,
  ...BINARY_FNS,
  ...ETLD_FNS,
  ...IP_CRYPT_FNS,
  ...AWS_FNS,
  ...DATADOG_FNS,
  ...JSON_SCHEMA_FNS,
  ...NETWORK_FNS,
  ...USER_AGENT_FNS,
  ...REDACT_FNS,
  ...CASING_FNS,
  ...NGINX_FNS,
  ...EVENT_FNS,
  ...PROTO_FNS,
  ...DNSTAP_FNS,
  ...ENRICHMENT_FNS,
};
