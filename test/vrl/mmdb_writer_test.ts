/**
 * The test MMDB writer (`test/helpers/mmdb_writer.ts`) checked by the npm reader Petrel uses: every
 * record size, IPv4 and IPv6 trees, nested networks, every data type and the metadata.
 */

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { Reader } from "mmdb-lib";
import { mmdb, type MmdbSpec, writeMmdb } from "../helpers/mmdb_writer.ts";

const RECORD = {
  s: "ünïcode",
  long: "x".repeat(300),
  n: 7,
  big: 70000,
  neg: -5,
  f: 1.5,
  d: mmdb.double(2),
  fl: mmdb.float(0.5),
  u16: mmdb.uint16(443),
  u64: mmdb.uint64(2n ** 40n),
  u128: mmdb.uint128(2n ** 100n),
  t: true,
  no: false,
  bytes: new Uint8Array([0, 255]),
  list: [1, "a", { k: [] }],
  zero: 0,
};

const NETWORKS: MmdbSpec["networks"] = [
  ["10.0.0.0/8", { net: "ten" }],
  ["10.1.0.0/16", { net: "ten-one" }],
  ["10.1.2.3/32", RECORD],
  ["192.168.0.0/24", { net: "home" }],
];

for (const recordSize of [24, 28, 32] as const) {
  Deno.test(`mmdb writer: ${recordSize}-bit records read back through mmdb-lib`, () => {
    const db = writeMmdb({
      databaseType: "Petrel-Test",
      recordSize,
      networks: [...NETWORKS, ["2001:db8::/32", { net: "doc" }], ["2001:db8:1::/48", { net: "doc-1" }]],
    });
    const reader = new Reader(Buffer.from(db));
    assert.equal(reader.metadata.databaseType, "Petrel-Test");
    assert.equal(reader.metadata.recordSize, recordSize);
    assert.equal(reader.metadata.ipVersion, 6);
    assert.equal(reader.metadata.binaryFormatMajorVersion, 2);
    assert.deepEqual(reader.metadata.languages, ["en"]);
    assert.equal(reader.metadata.buildEpoch.getTime(), 1_700_000_000_000);
    assert.deepEqual(reader.get("10.200.0.1"), { net: "ten" });
    assert.deepEqual(reader.get("10.1.255.255"), { net: "ten-one" });
    assert.deepEqual(reader.get("10.1.2.4"), { net: "ten-one" });
    assert.deepEqual(reader.get("192.168.0.77"), { net: "home" });
    assert.equal(reader.get("192.168.1.1"), null);
    assert.equal(reader.get("11.0.0.1"), null);
    assert.deepEqual(reader.get("2001:db8:ffff::1"), { net: "doc" });
    assert.deepEqual(reader.get("2001:db8:1:2::1"), { net: "doc-1" });
    assert.equal(reader.get("2001:db9::1"), null);
    const r = reader.get("10.1.2.3") as Record<string, unknown>;
    assert.deepEqual({ ...r, bytes: [...(r.bytes as Uint8Array)] }, {
      ...RECORD,
      d: 2,
      fl: 0.5,
      u16: 443,
      u64: 2n ** 40n,
      u128: 2n ** 100n,
      bytes: [0, 255],
    });
  });
}

Deno.test("mmdb writer: an IPv4-only tree", () => {
  const reader = new Reader(Buffer.from(writeMmdb({ databaseType: "V4", ipVersion: 4, networks: NETWORKS })));
  assert.equal(reader.metadata.ipVersion, 4);
  assert.deepEqual(reader.get("10.9.9.9"), { net: "ten" });
  assert.equal((reader.get("10.1.2.3") as Record<string, unknown>).s, "ünïcode");
  assert.equal(reader.get("8.8.8.8"), null);
});
