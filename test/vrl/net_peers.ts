/**
 * The peers `network_test.ts` talks to, run in a worker because VRL's network calls block the test's
 * own thread: an HTTP echo server and a small UDP DNS responder, both on 127.0.0.1 port 0. Posts
 * `{http, dns}` (the ports) once both listen.
 */

import dgram from "node:dgram";
import { Buffer } from "node:buffer";
import * as packet from "dns-packet";

const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
  const url = new URL(req.url);
  if (url.pathname === "/hang") await new Promise(() => {});
  if (url.pathname === "/binary") return new Response(new Uint8Array([0x61, 0xff, 0x62]));
  if (url.pathname === "/missing") return new Response("no such thing", { status: 404 });
  const body = await req.text();
  return Response.json({
    method: req.method,
    path: url.pathname + url.search,
    header: req.headers.get("x-petrel"),
    body,
  });
});

type Rr = { name: string; type: string; ttl: number; data: unknown; class?: string };
const ZONE: Record<string, Rr[]> = {
  "A petrel.test": [
    { name: "petrel.test", type: "A", ttl: 300, data: "192.0.2.1" },
    { name: "petrel.test", type: "A", ttl: 300, data: "192.0.2.2" },
  ],
  "AAAA petrel.test": [{ name: "petrel.test", type: "AAAA", ttl: 60, data: "2001:db8::1" }],
  "MX petrel.test": [{
    name: "petrel.test",
    type: "MX",
    ttl: 3600,
    data: { preference: 10, exchange: "mx.petrel.test" },
  }],
  "TXT petrel.test": [{ name: "petrel.test", type: "TXT", ttl: 30, data: ["v=spf1 -all", 'say "hi"'] }],
  "A www.petrel.test": [
    { name: "www.petrel.test", type: "CNAME", ttl: 120, data: "petrel.test" },
    { name: "petrel.test", type: "A", ttl: 300, data: "192.0.2.1" },
  ],
  "PTR 1.2.0.192.in-addr.arpa": [{
    name: "1.2.0.192.in-addr.arpa",
    type: "PTR",
    ttl: 60,
    data: "petrel.test",
  }],
};

const dns = dgram.createSocket("udp4");
dns.on("message", (msg: Buffer, from: { address: string; port: number }) => {
  const q = packet.decode(msg);
  const question = q.questions[0];
  if (question.name === "silent.petrel.test") return;
  const answers = ZONE[`${question.type} ${question.name}`];
  const reply = packet.encode({
    type: "response",
    id: q.id,
    flags: packet.AUTHORITATIVE_ANSWER | (q.flags & packet.RECURSION_DESIRED) | (answers ? 0 : 3),
    questions: q.questions,
    answers: (answers ?? []).map((a) => ({ class: "IN", ...a })),
    authorities: answers ? [] : [{
      name: "petrel.test",
      type: "SOA",
      ttl: 900,
      class: "IN",
      data: {
        mname: "ns.petrel.test",
        rname: "admin.petrel.test",
        serial: 7,
        refresh: 3600,
        retry: 600,
        expire: 86400,
        minimum: 60,
      },
    }],
  });
  dns.send(reply, from.port, from.address);
});
dns.bind(0, "127.0.0.1", () => {
  self.postMessage({ http: http.addr.port, dns: dns.address().port });
});
