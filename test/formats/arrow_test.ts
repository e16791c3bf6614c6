import assert from "node:assert/strict";
import { type DataType, type Table, tableFromIPC, TimeUnit, Type } from "apache-arrow";
import { renderSqlOutputs } from "../../src/http/formats/mod.ts";
import type { QueryOutput, Value } from "../../src/common/rows.ts";

interface Expect {
  typeId: Type;
  unit?: TimeUnit;
  bitWidth?: number;
  signed?: boolean;
  values: unknown[];
}

// GreptimeDB data type → expected Arrow type and the values read back.
const COLUMNS: [string, string, Value[], Expect][] = [
  ["b", "Boolean", [true, false, null], { typeId: Type.Bool, values: [true, false, null] }],
  ["i8", "Int8", [-1, 127, null], { typeId: Type.Int, bitWidth: 8, signed: true, values: [-1, 127, null] }],
  ["i16", "Int16", [-300, 1, 2], { typeId: Type.Int, bitWidth: 16, signed: true, values: [-300, 1, 2] }],
  ["i32", "Int32", [-70000, 0, null], {
    typeId: Type.Int,
    bitWidth: 32,
    signed: true,
    values: [-70000, 0, null],
  }],
  ["i64", "Int64", [9223372036854775807n, -5, null], {
    typeId: Type.Int,
    bitWidth: 64,
    signed: true,
    values: [9223372036854775807n, -5n, null],
  }],
  ["u8", "UInt8", [255, 0, 1], { typeId: Type.Int, bitWidth: 8, signed: false, values: [255, 0, 1] }],
  ["u16", "UInt16", [65535, 0, 1], { typeId: Type.Int, bitWidth: 16, signed: false, values: [65535, 0, 1] }],
  ["u32", "UInt32", [4294967295, 0, null], {
    typeId: Type.Int,
    bitWidth: 32,
    signed: false,
    values: [4294967295, 0, null],
  }],
  ["u64", "UInt64", [18446744073709551615n, 7, null], {
    typeId: Type.Int,
    bitWidth: 64,
    signed: false,
    values: [18446744073709551615n, 7n, null],
  }],
  ["f32", "Float32", [1.5, -2, null], { typeId: Type.Float, values: [1.5, -2, null] }],
  ["f64", "Float64", [66.6, NaN, null], { typeId: Type.Float, values: [66.6, NaN, null] }],
  ["s", "String", ["héllo", "", null], { typeId: Type.Utf8, values: ["héllo", "", null] }],
  ["j", "Json", ['{"a":1}', null, "[]"], { typeId: Type.Utf8, values: ['{"a":1}', null, "[]"] }],
  ["bin", "Binary", [new Uint8Array([1, 2, 3]), null, new Uint8Array(0)], {
    typeId: Type.Binary,
    values: [[1, 2, 3], null, []],
  }],
  ["d", "Date", [19000, -1, null], { typeId: Type.Date, values: [19000 * 86400000, -86400000, null] }],
  ["ts_s", "TimestampSecond", [1716668197, 0, null], {
    typeId: Type.Timestamp,
    unit: TimeUnit.SECOND,
    values: [1716668197n, 0n, null],
  }],
  ["ts_ms", "TimestampMillisecond", [1716668197217, -1, null], {
    typeId: Type.Timestamp,
    unit: TimeUnit.MILLISECOND,
    values: [1716668197217n, -1n, null],
  }],
  ["ts_us", "TimestampMicrosecond", [1716668197217000, 1, 2], {
    typeId: Type.Timestamp,
    unit: TimeUnit.MICROSECOND,
    values: [1716668197217000n, 1n, 2n],
  }],
  ["ts_ns", "TimestampNanosecond", [1716668197217000001n, 1e18, null], {
    typeId: Type.Timestamp,
    unit: TimeUnit.NANOSECOND,
    values: [1716668197217000001n, 1000000000000000000n, null],
  }],
  ["count", "UnknownInt", [1n, 2n, null], {
    typeId: Type.Int,
    bitWidth: 64,
    signed: true,
    values: [1n, 2n, null],
  }],
  ["avg", "Decimal(10, 2)", [1.5, 2, null], { typeId: Type.Float, values: [1.5, 2, null] }],
  ["mixed", "Interval", ["1 day", 3, null], { typeId: Type.Utf8, values: ["1 day", "3", null] }],
];

