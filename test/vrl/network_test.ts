/**
 * `dns_lookup`, `reverse_dns` and `http_request`: synchronous calls answered by the network thread,
 * against local peers only (an HTTP echo server and a UDP DNS responder in a worker, `net_peers.ts`).
 */

import assert from "node:assert/strict";
import { reverseDns } from "../../engine/vrl/stdlib/dns_client.ts";
import { setHttpTimeoutMs } from "../../engine/vrl/stdlib/network.ts";
import { stopNetworkWorker } from "../../engine/vrl/stdlib/net_bridge.ts";
import { check, fails, ok, rejects, type VrlCase } from "./harness.ts";

async function startPeers(): Promise<{ http: number; dns: number; stop(): void }> {
  const w = new Worker(new URL("./net_peers.ts", import.meta.url), { type: "module" });
  const ports = await new Promise<{ http: number; dns: number }>((resolve, reject) => {
    w.onmessage = (e) => resolve(e.data);
    w.onerror = (e) => reject(e.message);
  });
  return { ...ports, stop: () => w.terminate() };
}

function dnsCases(port: number): VrlCase[] {
  // generous: a peer on a loaded machine (the full suite beside other work) has answered after 2 s
  const opts = `options: {"servers": ["127.0.0.1:${port}"], "timeout": 10, "attempts": 1}`;
  const lookup = (name: string, more = "") =>
    `r = dns_lookup!("${name}"${more}, ${opts}); del(r.header.id); r`;
  const header = (an: number, ns: number, rcode: number) => ({
    aa: true,
    ad: false,
    anCount: an,
    arCount: 0,
    cd: false,
    nsCount: ns,
    opcode: 0,
    qdCount: 1,
    qr: true,
    ra: false,
    rcode,
    rd: true,
    tc: false,
  });
  const a = (name: string, ip: string) => ({
    class: "IN",
    domainName: name,
    rData: ip,
    recordType: "A",
    recordTypeId: 1,
    ttl: 300,
  });
  const rdata = (name: string, qtype: string) =>
    `map_values(array!(dns_lookup!("${name}", qtype: "${qtype}", ${opts}).answers)) -> |r| { r.rData }`;
  return [
    ok(lookup("petrel.test"), {
      additional: [],
      answers: [a("petrel.test.", "192.0.2.1"), a("petrel.test.", "192.0.2.2")],
      authority: [],
      fullRcode: 0,
      header: header(2, 0, 0),
      question: [{ class: "IN", domainName: "petrel.test.", questionType: "A", questionTypeId: 1 }],
      rcodeName: "NOERROR",
    }),
    ok(
      `r = dns_lookup!("nope.petrel.test", ${opts}); [r.rcodeName, r.fullRcode, r.header.rcode, r.answers]`,
      [
        "NXDOMAIN",
        3,
        3,
        [],
      ],
    ),
    ok(
      `dns_lookup!("nope.petrel.test", ${opts}).authority[0].rData`,
      "ns.petrel.test. admin.petrel.test. 7 3600 600 86400 60",
    ),
    ok(rdata("petrel.test", "AAAA"), ["2001:db8::1"]),
    ok(rdata("petrel.test", "mx"), ["10 mx.petrel.test."]),
    ok(rdata("petrel.test", "TXT"), [`"v=spf1 -all" "say \\"hi\\""`]),
    ok(rdata("www.petrel.test", "A"), ["petrel.test.", "192.0.2.1"]),
    ok(`dns_lookup!("petrel.test", qtype: "MX", ${opts}).answers[0].recordTypeId`, 15),
    ok(`dns_lookup!("petrel.test", class: "IN", ${opts}).question[0].class`, "IN"),
    ok(
      `dns_lookup!("petrel.test", options: {"servers": ["127.0.0.1:${port}"], "recurse": false}).header.rd`,
      false,
    ),
    // A server that never answers: the lookup fails after timeout × attempts, it never hangs.
    fails(
      `dns_lookup!("silent.petrel.test", ${opts.replace('"timeout": 10', '"timeout": 1')})`,
      `unable to perform a lookup: no answer from 127.0.0.1:${port}`,
    ),
    fails(`dns_lookup!("petrel.test", qtype: "BOGUS", ${opts})`, "invalid query type: BOGUS"),
    fails(`dns_lookup!("petrel.test", class: "XX", ${opts})`, "invalid query class: XX"),
    fails(
      `dns_lookup!("petrel.test", options: {"servers": "127.0.0.1"})`,
      `option "servers" must be an array`,
    ),
    fails(
      `dns_lookup!("petrel.test", options: {"timeout": 0})`,
      `option "timeout" must be a positive integer`,
    ),
    rejects(`dns_lookup("petrel.test")`, "E100"),
  ];
}

