/**
 * DataFusion's arrays over `/v1/sql`: literals (`[1, 2]`, `ARRAY[…]`, `make_array`), `array_agg`,
 * the array functions, indexing and slicing, and `unnest` in a select list and in FROM. Values are
 * typed `List<…>` as GreptimeDB names them and shown as JSON arrays whose elements follow that type.
 */
import { runOnServer, type TypedCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE m (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, v DOUBLE, n BIGINT)",
  "INSERT INTO m VALUES (1000, 'a', 10.5, 1), (2000, 'b', 20.5, 2), (3000, 'a', 30, 3)",
  "CREATE TABLE d (ts TIMESTAMP TIME INDEX, p DECIMAL(10, 2))",
  "INSERT INTO d VALUES (1000, 1.5), (2000, 2.25)",
];

const LITERALS: TypedCase[] = [
  {
    sql: "SELECT [1, 2, 3]",
    columns: [["make_array(Int64(1),Int64(2),Int64(3))", "List<Int64>"]],
    rows: [[[1, 2, 3]]],
  },
  {
    sql: "SELECT make_array(1, 2.5) AS f, ARRAY['a', 'b'] AS s, [true, false] AS b, [1, NULL] AS n, [] AS e",
    columns: [["f", "List<Float64>"], ["s", "List<String>"], ["b", "List<Boolean>"], ["n", "List<Int64>"], [
      "e",
      "List<Null>",
    ]],
    rows: [[[1, 2.5], ["a", "b"], [true, false], [1, null], []]],
  },
  {
    sql:
      "SELECT [[1, 2], [3]] AS nested, flatten([[1, 2], [3]]) AS flat, flatten([[[1], [2]], [[3]]]) AS deep",
    columns: [["nested", "List<List<Int64>>"], ["flat", "List<Int64>"], ["deep", "List<Int64>"]],
    rows: [[[[1, 2], [3]], [1, 2, 3], [1, 2, 3]]],
  },
];

