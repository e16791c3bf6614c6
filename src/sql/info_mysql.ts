/**
 * The information_schema tables GreptimeDB keeps for MySQL tools: engines, character sets and
 * collations (utf8 / utf8_bin only), and the tables that are always empty (privileges, routines,
 * triggers…). Columns and types are GreptimeDB's; its DateTime columns are microsecond timestamps.
 */
import type { DataType } from "../common/rows.ts";
import { emptyTable, type InfoTable, strings } from "./info_table.ts";

/** The size columns MySQL's routine and parameter tables describe a data type with. */
const TYPE_SIZES = [
  "character_maximum_length",
  "character_octet_length",
  "numeric_precision",
  "numeric_scale",
  "datetime_precision",
];

const I64 = (n: string): [string, DataType] => [n, "Int64"];
const TIME = (n: string): [string, DataType] => [n, "TimestampMicrosecond"];

/** `engines`: GreptimeDB's two table engines, as it describes them. */
const engines: InfoTable = {
  columns: strings("engine", "support", "comment", "transactions", "xa", "savepoints"),
  rows: () => [
    ["mito", "DEFAULT", "Storage engine for time-series data", "NO", "NO", "NO"],
    [
      "metric",
      "YES",
      "Storage engine for observability scenarios, which is adept at handling a large number of small tables, making it particularly suitable for cloud-native monitoring",
      "NO",
      "NO",
      "NO",
    ],
  ],
};

const characterSets: InfoTable = {
  columns: [...strings("character_set_name", "default_collate_name", "description"), I64("maxlen")],
  rows: () => [["utf8", "utf8_bin", "UTF-8 Unicode", 4]],
};

const collations: InfoTable = {
  columns: [
    ...strings("collation_name", "character_set_name"),
    I64("id"),
    ...strings("is_default", "is_compiled"),
    I64("sortlen"),
  ],
  rows: () => [["utf8_bin", "utf8", 1, "Yes", "Yes", 1]],
};

const applicability: InfoTable = {
  columns: strings("collation_name", "character_set_name"),
  rows: () => [["utf8_bin", "utf8"]],
};