function httpCases(port: number): VrlCase[] {
  const base = `http://127.0.0.1:${port}`;
  return [
    ok(`parse_json!(http_request!("${base}/get?x=1"))`, {
      method: "GET",
      path: "/get?x=1",
      header: null,
      body: "",
    }),
    ok(
      `parse_json!(http_request!("${base}/post", method: "post", headers: {"X-Petrel": "yes"}, body: "{\\"a\\":1}"))`,
      { method: "POST", path: "/post", header: "yes", body: '{"a":1}' },
    ),
    ok(`http_request!(url: "${base}/put", method: "PUT", body: "b").method`, null),
    // The body whatever the status, and bytes that are not UTF-8 kept.
    ok(`http_request!("${base}/missing")`, "no such thing"),
    ok(`encode_base16(http_request!("${base}/binary"))`, "61ff62"),
    fails(`http_request!("${base}/hang")`, `HTTP request timed out: GET ${base}/hang`),
    fails(`http_request!("http://127.0.0.1:1/")`, "HTTP request failed"),
    fails(`http_request!("ftp://127.0.0.1/")`, "Invalid URL scheme: ftp://127.0.0.1/"),
    fails(`http_request!("not a url")`, "Invalid URL: not a url"),
    fails(`http_request!("${base}/", method: "GE T")`, "Invalid HTTP method: GE T"),
    fails(`http_request!("${base}/", headers: {"x": 1})`, `Invalid header value for "x"`),
    fails(`http_request!("${base}/", headers: {"bad header": "v"})`, "Invalid header"),
    rejects(`http_request("${base}/")`, "E100"),
  ];
}

const REVERSE: VrlCase[] = [
  // /etc/hosts first, as getnameinfo does.
  ok(`reverse_dns!("127.0.0.1")`, "localhost"),
  fails(`reverse_dns!("not an ip")`, "unable to parse IP address: invalid IP address syntax"),
  rejects(`reverse_dns("127.0.0.1")`, "E100"),
];

Deno.test("network functions against local peers", async (t) => {
  const peers = await startPeers();
  setHttpTimeoutMs(1_000);
  try {
    for (const c of [...dnsCases(peers.dns), ...httpCases(peers.http), ...REVERSE]) {
      await t.step(
        c.program.replaceAll(String(peers.http), "PORT").replaceAll(String(peers.dns), "PORT"),
        () => check(c),
      );
    }
    await t.step("reverse_dns asks for PTR when /etc/hosts has no name", async () => {
      const servers = [`127.0.0.1:${peers.dns}`];
      const ptr = (ip: string) => ip.split(".").reverse().join(".") + ".in-addr.arpa";
      assert.equal(
        await reverseDns({ ip: "192.0.2.1", ptr: ptr("192.0.2.1") }, 2_000, servers),
        "petrel.test",
      );
      await assert.rejects(
        reverseDns({ ip: "192.0.2.9", ptr: ptr("192.0.2.9") }, 2_000, servers),
        /unable to perform a lookup : failed to lookup address information/,
      );
    });
  } finally {
    setHttpTimeoutMs();
    stopNetworkWorker();
    peers.stop();
  }
});