const output: QueryOutput = {
  kind: "records",
  columns: COLUMNS.map(([name, data_type]) => ({ name, data_type })),
  rows: [0, 1, 2].map((r) => COLUMNS.map(([, , values]) => values[r])),
};

/** A cell read back in a comparable shape: bigints stay, binaries become arrays, timestamps raw. */
function readBack(type: DataType, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  if (raw instanceof Uint8Array) return Array.from(raw);
  if (type.typeId === Type.Date && typeof raw === "object") return (raw as Date).getTime();
  return raw;
}

function rawTimestamps(table: Table, name: string): (bigint | null)[] {
  const column = table.getChild(name)!;
  const out: (bigint | null)[] = [];
  for (const data of column.data) {
    const values = data.values as BigInt64Array;
    for (let i = 0; i < data.length; i++) out.push(data.getValid(i) ? values[i] : null);
  }
  return out;
}

for (const compression of [undefined, "zstd", "ZSTD", "lz4"]) {
  Deno.test(`arrow: types and values round-trip (compression=${compression})`, async () => {
    const res = await renderSqlOutputs([output], { format: "ARROW", compression, executionTimeMs: 5 });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/arrow");
    assert.equal(res.headers.get("x-greptime-format"), "arrow");
    assert.equal(res.headers.get("x-greptime-execution-time"), "5");
    const table = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
    assert.equal(table.numRows, 3);
    assert.deepEqual(table.schema.fields.map((f) => f.name), COLUMNS.map(([name]) => name));
    for (const [name, dataType, , want] of COLUMNS) {
      const field = table.schema.fields.find((f) => f.name === name)!;
      const type = field.type;
      assert.equal(type.typeId, want.typeId, `${name} (${dataType}) type`);
      if (want.unit !== undefined) {
        assert.equal((type as DataType & { unit: TimeUnit }).unit, want.unit, `${name} unit`);
        assert.equal((type as DataType & { timezone: string | null }).timezone ?? null, null, `${name} tz`);
        assert.deepEqual(rawTimestamps(table, name), want.values, `${name} values`);
        continue;
      }
      if (want.bitWidth !== undefined) {
        const int = type as DataType & { bitWidth: number; isSigned: boolean };
        assert.equal(int.bitWidth, want.bitWidth, `${name} bitWidth`);
        assert.equal(int.isSigned, want.signed, `${name} signed`);
      }
      if (dataType === "Float32") assert.equal((type as DataType & { precision: number }).precision, 1);
      if (dataType === "Float64") assert.equal((type as DataType & { precision: number }).precision, 2);
      const column = table.getChild(name)!;
      const got = [0, 1, 2].map((i) => readBack(type, column.get(i)));
      assert.deepEqual(got, want.values, `${name} values`);
    }
  });
}

Deno.test("arrow: zstd compression shrinks a compressible body", async () => {
  const big: QueryOutput = {
    kind: "records",
    columns: [{ name: "s", data_type: "String" }],
    rows: Array.from({ length: 5000 }, () => ["the same text over and over again"]),
  };
  const plain = await (await renderSqlOutputs([big], { format: "arrow", executionTimeMs: 0 })).arrayBuffer();
  const packed =
    await (await renderSqlOutputs([big], { format: "arrow", compression: "zstd", executionTimeMs: 0 }))
      .arrayBuffer();
  assert.ok(packed.byteLength * 10 < plain.byteLength, `${packed.byteLength} vs ${plain.byteLength}`);
  const table = tableFromIPC(new Uint8Array(packed));
  assert.equal(table.numRows, 5000);
  assert.equal(table.getChild("s")!.get(4999), "the same text over and over again");
});

Deno.test("arrow: empty set carries the schema and no rows", async () => {
  const res = await renderSqlOutputs([{
    kind: "records",
    columns: [{ name: "ts", data_type: "TimestampMillisecond" }, { name: "v", data_type: "Float64" }],
    rows: [],
  }], { format: "arrow", executionTimeMs: 0 });
  const table = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
  assert.equal(table.numRows, 0);
  assert.deepEqual(table.schema.fields.map((f) => [f.name, f.type.typeId]), [
    ["ts", Type.Timestamp],
    ["v", Type.Float],
  ]);
});

Deno.test("arrow: no statement is an empty body", async () => {
  const res = await renderSqlOutputs([], { format: "arrow", executionTimeMs: 0 });
  assert.equal((await res.arrayBuffer()).byteLength, 0);
});
