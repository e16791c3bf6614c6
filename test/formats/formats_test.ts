import { httpStatusOf } from "../../src/http/render_error.ts";
import assert from "node:assert/strict";
import { renderSqlOutputs, type SqlFormatOptions } from "../../src/http/formats/mod.ts";
import { PetrelError } from "../../src/common/errors.ts";
import type { QueryOutput } from "../../src/common/rows.ts";

const demo: QueryOutput = {
  kind: "records",
  columns: [
    { name: "host", data_type: "String" },
    { name: "cpu", data_type: "Float64" },
    { name: "ts", data_type: "TimestampMillisecond" },
  ],
  rows: [
    ["host1", 66.6, 0],
    ['host, "name"', 1024, 1716668197217],
    [null, NaN, null],
  ],
};
const numbers: QueryOutput = {
  kind: "records",
  columns: [{ name: "number", data_type: "UInt32" }],
  rows: [[0], [1], [2]],
};
const empty: QueryOutput = { kind: "records", columns: [{ name: "number", data_type: "UInt32" }], rows: [] };
const inserted: QueryOutput = { kind: "affected", rows: 2 };
const odd: QueryOutput = {
  kind: "records",
  columns: [
    { name: "s", data_type: "String" },
    { name: "b", data_type: "Binary" },
    { name: "j", data_type: "Json" },
    { name: "ok", data_type: "Boolean" },
    { name: "big", data_type: "Int64" },
  ],
  rows: [
    ["line\nbreak", new Uint8Array([1, 2]), '{"b":2,"a":[1,2]}', true, 9007199254740993n],
    ["", new Uint8Array(0), '"plain"', false, -1],
  ],
};

interface Case {
  name: string;
  outputs: QueryOutput[];
  opts: Partial<SqlFormatOptions>;
  format: string;
  contentType: string;
  body: string;
}

const JSON_CT = "application/json";
const CSV_CT = "text/csv; charset=utf-8";
const TEXT_CT = "text/plain; charset=utf-8";

