/**
 * The network functions: `dns_lookup`, `reverse_dns`, `http_request`. Each blocks its thread until the
 * network thread answers (`net_bridge.ts`), never longer than its deadline.
 */

import types from "dns-packet/types.js";
import { K } from "../types.ts";
import { fromJson, type VrlValue } from "../value.ts";
import { fail, type FnDef, opt, req, str } from "./def.ts";
import type { DnsLookupArgs, ReverseDnsArgs } from "./dns_client.ts";
import type { HttpRequestArgs } from "./http_client.ts";
import { ipBytes } from "./ip.ts";
import { callBlocking } from "./net_bridge.ts";

const S = K.BYTES;
/** `http_request` gives up after this long (VRL sets no limit; a pipeline must never hang). */
export const HTTP_TIMEOUT_MS = 10_000;
let httpTimeoutMs = HTTP_TIMEOUT_MS;

/** For tests: a shorter `http_request` deadline (no argument restores the default). */
export function setHttpTimeoutMs(ms = HTTP_TIMEOUT_MS): void {
  httpTimeoutMs = ms;
}
/** `reverse_dns`: /etc/hosts, then two PTR tries. */
const REVERSE_TIMEOUT_MS = 10_000;
// The domain crate's stub resolver defaults (resolv.conf's): 5 s per try, 2 attempts.
const DNS_TIMEOUT_S = 5;
const DNS_ATTEMPTS = 2;
/** No lookup blocks longer than this, whatever its options ask. */
const DNS_MAX_MS = 30_000;
const CLASSES = new Set(["IN", "CS", "CH", "HS", "ANY"]);

function positive(v: VrlValue | undefined, name: string, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  if (typeof v !== "bigint" || v <= 0n) return fail(`option "${name}" must be a positive integer`);
  return Number(v);
}

function dnsArgs([v, qt, qc, o]: (VrlValue | undefined)[]): DnsLookupArgs {
  const qtype = str(qt, "A").toUpperCase();
  if (types.toType(qtype) === 0) return fail(`invalid query type: ${qtype}`);
  const qclass = str(qc, "IN").toUpperCase();
  if (!CLASSES.has(qclass)) return fail(`invalid query class: ${qclass}`);
  const options = (o ?? new Map()) as Map<string, VrlValue>;
  const servers = options.get("servers") ?? [];
  if (!Array.isArray(servers) || servers.some((s) => typeof s !== "string")) {
    return fail(`option "servers" must be an array of strings`);
  }
  const recurse = options.get("recurse") ?? true;
  if (typeof recurse !== "boolean") return fail(`option "recurse" must be a boolean`);
  return {
    name: v as string,
    qtype,
    qclass,
    servers: servers as string[],
    timeoutMs: positive(options.get("timeout"), "timeout", DNS_TIMEOUT_S) * 1000,
    attempts: positive(options.get("attempts"), "attempts", DNS_ATTEMPTS),
    recurse,
  };
}

function ptrName(ip: string): string {
  const b = ipBytes(ip);
  if (b.length === 4) return [...b].reverse().join(".") + ".in-addr.arpa";
  const nibbles = [...b].flatMap((x) => [(x >> 4).toString(16), (x & 15).toString(16)]);
  return nibbles.reverse().join(".") + ".ip6.arpa";
}

function httpArgs([u, m, h, b]: (VrlValue | undefined)[]): HttpRequestArgs {
  const url = u as string;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail(`Invalid URL: ${url}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return fail(`Invalid URL scheme: ${url}`);
  const method = str(m, "get").toUpperCase();
  if (!/^[!#$%&'*+.^_`|~0-9A-Z-]+$/.test(method)) return fail(`Invalid HTTP method: ${method}`);
  const headers: [string, string][] = [];
  for (const [k, v] of (h ?? new Map()) as Map<string, VrlValue>) {
    if (typeof v !== "string") return fail(`Invalid header value for "${k}": expected a string`);
    headers.push([k, v]);
  }
  return { url, method, headers, body: str(b, "") };
}

/** Network functions by name. */
export const NETWORK_FNS: Record<string, FnDef> = {
  dns_lookup: {
    params: [req("value", S), opt("qtype", S), opt("class", S), opt("options", K.OBJECT)],
    returns: K.OBJECT,
    fallible: true,
    fresh: true,
    call: (args) => {
      const a = dnsArgs(args);
      const ms = Math.min(DNS_MAX_MS, a.timeoutMs * a.attempts * Math.max(1, a.servers.length || 1));
      return fromJson(callBlocking("dns", a, ms, "dns_lookup"));
    },
  },
  reverse_dns: {
    params: [req("value", S)],
    returns: S,
    fallible: true,
    call: ([v]) => {
      const args: ReverseDnsArgs = { ip: v as string, ptr: ptrName(v as string) };
      return callBlocking("reverse", args, REVERSE_TIMEOUT_MS, "reverse_dns") as string;
    },
  },
  http_request: {
    params: [req("url", S), opt("method", S), opt("headers", K.OBJECT), opt("body", S)],
    returns: S,
    fallible: true,
    call: (args) => callBlocking("http", httpArgs(args), httpTimeoutMs, "http_request") as string,
  },
};
