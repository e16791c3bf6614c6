/** `parse_etld` (shipped Public Suffix List and custom lists) and `encrypt_ip`/`decrypt_ip` (ipcrypt vectors). */

import assert from "node:assert/strict";
import { cryptIpWithKey } from "../../engine/vrl/stdlib/ip_crypt.ts";
import { fails, ok, rejects, table } from "./harness.ts";

const CUSTOM = new URL("./fixtures/custom_public_suffix_list.dat", import.meta.url).pathname;

table("parse_etld (VRL docs examples and PSL rules)", [
  ok(`parse_etld!("sub.sussex.ac.uk")`, { etld: "ac.uk", etld_plus: "ac.uk", known_suffix: true }),
  ok(`parse_etld!("sub.sussex.ac.uk", plus_parts: 1)`, {
    etld: "ac.uk",
    etld_plus: "sussex.ac.uk",
    known_suffix: true,
  }),
  ok(`parse_etld!("vector.acmecorp")`, { etld: "acmecorp", etld_plus: "acmecorp", known_suffix: false }),
  ok(`parse_etld!("vector.acmecorp", psl: "${CUSTOM}")`, {
    etld: "acmecorp",
    etld_plus: "acmecorp",
    known_suffix: true,
  }),
  ok(`parse_etld!("a.b.internal.example", plus_parts: 1, psl: "${CUSTOM}")`, {
    etld: "b.internal.example",
    etld_plus: "a.b.internal.example",
    known_suffix: true,
  }),
  ok(`parse_etld!("x.ok.internal.example", psl: "${CUSTOM}").etld`, "internal.example"),
  // Wildcard and exception rules of the shipped list (`*.ck`, `!www.ck`), and a private-section rule.
  ok(`parse_etld!("a.b.ck").etld`, "b.ck"),
  ok(`parse_etld!("www.ck").etld`, "ck"),
  ok(`parse_etld!("foo.github.io", plus_parts: 5)`, {
    etld: "github.io",
    etld_plus: "foo.github.io",
    known_suffix: true,
  }),
  ok(`parse_etld!("WWW.Example.COM", plus_parts: 1).etld_plus`, "Example.COM"),
  // Internationalized suffixes match in Unicode and in punycode.
  ok(`parse_etld!("пример.рф", plus_parts: 1).etld_plus`, "пример.рф"),
  ok(`parse_etld!("xn--e1afmkfd.xn--p1ai")`, { etld: "xn--p1ai", etld_plus: "xn--p1ai", known_suffix: true }),
  fails(`parse_etld!("")`, "unable to determine eTLD"),
  rejects(`parse_etld("a.com")`, "E100"),
  rejects(`parse_etld!("a.com", psl: "/nonexistent/list.dat")`, "E610"),
]);

table("encrypt_ip / decrypt_ip (VRL docs examples)", [
  ok(`encrypt_ip!("192.168.1.1", "sixteen byte key", "aes128")`, "72b9:a747:f2e9:72af:76ca:5866:6dcf:c3b0"),
  ok(`encrypt_ip!("192.168.1.1", "thirty-two bytes key for pfx use", "pfx")`, "33.245.248.61"),
  ok(
    `encrypt_ip!("2001:db8::1", "thirty-two bytes key for ipv6pfx", "pfx")`,
    "88bd:d2bf:8865:8c4d:84b:44f6:6077:72c9",
  ),
  ok(`decrypt_ip!("72b9:a747:f2e9:72af:76ca:5866:6dcf:c3b0", "sixteen byte key", "aes128")`, "192.168.1.1"),
  ok(`decrypt_ip!("33.245.248.61", "thirty-two bytes key for pfx use", "pfx")`, "192.168.1.1"),
  ok(
    `decrypt_ip!("88bd:d2bf:8865:8c4d:84b:44f6:6077:72c9", "thirty-two bytes key for ipv6pfx", "pfx")`,
    "2001:db8::1",
  ),
  // Prefix preservation: two addresses of one /24 share their encrypted /24.
  ok(
    `k = "thirty-two bytes key for pfx use"
     a = split(encrypt_ip!("10.1.2.3", k, "pfx"), ".")
     b = split(encrypt_ip!("10.1.2.200", k, "pfx"), ".")
     slice!(a, 0, 3) == slice!(b, 0, 3)`,
    true,
  ),
  fails(`encrypt_ip!("192.168.1.1", "short", "aes128")`, "16-byte key"),
  fails(`encrypt_ip!("192.168.1.1", "sixteen byte key", "pfx")`, "32-byte key"),
  fails(`encrypt_ip!("1.2.3.4", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "pfx")`, "two different halves"),
  fails(`encrypt_ip!("not an ip", "sixteen byte key", "aes128")`, "unable to parse IP address"),
  fails(`encrypt_ip!("1.2.3.4", "sixteen byte key", string!(.mode))`, "Invalid mode", { mode: "des" }),
  rejects(`encrypt_ip!("1.2.3.4", "sixteen byte key", "des")`, "E610"),
  rejects(`encrypt_ip("1.2.3.4", "sixteen byte key", "aes128")`, "E100"),
]);

// The test vectors of the ipcrypt specification: binary keys, given to VRL through `decode_base16!`.
const hex = (s: string) => Uint8Array.from(s.match(/../g)!.map((x) => parseInt(x, 16)));
const K1 = "0123456789abcdeffedcba98765432101032547698badcfeefcdab8967452301";
const K2 = "2b7e151628aed2a6abf7158809cf4f3ca9f5ba40db214c3798f2e1c23456789a";
const VECTORS: [string, string, string, string][] = [
  ["aes128", "0123456789abcdeffedcba9876543210", "0.0.0.0", "bde9:6789:d353:824c:d7c6:f58a:6bd2:26eb"],
  ["aes128", "1032547698badcfeefcdab8967452301", "255.255.255.255", "aed2:92f6:ea23:58c3:48fd:8b8:74e8:45d8"],
  ["aes128", "2b7e151628aed2a6abf7158809cf4f3c", "192.0.2.1", "1dbd:c1b9:fff1:7586:7d0b:67b4:e76e:4777"],
  ["pfx", K1, "0.0.0.0", "151.82.155.134"],
  ["pfx", K1, "255.255.255.255", "94.185.169.89"],
  ["pfx", K1, "192.0.2.1", "100.115.72.131"],
  ["pfx", K1, "2001:db8::1", "c180:5dd4:2587:3524:30ab:fa65:6ab6:f88"],
  ["pfx", K2, "10.0.0.47", "19.214.210.244"],
  ["pfx", K2, "10.0.0.129", "19.214.210.80"],
  ["pfx", K2, "172.16.5.193", "210.78.229.136"],
];

table(
  "encrypt_ip/decrypt_ip: the specification's vectors in VRL, binary keys as byte strings",
  VECTORS.flatMap(([mode, key, ip, want]) => [
    ok(`encrypt_ip!("${ip}", decode_base16!("${key}"), "${mode}")`, want),
    ok(`decrypt_ip!("${want}", decode_base16!("${key}"), "${mode}")`, ip),
  ]),
);

Deno.test("ipcrypt specification vectors, both directions", () => {
  for (const [mode, key, ip, want] of VECTORS) {
    assert.equal(cryptIpWithKey(ip, hex(key), mode, false), want, `${mode} ${ip}`);
    assert.equal(cryptIpWithKey(want, hex(key), mode, true), ip, `${mode} ${want} back`);
  }
});
