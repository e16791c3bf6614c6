/**
 * GreptimeDB's geo functions over `/v1/sql`: geohash, H3 (cross-checked with h3-js itself and the
 * H3 docs' own examples) and WKT points, typed as GreptimeDB types them, H3 cells exact past 2^53
 * both in results and when passed back in, NULL in → NULL out, and bad arguments as 400s naming what
 * is wrong.
 */
import assert from "node:assert/strict";
import * as h3 from "h3-js";
import { startTestServer } from "../helpers/server.ts";
import { runCases, type SqlCase, sqlExactRows, sqlOk } from "../http/fixtures/sql_client.ts";

/** The H3 docs' example: (37.3615593, -122.0553238) at resolution 7. */
const CELL7 = "87283472bffffff";
/** The H3 docs' other example, at resolution 9 (617700169958293503). */
const CELL9 = "8928308280fffff";
const big = (hex: string): bigint => BigInt("0x" + hex);

const SETUP = [
  "CREATE TABLE places (ts TIMESTAMP TIME INDEX, name STRING PRIMARY KEY, lat DOUBLE, lng DOUBLE, cell BIGINT UNSIGNED)",
  `INSERT INTO places VALUES (1, 'sf', 37.76938, -122.3889, ${
    big(CELL9)
  }), (2, 'dc', 38.8730, -77.0074, NULL), ` +
  "(3, 'none', NULL, NULL, NULL)",
];

