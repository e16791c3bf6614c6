/**
 * `partitions`, `region_peers` and `region_statistics`: Petrel keeps each table in one place, so
 * every table is one partition (`p0`) in one region (`region_id = table_id << 32`, region number 0)
 * led by the one standalone peer. A metric-engine logical table lives in its physical table's region,
 * as in GreptimeDB; only physical and ordinary tables have region statistics.
 */
import type { DataType, Value } from "../common/rows.ts";
import type { Storage, TableDiskUsage, TableMeta } from "../storage/mod.ts";
import { isLogicalTable, isPhysicalTable, samplesTable } from "../storage/metric_layout.ts";
import { qualifiedName } from "../storage/table.ts";
import { greptimeTableId, type InfoTable, strings, userTables } from "./info_table.ts";
import { serverFacts } from "./info_server.ts";

/** The table whose region holds `t`'s rows (a logical table's physical table, else itself). */
function regionTable(storage: Storage, t: TableMeta): TableMeta {
  if (!isLogicalTable(t)) return t;
  return storage.getTable(t.db, t.options.on_physical_table) ?? t;
}

/** GreptimeDB's region id of a table's only region: the table id in the high 32 bits. */
export function regionId(t: TableMeta): number {
  return greptimeTableId(t) * 2 ** 32;
}

const U64 = (n: string): [string, DataType] => [n, "UInt64"];
const I64 = (n: string): [string, DataType] => [n, "Int64"];
const SECONDS = (n: string): [string, DataType] => [n, "TimestampSecond"];

const partitions: InfoTable = {
  columns: [
    ...strings("table_catalog", "table_schema", "table_name", "partition_name", "subpartition_name"),
    I64("partition_ordinal_position"),
    I64("subpartition_ordinal_position"),
    ...strings(
      "partition_method",
      "subpartition_method",
      "partition_expression",
      "subpartition_expression",
      "partition_description",
    ),
    ...["table_rows", "avg_row_length", "data_length", "max_data_length", "index_length", "data_free"].map(
      I64,
    ),
    SECONDS("create_time"),
    SECONDS("update_time"),
    SECONDS("check_time"),
    I64("checksum"),
    ...strings("partition_comment", "nodegroup", "tablespace_name"),
    U64("greptime_partition_id"),
  ],
  // GreptimeDB leaves the MySQL statistics of a partition empty
  rows: (storage) =>
    userTables(storage).map((t): Value[] => [
      "greptime",
      t.db,
      t.name,
      "p0",
      null,
      1,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      Math.floor(t.createdAt / 1000),
      null,
      null,
      null,
      null,
      null,
      null,
      regionId(regionTable(storage, t)),
    ]),
};

const regionPeers: InfoTable = {
  columns: [
    ...strings("table_catalog", "table_schema", "table_name"),
    U64("region_id"),
    U64("peer_id"),
    ...strings("peer_addr", "is_leader", "status"),
    I64("down_seconds"),
  ],
  rows: (storage) => {
    const addr = serverFacts(storage)?.addr ?? "";
    return userTables(storage).map((t): Value[] => [
      "greptime",
      t.db,
      t.name,
      regionId(regionTable(storage, t)),
      0,
      addr,
      "Yes",
      "ALIVE",
      null,
    ]);
  },
};

/** Rows of a table, counted (a scan: only for a query that reads counts or sizes). */
export function countRows(storage: Storage, t: TableMeta): number {
  const from = isPhysicalTable(t) ? samplesTable(t) : qualifiedName(t);
  const row = storage.database(t.db).conn.prepare(`SELECT count(*) AS n FROM ${from}`).get() as { n: number };
  return Number(row.n);
}

const regionStatistics: InfoTable = {
  columns: [
    U64("region_id"),
    ["table_id", "UInt32"],
    ["region_number", "UInt32"],
    ...[
      "region_rows",
      "written_bytes_since_open",
      "disk_size",
      "memtable_size",
      "manifest_size",
      "sst_size",
      "sst_num",
      "index_size",
    ].map(U64),
    ...strings("engine", "region_role"),
  ],
  rows: (storage, need) => {
    const usage = new Map<string, Map<string, TableDiskUsage>>();
    const bytes = (t: TableMeta) => {
      if (!need.sizes) return { data: 0, index: 0 };
      if (!usage.has(t.db)) usage.set(t.db, storage.diskUsage(t.db));
      return usage.get(t.db)!.get(t.name) ?? { data: 0, index: 0 };
    };
    return userTables(storage).filter((t) => !isLogicalTable(t)).map((t): Value[] => {
      const b = bytes(t);
      // no memtables, manifests or SSTs: a table's b-tree pages are its data, its indexes its index
      return [
        regionId(t),
        greptimeTableId(t),
        0,
        need.sizes ? countRows(storage, t) : 0,
        0,
        b.data + b.index,
        0,
        0,
        b.data,
        0,
        b.index,
        t.engine,
        "Leader",
      ];
    });
  },
};

/** The region tables, by name. */
export const REGION_INFO_TABLES: Record<string, InfoTable> = {
  partitions,
  region_peers: regionPeers,
  region_statistics: regionStatistics,
};
