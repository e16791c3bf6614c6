/**
 * The identity pipeline's columnar run: when every entry of a request takes the per-shape plan
 * (`identity_shape.ts`), the values go straight into one array per column and the output is a
 * `ColumnarBatch`, which the storage writer binds from as it is (no row array per entry, no
 * transposition back to columns). A leaf's column and type are looked up once per shape and
 * checked again only when its value's type changes. Anything else (an entry that is not an object
 * or has hint keys, a type conflict) gives up: the row path then runs the request from scratch and
 * answers as it always did (same error, same `skip_error` count).
 */
import { ColumnarBatch, type DataType, type Value } from "../src/common/rows.ts";
import { PetrelError } from "../src/common/errors.ts";
import type { RowCollector } from "./rows.ts";
import { intCell } from "./types.ts";
import { isInteger, isObject } from "./value.ts";
import { type Leaf, leafValue, type ShapePlans } from "./identity_shape.ts";

/**
 * The entries as one batch for `table` (column 0, the time index, holds `now`), with columns
 * registered in `rows` as the row path registers them; null when the row path must run instead.
 */
export function identityColumns(
  records: unknown[],
  table: string,
  now: Value,
  shapes: ShapePlans,
  rows: RowCollector,
): ColumnarBatch | null {
  const n = records.length;
  if (n === 0 || rows.columns.length !== 1) return null;
  const cols: Value[][] = [new Array(n).fill(now)];
  const filled: number[] = [n];
  // per leaf of the current shape: its column, and the value type that column was checked for
  let shape: Leaf[] | null = null, colAt: number[] = [], typeAt: (DataType | undefined)[] = [];
  try {
    for (let r = 0; r < n; r++) {
      const rec = records[r];
      if (!isObject(rec)) return null;
      const leaves = shapes.leavesOf(rec);
      if (leaves === null) return null;
      if (leaves !== shape) {
        shape = leaves;
        colAt = new Array(leaves.length);
        typeAt = new Array(leaves.length);
      }
      for (let i = 0; i < leaves.length; i++) {
        const v = leafValue(rec, leaves[i]);
        let type: DataType, cell: Value;
        if (typeof v === "string") {
          type = "String";
          cell = v;
        } else if (typeof v === "number") {
          type = isInteger(v) ? "Int64" : "Float64";
          cell = v;
        } else if (typeof v === "boolean") {
          type = "Boolean";
          cell = v;
        } else if (typeof v === "bigint") {
          type = "Int64";
          cell = intCell(v);
        } else if (v === null || v === undefined) continue;
        else return null;
        let j = colAt[i];
        if (typeAt[i] !== type) {
          // the row path's check: creates the column on first sight, throws on a type conflict
          j = colAt[i] = rows.autoColumn(leaves[i].name, type);
          typeAt[i] = type;
          if (j === cols.length) {
            cols.push(new Array(n));
            filled.push(0);
          }
        }
        if (typeof cell === "bigint" && rows.columns[j].type === "Float64") cell = Number(cell);
        cols[j][r] = cell;
        filled[j]++;
      }
    }
  } catch (e) {
    if (e instanceof PetrelError) return null;
    throw e;
  }
  for (let j = 1; j < cols.length; j++) {
    if (filled[j] === n) continue;
    const col = cols[j];
    for (let r = 0; r < n; r++) if (col[r] === undefined) col[r] = null;
  }
  // copies, so a consumer that annotates columns cannot alter the compiled pipeline
  const batch = new ColumnarBatch(table, rows.columns.map((c) => ({ ...c })), cols, n);
  batch.createType = "log";
  return batch;
}