const CASES: SqlCase[] = [
  {
    name: "geohash: GreptimeDB docs' value, String",
    sql: "SELECT geohash(37.76938, -122.3889, 9) AS g, geohash(37.76938, -122.3889, 1) AS one, " +
      "geohash(37.76938, -122.3889, 12) AS twelve",
    schema: [["g", "String"], ["one", "String"], ["twelve", "String"]],
    rows: [["9q8yygxne", "9", "9q8yygxneftx"]],
  },
  {
    name: "geohash_neighbours: List<String>, n, nw, w, sw, s, se, e, ne",
    sql: "SELECT geohash_neighbours(37.76938, -122.3889, 11) AS n",
    schema: [["n", "List<String>"]],
    rows: [[[
      "9q8yygxnefv",
      "9q8yygxnefu",
      "9q8yygxnefs",
      "9q8yygxnefk",
      "9q8yygxnefm",
      "9q8yygxnefq",
      "9q8yygxnefw",
      "9q8yygxnefy",
    ]]],
  },
  {
    name: "geohash_neighbours wrap across the antimeridian",
    sql: "SELECT geohash_neighbours(0.1, 179.9, 1) AS n",
    rows: [[["z", "y", "w", "q", "r", "2", "8", "b"]]],
  },
  {
    name: "geohash of table columns; NULL in → NULL out",
    sql: "SELECT name, geohash(lat, lng, 5) AS g FROM places ORDER BY ts",
    rows: [["sf", "9q8yy"], ["dc", "dqcjp"], ["none", null]],
  },
  {
    name: "h3 from (lat, lng): UInt64 and String",
    sql: "SELECT h3_latlng_to_cell_string(37.3615593, -122.0553238, 7) AS s, " +
      "h3_cell_to_string(h3_latlng_to_cell(37.3615593, -122.0553238, 7)) AS back",
    schema: [["s", "String"], ["back", "String"]],
    rows: [[CELL7, CELL7]],
  },
  {
    name: "cell facts: resolution and base UInt8, pentagon Boolean",
    sql: `SELECT h3_cell_resolution('${CELL7}') AS r, h3_cell_base(${big(CELL7)}) AS b, ` +
      `h3_cell_is_pentagon('${CELL7}') AS p, h3_cell_is_pentagon('8009fffffffffff') AS pent`,
    schema: [["r", "UInt8"], ["b", "UInt8"], ["p", "Boolean"], ["pent", "Boolean"]],
    rows: [[7, h3.getBaseCellNumber(CELL7), false, true]],
  },
  {
    name: "h3_cell_center_latlng: List<Float64> [lat, lng]",
    sql: `SELECT h3_cell_center_latlng('${CELL9}') AS c`,
    schema: [["c", "List<Float64>"]],
    rows: [[h3.cellToLatLng(CELL9)]],
  },
  {
    name: "h3_cell_to_children_size, h3_grid_distance (Int32), h3_cells_contains",
    sql: `SELECT h3_cell_to_children_size('${CELL7}', 9) AS n, ` +
      `h3_grid_distance('${CELL7}', h3_grid_disk('${CELL7}', 2)[19]) AS d, ` +
      `h3_cells_contains('${h3.cellToParent(CELL7, 5)},85283447fffffff', '${CELL7}') AS inside, ` +
      `h3_cells_contains(h3_grid_disk('${CELL7}', 1), h3_cell_parent('${CELL7}', 5)) AS coarser, ` +
      `h3_cells_contains(h3_cell_to_children('${h3.cellToParent(CELL9, 6)}', 7), '${CELL9}') AS listed`,
    schema: [["n", "UInt64"], ["d", "Int32"], ["inside", "Boolean"], ["coarser", "Boolean"], [
      "listed",
      "Boolean",
    ]],
    rows: [[49, 2, true, false, true]],
  },
  {
    name: "h3 distances between cell centres: Float64 km and degrees",
    sql: `SELECT round(h3_distance_sphere_km('${CELL7}', '${CELL9}'), 6) AS km, ` +
      `round(h3_distance_degree('${CELL7}', '${CELL9}'), 9) AS deg`,
    schema: [["km", "Float64"], ["deg", "Float64"]],
    rows: [[
      Math.round(h3.greatCircleDistance(h3.cellToLatLng(CELL7), h3.cellToLatLng(CELL9), "km") * 1e6) / 1e6,
      Math.round(
        h3.greatCircleDistance(h3.cellToLatLng(CELL7), h3.cellToLatLng(CELL9), "rads") * 180 / Math.PI * 1e9,
      ) /
      1e9,
    ]],
  },
  {
    name: "NULL cells and resolutions give NULL",
    sql:
      "SELECT h3_cell_resolution(NULL) AS r, h3_grid_disk(NULL, 1) AS d, h3_cell_parent(cell, NULL) AS p, " +
      "h3_cell_to_string(cell) AS s FROM places WHERE name = 'dc'",
    schema: [["r", "UInt8"], ["d", "List<UInt64>"], ["p", "UInt64"], ["s", "String"]],
    rows: [[null, null, null, null]],
  },
  {
    name: "WKT points and their distance in metres (haversine on the mean Earth radius)",
    sql: "SELECT wkt_point_from_latlng(37.76938, -122.3889) AS p, " +
      "round(st_distance_sphere_m(wkt_point_from_latlng(37.76938, -122.3889), 'POINT(-77.0074 38.873)')) AS m, " +
      "st_distance('POINT(0 0)', 'POINT(3 4)') AS deg",
    schema: [["p", "String"], ["m", "Float64"], ["deg", "Float64"]],
    rows: [["POINT(-122.3889 37.76938)", 3919483, 5]],
  },
  // errors
  {
    sql: "SELECT geohash(37.7, -122.3)",
    error: { code: 3000, message: "geohash expects 3 arguments, got 2" },
  },
  {
    sql: "SELECT geohash(37.7, -122.3, 13)",
    error: { code: 3000, message: "geohash: resolution must be between 1 and 12, got 13" },
  },
  {
    sql: "SELECT geohash(37.7, -122.3, 0)",
    error: { message: "resolution must be between 1 and 12, got 0" },
  },
  { sql: "SELECT geohash(37.7, -122.3, 1.5)", error: { message: "geohash expects an integer resolution" } },
  {
    sql: "SELECT geohash(91, 0, 5)",
    error: { message: "geohash: latitude must be between -90 and 90, got 91" },
  },
  {
    sql: "SELECT geohash_neighbours(0, -181, 5)",
    error: { message: "geohash_neighbours: longitude must be between -180 and 180, got -181" },
  },
  {
    sql: "SELECT geohash('north', 0, 5)",
    error: { message: "geohash expects a numeric latitude, got 'north'" },
  },
  {
    sql: "SELECT h3_latlng_to_cell(37.7, -122.3, 16)",
    error: { code: 3000, message: "h3_latlng_to_cell: resolution must be between 0 and 15, got 16" },
  },
  {
    sql: "SELECT h3_cell_resolution('zzz')",
    error: { message: "h3_cell_resolution: invalid H3 cell 'zzz'" },
  },
  { sql: "SELECT h3_cell_base(12345)", error: { message: "h3_cell_base: invalid H3 cell 12345" } },
  { sql: "SELECT h3_cell_base(-1)", error: { message: "h3_cell_base: invalid H3 cell -1" } },
  {
    sql: `SELECT h3_string_to_cell(${big(CELL7)})`,
    error: { message: "h3_string_to_cell expects a hex cell text" },
  },
  {
    sql: `SELECT h3_cell_parent('${CELL7}', 8)`,
    error: { message: "h3_cell_parent: parent resolution must be between 0 and 7, got 8" },
  },
  {
    sql: `SELECT h3_cell_to_children('${CELL7}', 3)`,
    error: { message: "h3_cell_to_children: child resolution must be between 7 and 15, got 3" },
  },
  {
    name: "a child list too long to build is refused, not built",
    sql: "SELECT h3_cell_to_children('8029fffffffffff', 12)",
    error: { message: "h3_cell_to_children: the result would hold more than 1000000 cells" },
  },
  {
    sql: `SELECT h3_grid_disk('${CELL7}', -1)`,
    error: { message: /^Failed to execute query: h3_grid_disk: k must be between 0 and/ },
  },
  { sql: `SELECT h3_grid_disk('${CELL7}')`, error: { message: "h3_grid_disk expects 2 arguments, got 1" } },
  {
    sql: `SELECT h3_child_pos_to_cell(49, '${CELL7}', 9)`,
    error: { message: "h3_child_pos_to_cell: child position must be between 0 and 48, got 49" },
  },
  {
    sql: `SELECT h3_cells_contains('${CELL7},nope', '${CELL7}')`,
    error: { message: "h3_cells_contains: invalid H3 cell 'nope'" },
  },
  {
    sql: "SELECT st_distance_sphere_m('LINESTRING(0 0, 1 1)', 'POINT(0 0)')",
    error: { message: "st_distance_sphere_m expects a WKT point" },
  },
];

