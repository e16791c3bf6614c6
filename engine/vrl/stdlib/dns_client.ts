/**
 * `dns_lookup` and `reverse_dns` on the network thread: a stub resolver over UDP (node:dgram, messages
 * by npm `dns-packet`) that returns the whole answer message, as VRL's `domain` stub resolver does,
 * rendered in VRL's shape (the one `parse_dnstap` uses). Nameservers come from the `servers` option or
 * /etc/resolv.conf; `reverse_dns` reads /etc/hosts first, as getnameinfo does, then asks for PTR.
 */

import dgram from "node:dgram";
import { Buffer } from "node:buffer";
import * as packet from "dns-packet";
import types from "dns-packet/types.js";
import { renderDnsMessage } from "./dns_message.ts";

/** `dns_lookup`'s arguments as the caller checked them. */
export interface DnsLookupArgs {
  name: string;
  qtype: string;
  qclass: string;
  /** `host:port` or bare addresses; empty uses /etc/resolv.conf. */
  servers: string[];
  timeoutMs: number;
  attempts: number;
  recurse: boolean;
}

/** `reverse_dns`'s argument: the address and its `in-addr.arpa`/`ip6.arpa` name. */
export interface ReverseDnsArgs {
  ip: string;
  ptr: string;
}

interface Server {
  host: string;
  port: number;
}

function parseServer(s: string): Server {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(s);
  if (v6) return { host: v6[1], port: Number(v6[2] ?? 53) };
  const v4 = /^([^:]+):(\d+)$/.exec(s);
  if (v4) return { host: v4[1], port: Number(v4[2]) };
  return { host: s, port: 53 };
}

function systemServers(): Server[] {
  let text = "";
  try {
    text = Deno.readTextFileSync("/etc/resolv.conf");
  } catch { /* no resolv.conf: the loopback resolver, as libc assumes */ }
  const found = [...text.matchAll(/^\s*nameserver\s+(\S+)/gm)].map((m) => ({ host: m[1], port: 53 }));
  return found.length > 0 ? found : [{ host: "127.0.0.1", port: 53 }];
}

/** Sends one query and resolves with the first reply carrying its id, or rejects after `ms`. */
function exchange(server: Server, query: Uint8Array, id: number, ms: number): Promise<Buffer> {
  const socket = dgram.createSocket(server.host.includes(":") ? "udp6" : "udp4");
  return new Promise<Buffer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer from ${server.host}:${server.port}`)), ms);
    socket.on("error", (e: Error) => reject(e));
    socket.on("message", (msg: Buffer) => {
      if (msg.length >= 2 && msg.readUInt16BE(0) === id) {
        clearTimeout(timer);
        resolve(msg);
      }
    });
    socket.send(query, server.port, server.host);
  }).finally(() => socket.close());
}

/** Queries the servers in turn, `attempts` rounds, each try waiting `timeoutMs`. */
async function resolve(a: DnsLookupArgs): Promise<Buffer> {
  const servers = a.servers.length > 0 ? a.servers.map(parseServer) : systemServers();
  const id = Math.floor(Math.random() * 0x10000);
  const query = packet.encode({
    type: "query",
    id,
    flags: a.recurse ? packet.RECURSION_DESIRED : 0,
    questions: [{ type: a.qtype, class: a.qclass, name: a.name }],
  });
  let last: unknown;
  for (let round = 0; round < Math.max(1, a.attempts); round++) {
    for (const s of servers) {
      try {
        return await exchange(s, query, id, a.timeoutMs);
      } catch (e) {
        last = e;
      }
    }
  }
  throw last;
}

/** VRL's `dns_lookup` result for one query. */
export async function dnsLookup(a: DnsLookupArgs): Promise<unknown> {
  let reply: Buffer;
  try {
    reply = await resolve(a);
  } catch (e) {
    throw new Error(`unable to perform a lookup: ${(e as Error).message}`);
  }
  return renderDnsMessage(packet.decode(reply), types.toType);
}

/** The first /etc/hosts name of an address (addresses compared in canonical form). */
function hostsName(ip: string): string | undefined {
  let text = "";
  try {
    text = Deno.readTextFileSync("/etc/hosts");
  } catch {
    return undefined;
  }
  const want = canonical(ip);
  for (const line of text.split("\n")) {
    const [addr, name] = line.replace(/#.*/, "").trim().split(/\s+/);
    if (name !== undefined && canonical(addr) === want) return name;
  }
  return undefined;
}

function canonical(ip: string): string {
  try {
    return new URL(`http://${ip.includes(":") ? `[${ip}]` : ip}/`).hostname;
  } catch {
    return ip;
  }
}

/**
 * VRL's `reverse_dns`: the host name of an address, failing when it has none. `servers` replaces
 * /etc/resolv.conf's (VRL's function has no such argument; tests use it).
 */
export async function reverseDns(
  a: ReverseDnsArgs,
  timeoutMs: number,
  servers: string[] = [],
): Promise<string> {
  const local = hostsName(a.ip);
  if (local !== undefined) return local;
  const args: DnsLookupArgs = {
    name: a.ptr,
    qtype: "PTR",
    qclass: "IN",
    servers,
    timeoutMs: Math.max(1, Math.floor(timeoutMs / 2)),
    attempts: 2,
    recurse: true,
  };
  let reply: Buffer;
  try {
    reply = await resolve(args);
  } catch (e) {
    throw new Error(`unable to perform a lookup : ${(e as Error).message}`);
  }
  const ptr = packet.decode(reply).answers?.find((r: { type: string }) => r.type === "PTR");
  if (ptr === undefined) throw new Error("unable to perform a lookup : failed to lookup address information");
  return String(ptr.data);
}
