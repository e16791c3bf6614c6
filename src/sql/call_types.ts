/**
 * The result types of calls that SQLite's values cannot tell, by function name: fixed ones (unsigned
 * integers, dates, binaries), Boolean predicates, Float64 averages, and arrow_cast's target names.
 */
import type { DataType, ResultType } from "../common/rows.ts";
import { timestampType } from "../common/time_unit.ts";

/** Result types of whole calls that SQLite's values cannot tell (integers that are unsigned, dates…). */
export const RESULT_TYPES: Record<string, ResultType> = {
  json_get_string: "String",
  json_get_int: "Int64",
  json_get_float: "Float64",
  json_get_bool: "Boolean",
  json_to_string: "String",
  ipv4_string_to_num: "UInt32",
  ipv4_num_to_string: "String",
  ipv4_to_cidr: "String",
  ipv6_num_to_string: "String",
  ipv6_to_cidr: "String",
  ipv6_string_to_num: "Binary",
  pg_backend_pid: "UInt64",
  from_unixtime: "TimestampSecond",
  to_date: "Date",
  make_date: "Date",
  current_date: "Date",
  to_char: "String",
  timezone: "String",
  build: "String",
  current_schemas: "String",
  levenshtein: "Int32",
  grouping: "Int32",
  find_in_set: "Int32",
  bit_length: "Int32",
  regexp_count: "Int64",
  factorial: "Int64",
  gcd: "Int64",
  lcm: "Int64",
  sha224: "Binary",
  sha256: "Binary",
  sha384: "Binary",
  sha512: "Binary",
  digest: "Binary",
  decode: "Binary",
  encode: "String",
  translate: "String",
  substr_index: "String",
  substring_index: "String",
  overlay: "String",
  acosh: "Float64",
  asinh: "Float64",
  atanh: "Float64",
  regr_count: "UInt64",
  arrow_typeof: "String",
  cot: "Float64",
  nanvl: "Float64",
  // vectors (functions/vector.ts): vector results are their bytes, as GreptimeDB's are Binary
  parse_vec: "Binary",
  vec_to_string: "String",
  vec_cos_distance: "Float32",
  vec_l2sq_distance: "Float32",
  vec_dot_product: "Float32",
  vec_dim: "UInt64",
  vec_norm: "Binary",
  vec_add: "Binary",
  vec_sub: "Binary",
  vec_mul: "Binary",
  vec_div: "Binary",
  vec_elem_sum: "Float32",
  vec_elem_product: "Float32",
  vec_scalar_add: "Binary",
  vec_scalar_mul: "Binary",
  vec_kth_elem: "Float32",
  vec_subvector: "Binary",
  vec_sum: "Binary",
  vec_product: "Binary",
  // sketches (functions/sketches.ts): states are Binary, as GreptimeDB's
  hll: "Binary",
  hll_merge: "Binary",
  hll_count: "UInt64",
  uddsketch_state: "Binary",
  uddsketch_merge: "Binary",
  uddsketch_calc: "Float64",
  // geo (functions/geo.ts, functions/h3.ts): H3 cells are UInt64, lists of them List<UInt64>
  geohash: "String",
  geohash_neighbours: "List<String>",
  wkt_point_from_latlng: "String",
  st_distance: "Float64",
  st_distance_sphere_m: "Float64",
  h3_latlng_to_cell: "UInt64",
  h3_latlng_to_cell_string: "String",
  h3_cell_to_string: "String",
  h3_string_to_cell: "UInt64",
  h3_cell_center_latlng: "List<Float64>",
  h3_cell_resolution: "UInt8",
  h3_cell_base: "UInt8",
  h3_cell_parent: "UInt64",
  h3_cell_to_children: "List<UInt64>",
  h3_cell_to_children_size: "UInt64",
  h3_cell_to_child_pos: "UInt64",
  h3_child_pos_to_cell: "UInt64",
  h3_grid_disk: "List<UInt64>",
  h3_grid_disk_distances: "List<UInt64>",
  h3_grid_distance: "Int32",
  h3_grid_path_cells: "List<UInt64>",
  h3_distance_sphere_km: "Float64",
  h3_distance_degree: "Float64",
};

/** Scalars whose result has their first argument's type. */
export const KEEP_TYPE_SCALARS = new Set([
  "nullif",
  "clamp",
  "clamp_min",
  "clamp_max",
  "nvl",
  "bit_and",
  "bit_or",
  "bit_xor",
]);

/** Calls answering a Boolean. */
export const BOOLEAN_FUNCS = new Set([
  "json_is_null",
  "json_path_exists",
  "starts_with",
  "ends_with",
  "regexp_like",
  "isnan",
  "bool_and",
  "bool_or",
  "matches",
  "matches_term",
  "isnull",
  "json_is_int",
  "json_is_float",
  "json_is_bool",
  "json_is_string",
  "json_is_array",
  "json_is_object",
  "json_path_match",
  "ipv4_in_range",
  "ipv6_in_range",
  "iszero",
  "contains",
  "h3_cell_is_pentagon",
  "h3_cells_contains",
]);

/** Aggregates answering a Float64 whatever their argument. */
export const AVERAGING = new Set([
  "avg",
  "mean",
  "stddev",
  "stddev_samp",
  "stddev_pop",
  "variance",
  "var_samp",
  "var_pop",
  "median",
  "approx_median",
  "approx_percentile_cont",
  "percentile_cont",
  "corr",
  "covar",
  "covar_samp",
  "covar_pop",
  "var",
  "approx_percentile_cont_with_weight",
  "var_sample",
  "var_population",
  "regr_slope",
  "regr_intercept",
  "regr_r2",
  "regr_avgx",
  "regr_avgy",
  "regr_sxx",
  "regr_syy",
  "regr_sxy",
]);

/** GreptimeDB's types of the Arrow type names arrow_cast takes. */
const ARROW_TYPES: Record<string, DataType> = {
  int8: "Int8",
  int16: "Int16",
  int32: "Int32",
  int64: "Int64",
  uint8: "UInt8",
  uint16: "UInt16",
  uint32: "UInt32",
  uint64: "UInt64",
  float32: "Float32",
  float64: "Float64",
  utf8: "String",
  largeutf8: "String",
  boolean: "Boolean",
};

/** GreptimeDB's type for an Arrow type name given to arrow_cast. */
export function arrowType(name: string): DataType | undefined {
  const ts = /^Timestamp\((\w+)/i.exec(name.trim());
  if (ts) {
    const unit = ({ second: "s", millisecond: "ms", microsecond: "us", nanosecond: "ns" } as const)[
      ts[1].toLowerCase() as "second"
    ];
    return unit ? timestampType(unit) : undefined;
  }
  return ARROW_TYPES[name.trim().toLowerCase()];
}