const exactRows = sqlExactRows;

Deno.test("geo functions over /v1/sql", async (t) => {
  const server = await startTestServer();
  try {
    for (const sql of SETUP) await sqlOk(server.url, sql);
    await runCases(t, server.url, CASES);
    const url = server.url;

    await t.step("H3 cells are exact UInt64s in results", async () => {
      const rows = await exactRows(
        url,
        "SELECT h3_latlng_to_cell(37.3615593, -122.0553238, 7) AS c, " +
          `h3_string_to_cell('${CELL9}') AS s, h3_cell_parent('${CELL9}', 5) AS p, ` +
          `h3_child_pos_to_cell(h3_cell_to_child_pos('${CELL9}', 5), h3_cell_parent('${CELL9}', 5), 9) AS round_trip`,
      );
      assert.deepEqual(rows, [[big(CELL7), big(CELL9), big(h3.cellToParent(CELL9, 5)), big(CELL9)]]);
    });

    await t.step("a UInt64 cell column passes back in exactly", async () => {
      const rows = await exactRows(
        url,
        "SELECT cell, h3_cell_to_string(cell) AS s, h3_cell_resolution(cell) AS r, " +
          "h3_latlng_to_cell(lat, lng, 9) AS here, h3_cell_parent(cell, 9) = cell AS same FROM places WHERE name = 'sf'",
      );
      assert.deepEqual(rows, [[big(CELL9), CELL9, 9, big(h3.latLngToCell(37.76938, -122.3889, 9)), true]]);
    });

    await t.step("List<UInt64> results: disks, rings, children, paths as h3-js computes them", async () => {
      const path = h3.gridPathCells(CELL7, h3.gridDisk(CELL7, 3).at(-1)!);
      const rows = await exactRows(
        url,
        `SELECT h3_grid_disk('${CELL7}', 2) AS d, h3_grid_disk_distances(${big(CELL7)}, 2) AS dd, ` +
          `h3_cell_to_children('${CELL7}', 8) AS k, h3_grid_path_cells('${CELL7}', '${path.at(-1)}') AS p`,
      );
      assert.deepEqual(rows, [[
        h3.gridDisk(CELL7, 2).map(big),
        h3.gridDiskDistances(CELL7, 2).flat().map(big),
        h3.cellToChildren(CELL7, 8).map(big),
        path.map(big),
      ]]);
    });

    await t.step("list results are typed List<UInt64> and compose with array functions", async () => {
      const out = await sqlOk(
        url,
        `SELECT h3_grid_disk('${CELL7}', 2) AS d, array_length(h3_grid_disk('${CELL7}', 2)) AS n`,
      );
      const records =
        (out[0] as { records: { schema: { column_schemas: { data_type: string }[] }; rows: unknown[][] } })
          .records;
      assert.deepEqual(records.schema.column_schemas.map((c) => c.data_type), ["List<UInt64>", "UInt64"]);
      assert.equal(records.rows[0][1], 19);
    });

    await t.step("unnest of a cell list gives UInt64 rows, exact", async () => {
      const out = await sqlOk(url, `SELECT unnest(h3_grid_disk('${CELL7}', 1)) AS c`);
      const records =
        (out[0] as { records: { schema: { column_schemas: { data_type: string }[] } } }).records;
      assert.deepEqual(records.schema.column_schemas.map((c) => c.data_type), ["UInt64"]);
      const rows = await exactRows(url, `SELECT unnest(h3_grid_disk('${CELL7}', 1)) AS c`);
      assert.deepEqual(rows, h3.gridDisk(CELL7, 1).map((c) => [big(c)]));
    });

    await t.step("child position round trip over every child", async () => {
      const rows = await exactRows(
        url,
        `SELECT h3_cell_to_child_pos(h3_child_pos_to_cell(p, '${CELL7}', 8), 7) AS back ` +
          "FROM (SELECT 0 AS p UNION ALL SELECT 3 UNION ALL SELECT 6) AS t ORDER BY p",
      );
      assert.deepEqual(rows, [[0], [3], [6]]);
    });
  } finally {
    await server.stop();
  }
});
