import { httpStatusOf } from "../../src/http/render_error.ts";
/** `accommodateExistingSchema` (and `singleValue`): batches adapted to a table another protocol created. */
import assert from "node:assert/strict";
import { PetrelError } from "../../src/common/errors.ts";
import { Storage } from "../../src/storage/mod.ts";
import type { ColumnSchema, DataType, Value } from "../../src/common/rows.ts";
import { dump } from "./helpers.ts";

function cols(time: DataType, timeName = "ts", field = "v"): ColumnSchema[] {
  return [
    { name: "host", type: "String", semantic: "TAG" },
    { name: timeName, type: time, semantic: "TIMESTAMP" },
    { name: field, type: "Float64", semantic: "FIELD" },
  ];
}

const T = 1_700_000_000_000;
const CONVERSIONS: Array<{ name: string; table: DataType; batch: DataType; wrote: Value; stored: Value }> = [
  {
    name: "ns → ms floors",
    table: "TimestampMillisecond",
    batch: "TimestampNanosecond",
    wrote: BigInt(T) * 1_000_000n + 999_999n,
    stored: T,
  },
  {
    name: "ns → ms before 1970 floors toward the past",
    table: "TimestampMillisecond",
    batch: "TimestampNanosecond",
    wrote: -1,
    stored: -1,
  },
  {
    name: "ms → ns",
    table: "TimestampNanosecond",
    batch: "TimestampMillisecond",
    wrote: T,
    stored: BigInt(T) * 1_000_000n,
  },
  {
    name: "s → ms",
    table: "TimestampMillisecond",
    batch: "TimestampSecond",
    wrote: 1_700_000_000,
    stored: T,
  },
  {
    name: "us → s floors",
    table: "TimestampSecond",
    batch: "TimestampMicrosecond",
    wrote: 1_700_000_000_999_999,
    stored: 1_700_000_000,
  },
  {
    name: "ms → ms is untouched",
    table: "TimestampMillisecond",
    batch: "TimestampMillisecond",
    wrote: T + 5,
    stored: T + 5,
  },
];

for (const c of CONVERSIONS) {
  Deno.test(`accommodateExistingSchema converts the time index: ${c.name}`, () => {
    const s = Storage.open({ dataHome: ":memory:" });
    try {
      s.write("public", [{ table: "m", columns: cols(c.table), rows: [["seed", 0, 0]] }]);
      const batch = { table: "m", columns: cols(c.batch, "time"), rows: [["a", c.wrote, 1]] };
      if (c.table !== c.batch) {
        assert.throws(() => s.write("public", [batch]), /does not match the time index/);
        assert.throws(
          () => s.write("public", [{ ...batch, columns: cols(c.batch) }]),
          /Column datatype mismatch. For column: ts/,
        );
      }
      s.write("public", [batch], { accommodateExistingSchema: true });
      assert.deepEqual(dump(s, "public", "m", "host"), [["a", c.stored, 1], ["seed", 0, 0]]);
      assert.equal(s.getTable("public", "m")!.columns.find((x) => x.name === "ts")!.type, c.table);
    } finally {
      s.close();
    }
  });
}

Deno.test("a fractional time that needs converting is a 400 naming the column", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  try {
    s.write("public", [{ table: "m", columns: cols("TimestampMillisecond"), rows: [["a", 1, 1]] }]);
    assert.throws(
      () =>
        s.write("public", [{ table: "m", columns: cols("TimestampSecond"), rows: [["a", 1.5, 1]] }], {
          accommodateExistingSchema: true,
        }),
      (e: PetrelError) => httpStatusOf(e) === 400 && /Invalid value 1.5 for column ts/.test(e.message),
    );
  } finally {
    s.close();
  }
});

Deno.test("singleValue renames the one value field to the table's only field; otherwise it is added", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  try {
    s.write("public", [{
      table: "m",
      columns: cols("TimestampMillisecond", "ts", "val"),
      rows: [["a", 1, 1]],
    }]);
    const other = {
      table: "m",
      columns: cols("TimestampMillisecond", "ts", "greptime_value"),
      rows: [["b", 2, 2]],
    };
    s.write("public", [other], { accommodateExistingSchema: true, singleValue: true });
    assert.deepEqual(s.getTable("public", "m")!.columns.map((c) => c.name), ["host", "ts", "val"]);
    assert.deepEqual(dump(s, "public", "m", "host"), [["a", 1, 1], ["b", 2, 2]]);
    // without singleValue the field is a new column
    s.write("public", [{ ...other, rows: [["c", 3, 3]] }], { accommodateExistingSchema: true });
    assert.deepEqual(s.getTable("public", "m")!.columns.map((c) => c.name), [
      "host",
      "ts",
      "val",
      "greptime_value",
    ]);
    // two fields in the table now: nothing to rename to, so a third name is added too
    s.write(
      "public",
      [{ table: "m", columns: cols("TimestampMillisecond", "ts", "x"), rows: [["d", 4, 4]] }],
      {
        accommodateExistingSchema: true,
        singleValue: true,
      },
    );
    assert.ok(s.getTable("public", "m")!.columns.some((c) => c.name === "x"));
  } finally {
    s.close();
  }
});

Deno.test("singleValue still refuses a value of another type for the renamed field", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  try {
    s.write("public", [{ table: "m", columns: cols("TimestampMillisecond"), rows: [["a", 1, 1]] }]);
    const columns: ColumnSchema[] = [...cols("TimestampMillisecond").slice(0, 2), {
      name: "value",
      type: "String",
      semantic: "FIELD",
    }];
    assert.throws(
      () =>
        s.write("public", [{ table: "m", columns, rows: [["a", 2, "x"]] }], {
          accommodateExistingSchema: true,
          singleValue: true,
        }),
      /Column datatype mismatch. For column: v, expected datatype: Float64, actual datatype: String/,
    );
  } finally {
    s.close();
  }
});