/** Always-empty tables: Petrel has no users, privileges, routines, events, triggers or profiling. */
const EMPTY: Record<string, InfoTable> = {
  check_constraints: emptyTable(
    strings("constraint_catalog", "constraint_schema", "constraint_name", "check_clause"),
  ),
  column_privileges: emptyTable(
    strings(
      "grantee",
      "table_catalog",
      "table_schema",
      "table_name",
      "column_name",
      "privilege_type",
      "is_grantable",
    ),
  ),
  column_statistics: emptyTable(strings("schema_name", "table_name", "column_name", "histogram")),
  events: emptyTable([
    ...strings(
      "event_catalog",
      "event_schema",
      "event_name",
      "definer",
      "time_zone",
      "event_body",
      "event_definition",
      "event_type",
    ),
    TIME("execute_at"),
    I64("interval_value"),
    ...strings("interval_field", "sql_mode"),
    TIME("starts"),
    TIME("ends"),
    ...strings("status", "on_completion"),
    TIME("created"),
    TIME("last_altered"),
    TIME("last_executed"),
    ["event_comment", "String"],
    I64("originator"),
    ...strings("character_set_client", "collation_connection", "database_collation"),
  ]),
  files: emptyTable([
    I64("file_id"),
    ...strings(
      "file_name",
      "file_type",
      "tablespace_name",
      "table_catalog",
      "table_schema",
      "table_name",
      "logfile_group_name",
    ),
    I64("logfile_group_number"),
    ...strings("engine", "fulltext_keys"),
    ...["deleted_rows", "update_count", "free_extents", "total_extents", "extent_size", "initial_size"].map(
      I64,
    ),
    I64("maximum_size"),
    I64("autoextend_size"),
    ...["creation_time", "last_update_time", "last_access_time", "recover_time"].map(TIME),
    I64("transaction_counter"),
    I64("version"),
    ["row_format", "String"],
    ...["table_rows", "avg_row_length", "data_length", "max_data_length", "index_length", "data_free"].map(
      I64,
    ),
    ...["create_time", "update_time", "check_time"].map(TIME),
    I64("checksum"),
    ...strings("status", "extra"),
  ]),
  global_status: emptyTable(strings("variable_name", "variable_value")),
  optimizer_trace: emptyTable([
    ...strings("query", "trace"),
    I64("missing_bytes_beyond_max_mem_size"),
    ["insufficient_privileges", "Boolean"],
  ]),
  parameters: emptyTable([
    ...strings("specific_catalog", "specific_schema", "specific_name"),
    I64("ordinal_position"),
    ...strings("parameter_mode", "parameter_name", "data_type"),
    ...TYPE_SIZES.map(I64),
    ...strings("character_set_name", "collation_name", "dtd_identifier", "routine_type"),
  ]),
  profiling: emptyTable([
    I64("query_id"),
    I64("seq"),
    ["state", "String"],
    ...[
      "duration",
      "cpu_user",
      "cpu_system",
      "context_voluntary",
      "context_involuntary",
      "block_ops_in",
      "block_ops_out",
      "messages_sent",
      "messages_received",
      "page_faults_major",
      "page_faults_minor",
      "swaps",
    ].map(I64),
    ...strings("source_function", "source_file"),
    I64("source_line"),
  ]),
  referential_constraints: emptyTable(
    strings(
      "constraint_catalog",
      "constraint_schema",
      "constraint_name",
      "unique_constraint_catalog",
      "unique_constraint_schema",
      "unique_constraint_name",
      "match_option",
      "update_rule",
      "delete_rule",
      "table_name",
      "referenced_table_name",
    ),
  ),
  routines: emptyTable([
    ...strings(
      "specific_name",
      "routine_catalog",
      "routine_schema",
      "routine_name",
      "routine_type",
      "data_type",
    ),
    ...TYPE_SIZES.map(I64),
    ...strings(
      "character_set_name",
      "collation_name",
      "dtd_identifier",
      "routine_body",
      "routine_definition",
      "external_name",
      "external_language",
      "parameter_style",
      "is_deterministic",
      "sql_data_access",
      "sql_path",
      "security_type",
    ),
    TIME("created"),
    TIME("last_altered"),
    ...strings(
      "sql_mode",
      "routine_comment",
      "definer",
      "character_set_client",
      "collation_connection",
      "database_collation",
    ),
  ]),
  schema_privileges: emptyTable(
    strings("grantee", "table_catalog", "table_schema", "privilege_type", "is_grantable"),
  ),
  session_status: emptyTable(strings("variable_name", "variable_value")),
  table_privileges: emptyTable(
    strings("grantee", "table_catalog", "table_schema", "table_name", "privilege_type", "is_grantable"),
  ),
  triggers: emptyTable([
    ...strings(
      "trigger_catalog",
      "trigger_schema",
      "trigger_name",
      "event_manipulation",
      "event_object_catalog",
      "event_object_schema",
      "event_object_table",
    ),
    I64("action_order"),
    ...strings(
      "action_condition",
      "action_statement",
      "action_orientation",
      "action_timing",
      "action_reference_old_table",
      "action_reference_new_table",
      "action_reference_old_row",
      "action_reference_new_row",
    ),
    TIME("created"),
    ...strings("sql_mode", "definer", "character_set_client", "collation_connection", "database_collation"),
  ]),
  user_privileges: emptyTable(strings("grantee", "table_catalog", "privilege_type", "is_grantable")),
};

/** The MySQL-compatibility tables, by name. */
export const MYSQL_INFO_TABLES: Record<string, InfoTable> = {
  engines,
  character_sets: characterSets,
  collations,
  collation_character_set_applicability: applicability,
  ...EMPTY,
};
