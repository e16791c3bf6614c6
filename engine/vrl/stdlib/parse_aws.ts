/** `parse_aws_alb_log`: one Application Load Balancer access-log line into VRL's named fields. */

import { K, objectOf } from "../types.ts";
import type { VrlObject, VrlValue } from "../value.ts";
import { fail, flag, type FnDef, opt, req } from "./def.ts";

/** How a field's text is read and what it becomes. */
type FieldKind = "text" | "dash" | "float" | "int" | "quoted" | "qdash" | "request" | "list";

// The fields in log order (AWS's documentation); `request` expands to method, url and protocol.
const FIELDS: [string, FieldKind][] = [
  ["type", "text"],
  ["timestamp", "text"],
  ["elb", "text"],
  ["client_host", "text"],
  ["target_host", "dash"],
  ["request_processing_time", "float"],
  ["target_processing_time", "float"],
  ["response_processing_time", "float"],
  ["elb_status_code", "text"],
  ["target_status_code", "text"],
  ["received_bytes", "int"],
  ["sent_bytes", "int"],
  ["request", "request"],
  ["user_agent", "quoted"],
  ["ssl_cipher", "dash"],
  ["ssl_protocol", "dash"],
  ["target_group_arn", "text"],
  ["trace_id", "quoted"],
  ["domain_name", "qdash"],
  ["chosen_cert_arn", "qdash"],
  ["matched_rule_priority", "text"],
  ["request_creation_time", "text"],
  ["actions_executed", "quoted"],
  ["redirect_url", "qdash"],
  ["error_reason", "qdash"],
  ["target_port_list", "list"],
  ["target_status_code_list", "list"],
  ["classification", "qdash"],
  ["classification_reason", "qdash"],
];

/** A cursor over the line: space-separated tokens, some in double quotes. */
class Tokens {
  pos = 0;
  constructor(readonly line: string) {}
  atEnd(): boolean {
    return this.pos >= this.line.length;
  }
  next(field: string, quoted: boolean): string {
    while (this.line[this.pos] === " ") this.pos++;
    if (this.atEnd()) return fail(`failed to get field \`${field}\``);
    let value: string;
    if (this.line[this.pos] === '"') {
      const end = this.line.indexOf('"', this.pos + 1);
      if (end < 0) return fail(`failed to get field \`${field}\``);
      value = this.line.slice(this.pos + 1, end);
      this.pos = end + 1;
    } else if (quoted) {
      return fail(`failed to get field \`${field}\``);
    } else {
      const end = this.line.indexOf(" ", this.pos);
      value = this.line.slice(this.pos, end < 0 ? undefined : end);
      this.pos = end < 0 ? this.line.length : end;
    }
    if (this.pos < this.line.length && this.line[this.pos] !== " ") {
      return fail(`failed to get field \`${field}\``);
    }
    return value;
  }
}

function readField(out: VrlObject, tok: Tokens, name: string, kind: FieldKind): void {
  const quoted = kind === "quoted" || kind === "qdash" || kind === "request" || kind === "list";
  const raw = tok.next(name, quoted);
  switch (kind) {
    case "text":
    case "quoted":
      return void out.set(name, raw);
    case "dash":
    case "qdash":
      return void out.set(name, raw === "-" ? null : raw);
    case "float": {
      const f = Number(raw);
      if (raw === "" || Number.isNaN(f)) return fail(`failed to get field \`${name}\``);
      return void out.set(name, f);
    }
    case "int":
      if (!/^-?\d+$/.test(raw)) return fail(`failed to get field \`${name}\``);
      return void out.set(name, BigInt(raw));
    case "list":
      return void out.set(name, raw === "-" ? [] : raw.split(" ").filter((s) => s !== ""));
    case "request": {
      const parts = raw.split(" ");
      if (parts.length !== 3) return fail("failed to get field `request`");
      out.set("request_method", parts[0]);
      out.set("request_url", parts[1]);
      return void out.set("request_protocol", parts[2]);
    }
  }
}

/** Parses an ALB access-log line; `strict` rejects fields after the known ones. */
export function parseAwsAlbLog(line: string, strict: boolean): VrlObject {
  const tok = new Tokens(line.trim());
  const out: VrlObject = new Map();
  for (const [name, kind] of FIELDS) readField(out, tok, name, kind);
  out.set("traceability_id", null);
  if (!tok.atEnd()) {
    const save = tok.pos;
    try {
      readField(out, tok, "traceability_id", "qdash");
    } catch {
      tok.pos = save;
    }
  }
  if (strict && !tok.atEnd()) return fail("could not parse whole line successfully");
  return out;
}

const STRING_OR_NULL = K.BYTES | K.NULL;

/** AWS log parsers by name. */
export const AWS_FNS: Record<string, FnDef> = {
  parse_aws_alb_log: {
    params: [req("value", K.BYTES), opt("strict_mode", K.BOOLEAN)],
    returns: objectOf({
      type: K.BYTES,
      timestamp: K.BYTES,
      elb: K.BYTES,
      client_host: K.BYTES,
      target_host: STRING_OR_NULL,
      request_processing_time: K.FLOAT,
      target_processing_time: K.FLOAT,
      response_processing_time: K.FLOAT,
      elb_status_code: K.BYTES,
      target_status_code: K.BYTES,
      received_bytes: K.INTEGER,
      sent_bytes: K.INTEGER,
      request_method: K.BYTES,
      request_url: K.BYTES,
      request_protocol: K.BYTES,
      user_agent: K.BYTES,
      ssl_cipher: STRING_OR_NULL,
      ssl_protocol: STRING_OR_NULL,
      target_group_arn: K.BYTES,
      trace_id: K.BYTES,
      domain_name: STRING_OR_NULL,
      chosen_cert_arn: STRING_OR_NULL,
      matched_rule_priority: K.BYTES,
      request_creation_time: K.BYTES,
      actions_executed: K.BYTES,
      redirect_url: STRING_OR_NULL,
      error_reason: STRING_OR_NULL,
      target_port_list: K.ARRAY,
      target_status_code_list: K.ARRAY,
      classification: STRING_OR_NULL,
      classification_reason: STRING_OR_NULL,
      traceability_id: STRING_OR_NULL,
    }, true),
    fallible: true,
    fresh: true,
    call: ([v, strict]: (VrlValue | undefined)[]) => parseAwsAlbLog(v as string, flag(strict, true)),
  },
};