const FUNCTIONS: TypedCase[] = [
  {
    sql: "SELECT array_length([1, 2, 3]) AS l, cardinality([[1, 2], [3]]) AS c, cardinality([]) AS z",
    columns: [["l", "UInt64"], ["c", "UInt64"], ["z", "UInt64"]],
    rows: [[3, 3, 0]],
  },
  {
    sql: "SELECT [10, 20, 30][2] AS a, [10, 20, 30][-1] AS b, [10, 20, 30][0] AS c, [10, 20, 30][4] AS d, " +
      "array_element(['x', 'y'], 1) AS e",
    columns: [["a", "Int64"], ["b", "Int64"], ["c", "Int64"], ["d", "Int64"], ["e", "String"]],
    rows: [[20, 30, null, null, "x"]],
  },
  {
    sql: "SELECT [1, 2, 3][2]",
    columns: [["make_array(Int64(1),Int64(2),Int64(3))[Int64(2)]", "Int64"]],
    rows: [[2]],
  },
  // a bracketed array indexed: the brackets are the operand, not the word before them
  {
    sql: "SELECT ([1, 2, 3])[1] AS a, (make_array(1, 2))[2] AS b, ([1, 2])[5] AS c",
    columns: [["a", "Int64"], ["b", "Int64"], ["c", "Int64"]],
    rows: [[1, 2, null]],
  },
  {
    sql: "SELECT n FROM m WHERE ([1, 2])[n] = 2",
    columns: [["n", "Int64"]],
    rows: [[2]],
  },
  // a derived table without an alias: named by the text as written, not by the rewrite into a call
  {
    sql: "SELECT a[1], a[2:3] FROM (SELECT [1, 2, 3] AS a)",
    columns: [["a[1]", "Int64"], ["a[2:3]", "List<Int64>"]],
    rows: [[1, [2, 3]]],
  },
  {
    sql: "SELECT [1, 2, 3, 4, 5][2:4] AS a, array_slice([1, 2, 3, 4, 5], -2, 5) AS b, [1, 2, 3][5:9] AS c",
    columns: [["a", "List<Int64>"], ["b", "List<Int64>"], ["c", "List<Int64>"]],
    rows: [[[2, 3, 4], [4, 5], []]],
  },
  {
    sql: "SELECT array_has(['a', 'b'], 'b') AS h, array_contains([1, 2], 3) AS c, " +
      "array_has_all([1, 2, 3], [1, 3]) AS al, array_has_any([1, 2], [5, 2]) AS an, array_position([5, 6, 7], 7) AS p",
    columns: [["h", "Boolean"], ["c", "Boolean"], ["al", "Boolean"], ["an", "Boolean"], ["p", "UInt64"]],
    rows: [[true, false, true, true, 3]],
  },
  {
    sql: "SELECT [1, 2] || [3], [1] || 2 AS a, 0 || [1] AS p, 'a' || 'b' AS s",
    columns: [
      ["make_array(Int64(1),Int64(2)) || make_array(Int64(3))", "List<Int64>"],
      ["a", "List<Int64>"],
      ["p", "List<Int64>"],
      ["s", "String"],
    ],
    rows: [[[1, 2, 3], [1, 2], [0, 1], "ab"]],
  },
  {
    sql: "SELECT arrow_typeof([1, 2]) AS t",
    columns: [["t", "String"]],
    rows: [[
      'List(Field { name: "item", data_type: Int64, nullable: true, dict_id: 0, dict_is_ordered: false, metadata: {} })',
    ]],
  },
  {
    sql: "SELECT array_append([1, 2], 3) AS a, array_prepend(0, [1]) AS p, array_concat([1], [2, 3]) AS c, " +
      "array_cat(['a'], ['b']) AS s",
    columns: [["a", "List<Int64>"], ["p", "List<Int64>"], ["c", "List<Int64>"], ["s", "List<String>"]],
    rows: [[[1, 2, 3], [0, 1], [1, 2, 3], ["a", "b"]]],
  },
  {
    sql:
      "SELECT array_sort([3, NULL, 1, 2]) AS s, array_sort([3, 1, NULL], 'DESC') AS d, array_distinct([3, 1, 3]) AS u, " +
      "array_remove([1, 2, 1], 1) AS r",
    columns: [["s", "List<Int64>"], ["d", "List<Int64>"], ["u", "List<Int64>"], ["r", "List<Int64>"]],
    rows: [[[null, 1, 2, 3], [null, 3, 1], [1, 3], [2, 1]]],
  },
  {
    sql: "SELECT array_to_string([1, 2, 3], '-') AS t, string_to_array('a,b,c', ',') AS a, " +
      "string_to_array('a-b-c', '-')[2] AS e",
    columns: [["t", "String"], ["a", "List<String>"], ["e", "String"]],
    rows: [["1-2-3", ["a", "b", "c"], "b"]],
  },
  {
    sql: "SELECT array_max([3, 9, 1]) AS mx, array_min([2.5, 0.5]) AS mn",
    columns: [["mx", "Int64"], ["mn", "Float64"]],
    rows: [[9, 0.5]],
  },
  {
    sql: "SELECT v FROM m WHERE array_has([10.5, 30], v) ORDER BY v",
    columns: [["v", "Float64"]],
    rows: [[10.5], [30]],
  },
];

const AGGREGATES: TypedCase[] = [
  {
    sql: "SELECT array_agg(v ORDER BY v DESC) FROM m",
    columns: [["array_agg(m.v) ORDER BY [m.v DESC NULLS FIRST]", "List<Float64>"]],
    rows: [[[30, 20.5, 10.5]]],
  },
  {
    sql: "SELECT array_agg(DISTINCT host) FROM m",
    columns: [["array_agg(DISTINCT m.host)", "List<String>"]],
    rows: [[["a", "b"]]],
  },
  {
    sql:
      "SELECT host, array_agg(n ORDER BY ts) AS ns, array_length(array_agg(n)) AS l FROM m GROUP BY host " +
      "ORDER BY host",
    columns: [["host", "String"], ["ns", "List<Int64>"], ["l", "UInt64"]],
    rows: [["a", [1, 3], 2], ["b", [2], 1]],
  },
  {
    sql: "SELECT array_agg(v) FILTER (WHERE host = 'a') AS a, [1, 2][1]::DOUBLE AS d FROM m",
    columns: [["a", "List<Float64>"], ["d", "Float64"]],
    rows: [[[10.5, 30], 1]],
  },
  // decimal and timestamp elements show as their columns do
  {
    sql: "SELECT array_agg(p ORDER BY ts) AS p, array_agg(ts ORDER BY ts) AS t FROM d",
    columns: [["p", "List<Decimal(10, 2)>"], ["t", "List<TimestampMillisecond>"]],
    rows: [[["1.50", "2.25"], [1000, 2000]]],
  },
  {
    sql: "SELECT array_agg(v) AS a FROM m WHERE v > 100",
    columns: [["a", "List<Float64>"]],
    rows: [[null]],
  },
  {
    sql:
      "SELECT n, array_agg(n) OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS w FROM m ORDER BY ts",
    columns: [["n", "Int64"], ["w", "List<Int64>"]],
    rows: [[1, [1]], [2, [1, 2]], [3, [2, 3]]],
  },
  {
    sql: "SELECT (SELECT array_agg(v) FROM m WHERE host = 'b') AS x",
    columns: [["x", "List<Float64>"]],
    rows: [[[20.5]]],
  },
  {
    sql: "WITH c AS (SELECT [1, 2] AS arr) SELECT arr, arr[2] AS second FROM c",
    columns: [["arr", "List<Int64>"], ["second", "Int64"]],
    rows: [[[1, 2], 2]],
  },
];

