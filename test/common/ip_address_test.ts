/**
 * `isIP` answers as node:net's (which the query worker no longer imports: it costs the worker's
 * start 20-70 ms): on hand-picked addresses and on many random strings of address characters.
 */
import assert from "node:assert/strict";
import { isIP as nodeIsIP } from "node:net";
import { isIP } from "../../src/common/ip_address.ts";

const PICKED = [
  "1.2.3.4",
  "255.255.255.255",
  "256.1.1.1",
  "01.2.3.4",
  "1.2.3",
  "1.2.3.4.5",
  " 1.2.3.4",
  "::",
  "::1",
  "1::",
  "fe80::1%eth0",
  "fe80::1%",
  "::ffff:1.2.3.4",
  "1:2:3:4:5:6:1.2.3.4",
  "1:2:3:4:5:6:7:8",
  "1:2:3:4:5:6:7:8:9",
  "1::2::3",
  "12345::",
  "2001:db8::ff00:42:8329",
  "",
  "abc",
  "1.2.3.4%x",
];

Deno.test("isIP answers as node:net's on hand-picked addresses", () => {
  for (const s of PICKED) assert.equal(isIP(s), nodeIsIP(s), JSON.stringify(s));
});

Deno.test("isIP answers as node:net's on random strings of address characters", () => {
  const alphabet = "0123456789abcdefABCDEF.:%z ";
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  let valid = 0;
  for (let i = 0; i < 50_000; i++) {
    // mostly address-shaped: segments of digits or hex joined by dots or colons
    const parts = 1 + Math.floor(next() * 9);
    let s = "";
    for (let p = 0; p < parts; p++) {
      const len = Math.floor(next() * 5);
      for (let c = 0; c < len; c++) s += alphabet[Math.floor(next() * (next() < 0.9 ? 16 : alphabet.length))];
      if (p < parts - 1) s += next() < 0.5 ? "." : next() < 0.8 ? ":" : "::";
    }
    const want = nodeIsIP(s);
    if (want !== 0) valid++;
    assert.equal(isIP(s), want, JSON.stringify(s));
  }
  assert.ok(valid > 100, `only ${valid} valid addresses generated`);
});