const CASES: Case[] = [
  // greptimedb_v1
  {
    name: "greptimedb_v1 records with float, null and NaN",
    outputs: [demo],
    opts: {},
    format: "greptimedb_v1",
    contentType: JSON_CT,
    body: '{"output":[{"records":{"schema":{"column_schemas":[{"name":"host","data_type":"String"},' +
      '{"name":"cpu","data_type":"Float64"},{"name":"ts","data_type":"TimestampMillisecond"}]},' +
      '"rows":[["host1",66.6,0],["host, \\"name\\"",1024.0,1716668197217],[null,null,null]],"total_rows":3}}],' +
      '"execution_time_ms":7}',
  },
  {
    name: "greptimedb_v1 several statements, affected rows and empty set",
    outputs: [inserted, empty],
    opts: { format: "GreptimeDB_V1" },
    format: "greptimedb_v1",
    contentType: JSON_CT,
    body: '{"output":[{"affectedrows":2},{"records":{"schema":{"column_schemas":' +
      '[{"name":"number","data_type":"UInt32"}]},"rows":[],"total_rows":0}}],"execution_time_ms":7}',
  },
  {
    name: "greptimedb_v1 limit truncates every records output",
    outputs: [numbers, numbers],
    opts: { limit: 2 },
    format: "greptimedb_v1",
    contentType: JSON_CT,
    body: '{"output":[' +
      '{"records":{"schema":{"column_schemas":[{"name":"number","data_type":"UInt32"}]},"rows":[[0],[1]],"total_rows":2}},' +
      '{"records":{"schema":{"column_schemas":[{"name":"number","data_type":"UInt32"}]},"rows":[[0],[1]],"total_rows":2}}' +
      '],"execution_time_ms":7}',
  },
  {
    name: "greptimedb_v1 limit above the row count keeps the rows",
    outputs: [numbers],
    opts: { limit: 10 },
    format: "greptimedb_v1",
    contentType: JSON_CT,
    body: '{"output":[{"records":{"schema":{"column_schemas":[{"name":"number","data_type":"UInt32"}]},' +
      '"rows":[[0],[1],[2]],"total_rows":3}}],"execution_time_ms":7}',
  },
  {
    name: "greptimedb_v1 with no statements omits output",
    outputs: [],
    opts: {},
    format: "greptimedb_v1",
    contentType: JSON_CT,
    body: '{"execution_time_ms":7}',
  },
  {
    name: "unknown format falls back to greptimedb_v1",
    outputs: [inserted],
    opts: { format: "yaml" },
    format: "greptimedb_v1",
    contentType: JSON_CT,
    body: '{"output":[{"affectedrows":2}],"execution_time_ms":7}',
  },
  {
    name: "greptimedb_v1 binary, json, bool and bigint cells",
    outputs: [odd],
    opts: {},
    format: "greptimedb_v1",
    contentType: JSON_CT,
    body: '{"output":[{"records":{"schema":{"column_schemas":[{"name":"s","data_type":"String"},' +
      '{"name":"b","data_type":"Binary"},{"name":"j","data_type":"Json"},{"name":"ok","data_type":"Boolean"},' +
      '{"name":"big","data_type":"Int64"}]},"rows":[["line\\nbreak",[1,2],{"a":[1,2],"b":2},true,9007199254740993],' +
      '["",[],"plain",false,-1]],"total_rows":2}}],"execution_time_ms":7}',
  },
  // influxdb_v1
  {
    name: "influxdb_v1 records and affected rows, limit ignored",
    outputs: [numbers, inserted],
    opts: { format: "influxdb_v1", limit: 1 },
    format: "influxdb_v1",
    contentType: JSON_CT,
    body:
      '{"results":[{"statement_id":0,"series":[{"name":"","columns":["number"],"values":[[0],[1],[2]]}]},' +
      '{"statement_id":1,"series":[]}],"execution_time_ms":7}',
  },
  {
    name: "influxdb_v1 without epoch leaves timestamps in the column unit",
    outputs: [demo],
    opts: { format: "influxdb_v1" },
    format: "influxdb_v1",
    contentType: JSON_CT,
    body: '{"results":[{"statement_id":0,"series":[{"name":"","columns":["host","cpu","ts"],' +
      '"values":[["host1",66.6,0],["host, \\"name\\"",1024.0,1716668197217],[null,null,null]]}]}],' +
      '"execution_time_ms":7}',
  },
  {
    name: "influxdb_v1 epoch=s floors ms timestamps",
    outputs: [demo],
    opts: { format: "influxdb_v1", epoch: "s" },
    format: "influxdb_v1",
    contentType: JSON_CT,
    body: '{"results":[{"statement_id":0,"series":[{"name":"","columns":["host","cpu","ts"],' +
      '"values":[["host1",66.6,0],["host, \\"name\\"",1024.0,1716668197],[null,null,null]]}]}],' +
      '"execution_time_ms":7}',
  },
  {
    name: "influxdb_v1 epoch=NS multiplies past 2^53 exactly",
    outputs: [demo],
    opts: { format: "influxdb_v1", epoch: "NS" },
    format: "influxdb_v1",
    contentType: JSON_CT,
    body: '{"results":[{"statement_id":0,"series":[{"name":"","columns":["host","cpu","ts"],' +
      '"values":[["host1",66.6,0],["host, \\"name\\"",1024.0,1716668197217000000],[null,null,null]]}]}],' +
      '"execution_time_ms":7}',
  },
  {
    name: "influxdb_v1 epoch=µ converts each Timestamp column from its own unit, not Date or Int64",
    outputs: [{
      kind: "records",
      columns: [
        { name: "s", data_type: "TimestampSecond" },
        { name: "ns", data_type: "TimestampNanosecond" },
        { name: "d", data_type: "Date" },
        { name: "i", data_type: "Int64" },
      ],
      rows: [[2, 1716668197217999999n, 3, 4], [null, -1, null, null]],
    }],
    opts: { format: "influxdb_v1", epoch: "\u00b5" },
    format: "influxdb_v1",
    contentType: JSON_CT,
    body: '{"results":[{"statement_id":0,"series":[{"name":"","columns":["s","ns","d","i"],' +
      '"values":[[2000000,1716668197217999,3,4],[null,-1,null,null]]}]}],"execution_time_ms":7}',
  },
  {
    name: "influxdb_v1 with no statements",
    outputs: [],
    opts: { format: "influxdb_v1" },
    format: "influxdb_v1",
    contentType: JSON_CT,
    body: '{"results":[],"execution_time_ms":7}',
  },
  // csv family
  {
    name: "csv quotes minimally with CRLF, null and NaN empty",
    outputs: [demo],
    opts: { format: "csv" },
    format: "csv",
    contentType: CSV_CT,
    body: 'host1,66.6,0\r\n"host, ""name""",1024.0,1716668197217\r\n,,\r\n',
  },
  {
    name: "csvWithNames adds the header row",
    outputs: [demo],
    opts: { format: "csvWithNames" },
    format: "csv",
    contentType: CSV_CT,
    body: 'host,cpu,ts\r\nhost1,66.6,0\r\n"host, ""name""",1024.0,1716668197217\r\n,,\r\n',
  },
  {
    name: "csvwithnamesandtypes adds names and types, limit applies",
    outputs: [demo],
    opts: { format: "CSVWITHNAMESANDTYPES", limit: 1 },
    format: "csv",
    contentType: CSV_CT,
    body: "host,cpu,ts\r\nString,Float64,TimestampMillisecond\r\nhost1,66.6,0\r\n",
  },
  {
    name: "csv binary, json, bool, newline in string, empty string",
    outputs: [odd],
    opts: { format: "csv" },
    format: "csv",
    contentType: CSV_CT,
    body: '"line\nbreak","[1,2]","{""a"":[1,2],""b"":2}",true,9007199254740993\r\n,[],plain,false,-1\r\n',
  },
  {
    name: "csv single empty field is written as two quotes",
    outputs: [{
      kind: "records",
      columns: [{ name: "s", data_type: "String" }],
      rows: [[""], [null], ["x"]],
    }],
    opts: { format: "csv" },
    format: "csv",
    contentType: CSV_CT,
    body: '""\r\n""\r\nx\r\n',
  },
  {
    name: "csv affected rows",
    outputs: [inserted],
    opts: { format: "csv" },
    format: "csv",
    contentType: CSV_CT,
    body: "2\n",
  },
  {
    name: "csv empty set with names",
    outputs: [empty],
    opts: { format: "csvwithnames" },
    format: "csv",
    contentType: CSV_CT,
    body: "number\r\n",
  },
  {
    name: "csv without statements is empty",
    outputs: [],
    opts: { format: "csv" },
    format: "csv",
    contentType: CSV_CT,
    body: "",
  },
  // table
  {
    name: "table of one column",
    outputs: [{
      kind: "records",
      columns: [{ name: "sum(numbers.uint32s)", data_type: "UInt64" }],
      rows: [[4950]],
    }],
    opts: { format: "table" },
    format: "table",
    contentType: TEXT_CT,
    body: "┌─sum(numbers.uint32s)─┐\n│ 4950                 │\n└──────────────────────┘\n",
  },
  {
    name: "table with quoted strings, floats and nulls",
    outputs: [demo],
    opts: { format: "Table" },
    format: "table",
    contentType: TEXT_CT,
    body: "┌─host─────────────┬─cpu────┬─ts────────────┐\n" +
      '│ "host1"          │ 66.6   │ 0             │\n' +
      '│ "host, \\"name\\"" │ 1024.0 │ 1716668197217 │\n' +
      "│ null             │ null   │ null          │\n" +
      "└──────────────────┴────────┴───────────────┘\n",
  },
  {
    name: "table widths count UTF-8 bytes, padding counts chars",
    outputs: [{ kind: "records", columns: [{ name: "名", data_type: "String" }], rows: [["é"]] }],
    opts: { format: "table", limit: 5 },
    format: "table",
    contentType: TEXT_CT,
    // "名" is 3 bytes and 1 char; the cell `"é"` is 4 bytes and 3 chars: width 4.
    body: '┌─名────┐\n│ "é"  │\n└──────┘\n',
  },
  {
    name: "table limit and empty set",
    outputs: [numbers],
    opts: { format: "table", limit: 0 },
    format: "table",
    contentType: TEXT_CT,
    body: "┌─number─┐\n└────────┘\n",
  },
  {
    name: "table affected rows",
    outputs: [inserted],
    opts: { format: "table" },
    format: "table",
    contentType: TEXT_CT,
    body: "2\n",
  },
  // json
  {
    name: "json rows as objects in column order",
    outputs: [demo],
    opts: { format: "json" },
    format: "json",
    contentType: JSON_CT,
    body:
      '{"data":[{"host":"host1","cpu":66.6,"ts":0},{"host":"host, \\"name\\"","cpu":1024.0,"ts":1716668197217},' +
      '{"host":null,"cpu":null,"ts":null}],"execution_time_ms":7}',
  },
  {
    name: "json repeated column name keeps first position, last value; limit applies",
    outputs: [{
      kind: "records",
      columns: [{ name: "a", data_type: "Int64" }, { name: "b", data_type: "Int64" }, {
        name: "a",
        data_type: "Float64",
      }],
      rows: [[1, 2, 3], [4, 5, 6]],
    }],
    opts: { format: "json", limit: 1 },
    format: "json",
    contentType: JSON_CT,
    body: '{"data":[{"a":3.0,"b":2}],"execution_time_ms":7}',
  },
  {
    name: "json empty set",
    outputs: [empty],
    opts: { format: "json" },
    format: "json",
    contentType: JSON_CT,
    body: '{"data":[],"execution_time_ms":7}',
  },
  {
    name: "json affected rows",
    outputs: [inserted],
    opts: { format: "json" },
    format: "json",
    contentType: JSON_CT,
    body: '{"data":[],"affected_rows":2,"execution_time_ms":7}',
  },
  // null
  {
    name: "null counts rows, ignores limit",
    outputs: [numbers],
    opts: { format: "null", limit: 1 },
    format: "null",
    contentType: TEXT_CT,
    body: "3 rows in set.\nElapsed: 0.007 sec.\n",
  },
  {
    name: "null affected rows",
    outputs: [inserted],
    opts: { format: "null", executionTimeMs: 1234.9 },
    format: "null",
    contentType: TEXT_CT,
    body: "2 rows affected.\nElapsed: 1.234 sec.\n",
  },
  {
    name: "null with no statement",
    outputs: [],
    opts: { format: "null" },
    format: "null",
    contentType: TEXT_CT,
    body: "0 rows in set.\nElapsed: 0.007 sec.\n",
  },
  // arrow without records
  {
    name: "arrow affected rows is an empty body",
    outputs: [inserted],
    opts: { format: "arrow" },
    format: "arrow",
    contentType: "application/arrow",
    body: "",
  },
];

