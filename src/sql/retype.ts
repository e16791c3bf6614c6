/**
 * `ALTER TABLE t MODIFY COLUMN c <type>`: which columns may change type, and the SQL that converts a
 * stored value of the old type into the new one with TRY_CAST's semantics (the `_or_null` cast
 * functions of functions/casts.ts), so a value that does not convert becomes NULL as in GreptimeDB.
 */
import { invalidArguments, PetrelError, StatusCode } from "../common/errors.ts";
import type { DataType } from "../common/rows.ts";
import { decimalSpec } from "../common/decimal.ts";
import { isVectorType } from "../common/vector.ts";
import { NS_PER_UNIT, unitOfType } from "../common/time_unit.ts";
import { isIntegerType } from "../storage/datatypes.ts";
import type { ColumnMeta, TableMeta } from "../storage/table.ts";
import type { DatabaseHandle } from "../storage/database.ts";
import { changeColumnTypes } from "../storage/ddl.ts";
import { registerSqlFunctions, takeFunctionError } from "./functions/registry.ts";
import { quoteIdent } from "../storage/table.ts";

const DAY_NS = 86_400_000_000_000n;

/** The column `name` of `table` if its type may change to `type`, else the error naming why. */
export function retypableColumn(table: TableMeta, name: string, type: DataType): ColumnMeta {
  const col = table.columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!col) {
    throw new PetrelError(StatusCode.TableColumnNotFound, `Column ${name} not exists in table ${table.name}`);
  }
  const why = col.semantic === "TIMESTAMP"
    ? "it is the time index"
    : col.semantic === "TAG"
    ? "it is a tag (primary key) column"
    : !col.nullable
    ? "it is not nullable"
    : col.type === "Json" || type === "Json"
    ? "JSON columns cannot change type"
    : isVectorType(col.type) || isVectorType(type)
    ? "VECTOR columns cannot change type"
    : col.index?.kind === "fulltext" && type !== "String"
    ? "it has a FULLTEXT index, which needs a string column"
    : undefined;
  if (why) {
    throw invalidArguments(
      `Invalid alter table ${table.name} request: cannot modify column ${col.name}: ${why}`,
    );
  }
  return col;
}

/** Floor division of an SQL integer expression by a positive constant (SQLite's `/` truncates). */
function floorDivSql(x: string, d: bigint): string {
  return `((${x} - (((${x}) % ${d}) + ${d}) % ${d}) / ${d})`;
}

/** An SQL integer expression in unit `from` (per-value nanoseconds) rescaled to `to`. */
function rescaleSql(x: string, from: bigint, to: bigint): string {
  if (from === to) return x;
  return from > to ? `(${x} * ${from / to})` : floorDivSql(x, to / from);
}

/**
 * The SQL expression giving a value of `col` (stored under its current type) as the new `type`,
 * NULL where the conversion fails, as `TRY_CAST(col AS type)` would.
 */
export function convertedValueSql(col: ColumnMeta, type: DataType): string {
  const x = quoteIdent(col.name);
  const from = col.type;
  if (from === type) return x;
  const fromDecimal = decimalSpec(from);
  const fromUnit = unitOfType(from);
  // a decimal is stored unscaled: go through its text, or its float for an integer (which truncates)
  const plain = fromDecimal ? `__petrel_decimal_text_or_null(${x}, ${fromDecimal.scale})` : x;
  const toDecimal = decimalSpec(type);
  if (toDecimal) {
    const fromScale = fromDecimal ? fromDecimal.scale : "NULL";
    return `__petrel_to_decimal_or_null(${x}, ${fromScale}, ${toDecimal.precision}, ${toDecimal.scale})`;
  }
  const toUnit = unitOfType(type);
  if (toUnit) {
    if (fromUnit) return rescaleSql(x, NS_PER_UNIT[fromUnit], NS_PER_UNIT[toUnit]);
    if (from === "Date") return rescaleSql(x, DAY_NS, NS_PER_UNIT[toUnit]);
    return `__petrel_cast_ts_or_null(${plain}, '${toUnit}', 'UTC')`;
  }
  switch (type) {
    case "Date":
      return fromUnit ? floorDivSql(x, DAY_NS / NS_PER_UNIT[fromUnit]) : `__petrel_to_date_or_null(${plain})`;
    case "Boolean":
      return `__petrel_to_bool_or_null(${plain})`;
    case "String":
      if (from === "Boolean") {
        return `CASE WHEN ${x} IS NULL THEN NULL WHEN ${x} THEN 'true' ELSE 'false' END`;
      }
      return fromDecimal ? plain : `CAST(${x} AS TEXT)`;
    case "Binary":
      return `CAST(${plain} AS BLOB)`;
    default:
      if (isIntegerType(type) && fromDecimal) {
        return `__petrel_cast_number_or_null(CAST(${plain} AS REAL), '${type}')`;
      }
      return `__petrel_cast_number_or_null(${plain}, '${type}')`;
  }
}

/** `MODIFY COLUMN c <type>`: rebuilds the table converting the column's values as TRY_CAST would. */
export function modifyColumnType(
  handle: DatabaseHandle,
  meta: TableMeta,
  name: string,
  type: DataType,
): void {
  const col = retypableColumn(meta, name, type);
  if (col.type === type) return;
  registerSqlFunctions(handle.conn);
  handle.transaction(() => {
    changeColumnTypes(
      handle,
      meta,
      new Map([[col.name, type]]),
      new Map([[col.name, convertedValueSql(col, type)]]),
    );
    const failed = takeFunctionError();
    if (failed) throw failed;
  });
}