const UNNEST: TypedCase[] = [
  {
    sql: "SELECT unnest([1, 2, 3])",
    columns: [["UNNEST(make_array(Int64(1),Int64(2),Int64(3)))", "Int64"]],
    rows: [[1], [2], [3]],
  },
  {
    sql: "SELECT unnest([1.5, 2]) AS x",
    columns: [["x", "Float64"]],
    rows: [[1.5], [2]],
  },
  {
    sql: "SELECT unnest(string_to_array('a,b', ','))",
    columns: [['UNNEST(string_to_array(Utf8("a,b"),Utf8(",")))', "String"]],
    rows: [["a"], ["b"]],
  },
  {
    sql: "SELECT * FROM unnest(['a', 'b'])",
    columns: [['UNNEST(make_array(Utf8("a"),Utf8("b")))', "String"]],
    rows: [["a"], ["b"]],
  },
  {
    sql: "SELECT host, unnest([1, 2]) AS k FROM m WHERE host = 'b' ORDER BY k",
    columns: [["host", "String"], ["k", "Int64"]],
    rows: [["b", 1], ["b", 2]],
  },
  // a derived table's arrays; an empty array makes no row
  {
    sql: "SELECT unnest(arr) AS x FROM (SELECT [7, 8] AS arr UNION ALL SELECT [] AS arr) ORDER BY x",
    columns: [["x", "Int64"]],
    rows: [[7], [8]],
  },
];

const ERRORS: TypedCase[] = [
  { sql: "SELECT array_length(5)", code: 3000, error: /array_length expects an array/ },
  { sql: "SELECT array_element([1, 2], 'x')", code: 3000, error: /integer position/ },
  { sql: "SELECT array_sort([3, 1], 'UP')", code: 3000, error: /array_sort/ },
  { sql: "SELECT [1, 2", code: 2000, error: /Expected: \]/ },
  { sql: "SELECT unnest([1]), unnest([2])", code: 1001, error: /one array per SELECT/ },
  { sql: "SELECT unnest(array_agg(v)) FROM m", code: 1001, error: /aggregate in a subquery/ },
  { sql: "SELECT [1] || [2] || [3]", code: 1001, error: /array_concat/ },
  { sql: "SELECT v FROM m WHERE unnest([1]) = 1", code: 1001, error: /select list or as a FROM item/ },
  { sql: "SELECT unnest(unnest([[1]]))", code: 1001, error: /select list or as a FROM item/ },
];

Deno.test("arrays: literals, functions, aggregates, unnest and errors", async (t) => {
  await runOnServer(t, SETUP, {
    kind: "typed",
    cases: [...LITERALS, ...FUNCTIONS, ...AGGREGATES, ...UNNEST, ...ERRORS],
  });
});

Deno.test("arrays: element types in the JSON text and in csv", async (t) => {
  await runOnServer(t, SETUP, {
    kind: "cases",
    cases: [
      {
        name: "Float64 elements print as floats (csv writes the JSON text the JSON formats show)",
        sql: "SELECT array_agg(v ORDER BY v DESC) AS a FROM m",
        format: "csv",
        body: '"[30.0,20.5,10.5]"\r\n',
      },
      {
        sql: "SELECT [1, 2.5] AS f, ['a', 'b'] AS s, [true] AS b, 'x' AS t",
        format: "csvWithNamesAndTypes",
        body:
          'f,s,b,t\r\nList<Float64>,List<String>,List<Boolean>,String\r\n"[1.0,2.5]","[""a"",""b""]",[true],x\r\n',
      },
    ],
  });
});
