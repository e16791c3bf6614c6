/**
 * `parse_nginx_log`: nginx's `combined` and `main` access-log formats, the `error` log, and ingress-nginx's
 * `upstreaminfo` format (`ingress_upstreaminfo`), with VRL's field names.
 */

import { K, objectOf } from "../types.ts";
import type { VrlObject } from "../value.ts";
import { fail, type FnDef, opt, req, str } from "./def.ts";
import { parseTs, putIf } from "./logs.ts";

const Q = `"((?:[^"\\\\]|\\\\.)*)"`;
const NGINX_COMBINED = new RegExp(
  `^(\\S+) - (\\S+) \\[([^\\]]+)\\] ${Q} (\\d{3}) (\\d+) ${Q} ${Q}(?: ${Q})?`,
);
const NGINX_MAIN = new RegExp(`^(\\S+) - (\\S+) \\[([^\\]]+)\\] ${Q} (\\d{3}) (\\d+) ${Q} ${Q} ${Q}\\s*$`);
const NGINX_INGRESS = new RegExp(
  `^(\\S+) - (\\S+) \\[([^\\]]+)\\] ${Q} (\\d{3}) (\\d+) ${Q} ${Q} (\\d+) (\\S+) \\[([^\\]]*)\\] \\[([^\\]]*)\\] ` +
    `(\\S+) (\\S+) (\\S+) (\\S+) (\\S+)\\s*$`,
);
const NGINX_ERROR = /^(\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}) \[(\w+)\] (\d+)#(\d+):(?: \*(\d+))? ([\s\S]*)$/;

/** `combined` (optional trailing compression ratio) and `main` (trailing `$http_x_forwarded_for`). */
function nginxAccess(line: string, tsFmt: string, format: "combined" | "main"): VrlObject {
  const m = (format === "main" ? NGINX_MAIN : NGINX_COMBINED).exec(line.trim());
  if (!m) return fail(`failed parsing ${format} log line`);
  const o: VrlObject = new Map();
  o.set("client", m[1]);
  putIf(o, "user", m[2]);
  o.set("timestamp", parseTs(m[3], tsFmt, "invalid timestamp"));
  o.set("request", m[4]);
  const r = /^(\S+) (\S+) (\S+)$/.exec(m[4]);
  if (r) {
    o.set("method", r[1]);
    o.set("path", r[2]);
    o.set("protocol", r[3]);
  }
  o.set("status", BigInt(m[5]));
  o.set("size", BigInt(m[6]));
  putIf(o, "referer", m[7]);
  putIf(o, "agent", m[8]);
  if (m[9] !== undefined) putIf(o, format === "main" ? "http_x_forwarded_for" : "compression", m[9]);
  return o;
}

const intOrSkip = (s: string) => (/^\d+$/.test(s) ? BigInt(s) : undefined);
const floatOrSkip = (s: string) => (/^\d+(\.\d+)?$/.test(s) ? Number(s) : undefined);

/** ingress-nginx's `upstreaminfo` format; fields are named after the nginx variables. */
function nginxIngress(line: string, tsFmt: string): VrlObject {
  const m = NGINX_INGRESS.exec(line.trim());
  if (!m) return fail("failed parsing ingress_upstreaminfo log line");
  const o: VrlObject = new Map();
  o.set("remote_addr", m[1]);
  putIf(o, "remote_user", m[2]);
  o.set("timestamp", parseTs(m[3], tsFmt, "invalid timestamp"));
  o.set("request", m[4]);
  o.set("status", BigInt(m[5]));
  o.set("body_bytes_size", BigInt(m[6]));
  putIf(o, "http_referer", m[7]);
  putIf(o, "http_user_agent", m[8]);
  o.set("request_length", BigInt(m[9]));
  putIf(o, "request_time", floatOrSkip(m[10]));
  putIf(o, "proxy_upstream_name", m[11]);
  putIf(o, "proxy_alternative_upstream_name", m[12]);
  putIf(o, "upstream_addr", m[13]);
  putIf(o, "upstream_response_length", intOrSkip(m[14]));
  putIf(o, "upstream_response_time", floatOrSkip(m[15]));
  putIf(o, "upstream_status", intOrSkip(m[16]));
  o.set("req_id", m[17]);
  return o;
}

