/**
 * More of DataFusion's array functions over `/v1/sql`: array_union/intersect/except (each element once,
 * in order of first appearance), arrays_overlap, array_replace[_n|_all], array_pop_back/front,
 * array_resize, array_any_value, array_ndims, array_dims, array_positions and array_distance, with their
 * values, names and List types.
 */
import { startTestServer } from "../helpers/server.ts";
import { runTypedCases, type TypedCase } from "../http/fixtures/sql_client.ts";

const SETUP = [
  "CREATE TABLE m (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, n BIGINT)",
  "INSERT INTO m VALUES (1000, 'a', 1), (2000, 'b', 2)",
];

const LI = "List<Int64>";

const CASES: TypedCase[] = [
  {
    sql:
      "SELECT array_union([1, 2, 3, 4], [5, 6, 3, 4]) AS u, array_intersect([1, 2, 3, 4], [5, 6, 3, 4]) AS i, " +
      "array_except([1, 2, 3, 4, 1], [5, 6, 3, 4]) AS e, arrays_overlap([1, 2], [2]) AS o",
    columns: [["u", LI], ["i", LI], ["e", LI], ["o", "Boolean"]],
    rows: [[[1, 2, 3, 4, 5, 6], [3, 4], [1, 2], true]],
  },
  {
    sql: "SELECT array_union([1], [2])",
    columns: [["array_union(make_array(Int64(1)),make_array(Int64(2)))", LI]],
    rows: [[[1, 2]]],
  },
  {
    sql: "SELECT array_replace([1, 2, 1], 1, 9) AS a, array_replace_n([1, 2, 1, 1], 1, 9, 2) AS b, " +
      "array_replace_all([1, 2, 1], 1, 9) AS c, array_replace(make_array(n, n), n, 0) AS d FROM m ORDER BY ts",
    columns: [["a", LI], ["b", LI], ["c", LI], ["d", LI]],
    rows: [[[9, 2, 1], [9, 2, 9, 1], [9, 2, 9], [0, 1]], [[9, 2, 1], [9, 2, 9, 1], [9, 2, 9], [0, 2]]],
  },
  {
    sql:
      "SELECT array_pop_back([1, 2]) AS a, array_pop_front(['a', 'b']) AS b, array_resize([1, 2], 4, 0) AS c, " +
      "array_resize([1, 2, 3], 1) AS d, array_resize([1], 3) AS e",
    columns: [["a", LI], ["b", "List<String>"], ["c", LI], ["d", LI], ["e", LI]],
    rows: [[[1], ["b"], [1, 2, 0, 0], [1], [1, null, null]]],
  },
  {
    sql: "SELECT array_any_value([NULL, 2, 3]) AS a, array_ndims([[1, 2], [3]]) AS b, array_ndims([1]) AS c",
    columns: [["a", "Int64"], ["b", "UInt64"], ["c", "UInt64"]],
    rows: [[2, 2, 1]],
  },
  {
    sql: "SELECT array_dims([[1, 2, 3], [4, 5, 6]]) AS a, array_positions([1, 2, 1], 1) AS b, " +
      "array_positions([1], 5) AS c, array_distance([1.0, 2.0], [1.0, 4.0]) AS d",
    columns: [["a", "List<UInt64>"], ["b", "List<UInt64>"], ["c", "List<UInt64>"], ["d", "Float64"]],
    rows: [[[2, 3], [1, 3], [], 2]],
  },
  { sql: "SELECT array_distance([1, 2], [1])", code: 3000, error: /arrays of the same length/ },
  { sql: "SELECT array_union('x', [1])", code: 3000, error: /array_union expects an array argument/ },
];

Deno.test("DataFusion array set and edit functions over /v1/sql", async (t) => {
  const server = await startTestServer();
  try {
    await runTypedCases(t, server.url, CASES, SETUP);
  } finally {
    await server.stop();
  }
});