for (const c of CASES) {
  Deno.test(`format: ${c.name}`, async () => {
    const opts: SqlFormatOptions = { format: "greptimedb_v1", executionTimeMs: 7, ...c.opts };
    const res = await renderSqlOutputs(c.outputs, opts);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), c.contentType);
    assert.equal(res.headers.get("x-greptime-format"), c.format);
    assert.equal(res.headers.get("x-greptime-execution-time"), String(Math.floor(opts.executionTimeMs)));
    const body = await res.text();
    assert.equal(body, c.body);
    if (c.contentType === JSON_CT && body !== "") JSON.parse(body);
  });
}

const MULTI_REJECTED: [string, string][] = [
  ["csv", "csv"],
  ["csvwithnames", "csv"],
  ["csvWithNamesAndTypes", "csv"],
  ["table", "table"],
  ["json", "json"],
  ["null", "null"],
  ["arrow", "arrow"],
];

for (const [format, name] of MULTI_REJECTED) {
  Deno.test(`format: ${format} rejects several statements with a 400`, () => {
    assert.throws(
      () => renderSqlOutputs([numbers, inserted], { format, executionTimeMs: 1 }),
      (e: unknown) => {
        assert.ok(e instanceof PetrelError);
        assert.equal(e.code, 1004);
        assert.equal(httpStatusOf(e), 400);
        assert.equal(e.message, `cannot output multi-statements result in ${name} format`);
        return true;
      },
    );
  });
}