function nginxError(line: string, tsFmt: string): VrlObject {
  const m = NGINX_ERROR.exec(line.trim());
  if (!m) return fail("failed parsing error log line");
  const o: VrlObject = new Map();
  o.set("timestamp", parseTs(m[1], tsFmt, "invalid timestamp"));
  o.set("severity", m[2]);
  o.set("pid", BigInt(m[3]));
  o.set("tid", BigInt(m[4]));
  if (m[5]) o.set("cid", BigInt(m[5]));
  let msg = m[6];
  const kv = /, (client|server|request|upstream|host|referrer): ("(?:[^"\\]|\\.)*"|[^,]*)/g;
  const first = msg.search(/, (client|server|request|upstream|host|referrer): /);
  if (first >= 0) {
    const tail = msg.slice(first);
    msg = msg.slice(0, first);
    for (let k = kv.exec(tail); k; k = kv.exec(tail)) o.set(k[1], k[2].replace(/^"|"$/g, ""));
  }
  o.set("message", msg);
  return o;
}

const BN = K.BYTES | K.NULL, IN = K.INTEGER | K.NULL, TN = K.TIMESTAMP | K.NULL, FN = K.FLOAT | K.NULL;
const ACCESS = {
  client: BN,
  user: BN,
  timestamp: TN,
  request: BN,
  method: BN,
  path: BN,
  protocol: BN,
  status: IN,
  size: IN,
  referer: BN,
  agent: BN,
};
const TYPES = {
  combined: objectOf({ ...ACCESS, compression: BN }, true),
  main: objectOf({ ...ACCESS, http_x_forwarded_for: BN }, true),
  ingress_upstreaminfo: objectOf({
    remote_addr: BN,
    remote_user: BN,
    timestamp: TN,
    request: BN,
    status: IN,
    body_bytes_size: IN,
    http_referer: BN,
    http_user_agent: BN,
    request_length: IN,
    request_time: FN,
    proxy_upstream_name: BN,
    proxy_alternative_upstream_name: BN,
    upstream_addr: BN,
    upstream_response_length: IN,
    upstream_response_time: FN,
    upstream_status: IN,
    req_id: BN,
  }, true),
  error: objectOf({
    timestamp: TN,
    severity: BN,
    pid: IN,
    tid: IN,
    cid: IN,
    message: BN,
    client: BN,
    server: BN,
    request: BN,
    upstream: BN,
    host: BN,
    referrer: BN,
  }, true),
};
const FORMATS = Object.keys(TYPES);
const ALL = objectOf(
  Object.fromEntries(
    Object.values(TYPES).flatMap((t) => [...t.fields!].map(([k, v]) => [k, v.kind])),
  ),
  true,
);

/** The nginx parser by name. */
export const NGINX_FNS: Record<string, FnDef> = {
  parse_nginx_log: {
    params: [req("value", K.BYTES), req("format", K.BYTES), opt("timestamp_format", K.BYTES)],
    returns: (a) => {
      const f = a[1]?.constant?.value;
      return typeof f === "string" && f in TYPES ? TYPES[f as keyof typeof TYPES] : ALL;
    },
    fallible: true,
    fresh: true,
    check: (a) => {
      const f = a[1]?.constant?.value;
      if (typeof f === "string" && !FORMATS.includes(f)) return `unknown format "${f}"`;
    },
    call: ([v, f, tf]) => {
      const line = v as string;
      switch (f) {
        case "error":
          return nginxError(line, str(tf, "%Y/%m/%d %H:%M:%S"));
        case "ingress_upstreaminfo":
          return nginxIngress(line, str(tf, "%d/%b/%Y:%T %z"));
        case "combined":
        case "main":
          return nginxAccess(line, str(tf, "%d/%b/%Y:%T %z"), f);
      }
      return fail(`unknown format "${f}"`);
    },
  },
};