Deno.test("format: multi-statement formats accept several statements", async () => {
  for (const format of ["greptimedb_v1", "influxdb_v1", "unknown"]) {
    const res = await renderSqlOutputs([numbers, inserted], { format, executionTimeMs: 1 });
    assert.equal(res.status, 200);
    const body = await res.json();
    // One result per statement, in order: the SELECT's rows, then the INSERT's.
    if (format === "influxdb_v1") {
      assert.deepEqual(body.results, [
        { statement_id: 0, series: [{ name: "", columns: ["number"], values: [[0], [1], [2]] }] },
        { statement_id: 1, series: [] },
      ]);
    } else {
      assert.deepEqual(body.output.map((o: Record<string, unknown>) => Object.keys(o)), [["records"], [
        "affectedrows",
      ]]);
      assert.deepEqual(
        [body.output[0].records.rows, body.output[1].affectedrows],
        [[[0], [1], [2]], 2],
        format,
      );
    }
  }
});

Deno.test("format: execution time header is whole non-negative ms", async () => {
  for (const [ms, want] of [[0, "0"], [3.99, "3"], [-5, "0"], [NaN, "0"]] as const) {
    const res = await renderSqlOutputs([inserted], { format: "json", executionTimeMs: ms });
    assert.equal(res.headers.get("x-greptime-execution-time"), want);
    assert.equal(await res.text(), `{"data":[],"affected_rows":2,"execution_time_ms":${want}}`);
  }
});
