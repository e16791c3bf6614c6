/**
 * GreptimeDB's H3 functions over h3-js: cells are UInt64 (exact past 2^53, as bigints) and are
 * also taken in their hex text form; lists of cells are `List<UInt64>`. NULL in → NULL out.
 */
import * as h3 from "h3-js";
import { arrayArg, arrayText, type Elem } from "./arrays.ts";
import { intArg, latLngArgs, nullSafe, shown } from "./geo.ts";
import type { Arg, ScalarDef } from "./values.ts";

/** H3's finest resolution. */
const MAX_RES = 15;

/** The most cells one list result may hold, so a wide disk or a deep child list fails instead of exhausting memory. */
const MAX_CELLS = 1_000_000;

/** A cell argument (UInt64 or hex text) as h3-js's hex index; anything that is no valid cell is refused. */
function cellArg(fn: string, v: Arg): string {
  const hex = typeof v === "bigint" && v >= 0n
    ? v.toString(16)
    : typeof v === "string"
    ? v.trim().toLowerCase()
    : undefined;
  if (hex === undefined || !h3.isValidCell(hex)) throw new Error(`${fn}: invalid H3 cell ${shown(v)}`);
  return hex;
}

/** A cell as GreptimeDB's UInt64. */
const cellNumber = (hex: string): bigint => BigInt("0x" + hex);

/** A list of cells as `List<UInt64>` text, refused past MAX_CELLS. */
function cellList(fn: string, cells: string[]): string {
  if (cells.length > MAX_CELLS) throw new Error(`${fn}: the result would hold more than ${MAX_CELLS} cells`);
  return arrayText(cells.map(cellNumber));
}

/** Runs an h3-js call, naming the function in its error. */
function h3Call<T>(fn: string, call: () => T): T {
  try {
    return call();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // argument checks inside the call name the function already
    throw message.startsWith(`${fn}: `) ? e : new Error(`${fn}: ${message}`);
  }
}

const resolution = (fn: string, v: Arg, min = 0) => intArg(fn, "resolution", v, min, MAX_RES);

/** A resolution at or below `hex`'s (a parent's) or at or above it (a child's). */
function relativeRes(fn: string, hex: string, v: Arg, side: "parent" | "child"): number {
  const own = h3.getResolution(hex);
  return side === "parent"
    ? intArg(fn, "parent resolution", v, 0, own)
    : intArg(fn, "child resolution", v, own, MAX_RES);
}

/** A ring count k, limited so the disk stays within MAX_CELLS. */
function ringArg(fn: string, v: Arg): number {
  return intArg(fn, "k", v, 0, 576); // 1 + 3·576·577 ≤ MAX_CELLS
}

/** The cells of a `cells` argument: a list (of UInt64 or text) or comma-separated hex text. */
function cellsArg(fn: string, v: Arg): string[] {
  if (typeof v === "string" && !v.trim().startsWith("[")) {
    return v.split(",").map((s) => cellArg(fn, s));
  }
  const list = arrayArg(fn, v) ?? [];
  return list.map((e: Elem) => {
    if (typeof e === "number" && Number.isSafeInteger(e)) return cellArg(fn, BigInt(e));
    if (typeof e === "bigint" || typeof e === "string") return cellArg(fn, e);
    throw new Error(`${fn}: invalid H3 cell ${JSON.stringify(e)}`);
  });
}

/** The great-circle distance between two cells' centres, in h3-js's `unit`. */
function centreDistance(fn: string, a: Arg, b: Arg, unit: "km" | "rads"): number {
  const p = h3.cellToLatLng(cellArg(fn, a)), q = h3.cellToLatLng(cellArg(fn, b));
  return h3.greatCircleDistance(p, q, unit);
}

/** H3 functions by name. */
export const H3_SCALARS: Record<string, ScalarDef> = {
  h3_latlng_to_cell: nullSafe("h3_latlng_to_cell", 3, (lat, lng, r) => {
    const [y, x] = latLngArgs("h3_latlng_to_cell", lat, lng);
    return cellNumber(h3.latLngToCell(y, x, resolution("h3_latlng_to_cell", r)));
  }),
  h3_latlng_to_cell_string: nullSafe("h3_latlng_to_cell_string", 3, (lat, lng, r) => {
    const [y, x] = latLngArgs("h3_latlng_to_cell_string", lat, lng);
    return h3.latLngToCell(y, x, resolution("h3_latlng_to_cell_string", r));
  }),
  h3_cell_to_string: nullSafe("h3_cell_to_string", 1, (c) => cellArg("h3_cell_to_string", c)),
  h3_string_to_cell: nullSafe("h3_string_to_cell", 1, (c) => {
    if (typeof c !== "string") throw new Error(`h3_string_to_cell expects a hex cell text, got ${shown(c)}`);
    return cellNumber(cellArg("h3_string_to_cell", c));
  }),
  h3_cell_center_latlng: nullSafe("h3_cell_center_latlng", 1, (c) => {
    return arrayText(h3.cellToLatLng(cellArg("h3_cell_center_latlng", c)));
  }),
  h3_cell_resolution: nullSafe("h3_cell_resolution", 1, (c) => {
    return BigInt(h3.getResolution(cellArg("h3_cell_resolution", c)));
  }),
  h3_cell_base: nullSafe("h3_cell_base", 1, (c) => BigInt(h3.getBaseCellNumber(cellArg("h3_cell_base", c)))),
  h3_cell_is_pentagon: nullSafe("h3_cell_is_pentagon", 1, (c) => {
    return h3.isPentagon(cellArg("h3_cell_is_pentagon", c)) ? 1n : 0n;
  }),
  h3_cell_parent: nullSafe("h3_cell_parent", 2, (c, r) => {
    const hex = cellArg("h3_cell_parent", c);
    return cellNumber(h3.cellToParent(hex, relativeRes("h3_cell_parent", hex, r, "parent")));
  }),
  h3_cell_to_children: nullSafe("h3_cell_to_children", 2, (c, r) => {
    const fn = "h3_cell_to_children", hex = cellArg(fn, c), res = relativeRes(fn, hex, r, "child");
    if (h3.cellToChildrenSize(hex, res) > MAX_CELLS) {
      throw new Error(`${fn}: the result would hold more than ${MAX_CELLS} cells`);
    }
    return cellList(fn, h3.cellToChildren(hex, res));
  }),
  h3_cell_to_children_size: nullSafe("h3_cell_to_children_size", 2, (c, r) => {
    const fn = "h3_cell_to_children_size", hex = cellArg(fn, c);
    return BigInt(h3.cellToChildrenSize(hex, relativeRes(fn, hex, r, "child")));
  }),
  h3_cell_to_child_pos: nullSafe("h3_cell_to_child_pos", 2, (c, r) => {
    const fn = "h3_cell_to_child_pos", hex = cellArg(fn, c);
    return BigInt(h3Call(fn, () => h3.cellToChildPos(hex, relativeRes(fn, hex, r, "parent"))));
  }),
  h3_child_pos_to_cell: nullSafe("h3_child_pos_to_cell", 3, (pos, c, r) => {
    const fn = "h3_child_pos_to_cell", hex = cellArg(fn, c), res = relativeRes(fn, hex, r, "child");
    const p = intArg(fn, "child position", pos, 0, h3.cellToChildrenSize(hex, res) - 1);
    return cellNumber(h3Call(fn, () => h3.childPosToCell(p, hex, res)));
  }),
  h3_grid_disk: nullSafe("h3_grid_disk", 2, (c, k) => {
    const fn = "h3_grid_disk";
    return cellList(fn, h3Call(fn, () => h3.gridDisk(cellArg(fn, c), ringArg(fn, k))));
  }),
  // the same cells, ring by ring outwards from the centre
  h3_grid_disk_distances: nullSafe("h3_grid_disk_distances", 2, (c, k) => {
    const fn = "h3_grid_disk_distances";
    return cellList(fn, h3Call(fn, () => h3.gridDiskDistances(cellArg(fn, c), ringArg(fn, k))).flat());
  }),
  h3_grid_distance: nullSafe("h3_grid_distance", 2, (a, b) => {
    const fn = "h3_grid_distance";
    return BigInt(h3Call(fn, () => h3.gridDistance(cellArg(fn, a), cellArg(fn, b))));
  }),
  h3_grid_path_cells: nullSafe("h3_grid_path_cells", 2, (a, b) => {
    const fn = "h3_grid_path_cells", from = cellArg(fn, a), to = cellArg(fn, b);
    // the path holds distance + 1 cells: refuse a huge one before building it
    if (h3Call(fn, () => h3.gridDistance(from, to)) >= MAX_CELLS) {
      throw new Error(`${fn}: the result would hold more than ${MAX_CELLS} cells`);
    }
    return cellList(fn, h3Call(fn, () => h3.gridPathCells(from, to)));
  }),
  h3_distance_sphere_km: nullSafe("h3_distance_sphere_km", 2, (a, b) => {
    return centreDistance("h3_distance_sphere_km", a, b, "km");
  }),
  h3_distance_degree: nullSafe("h3_distance_degree", 2, (a, b) => {
    return (centreDistance("h3_distance_degree", a, b, "rads") * 180) / Math.PI;
  }),
  h3_cells_contains: nullSafe("h3_cells_contains", 2, (cells, c) => {
    const fn = "h3_cells_contains", hex = cellArg(fn, c), res = h3.getResolution(hex);
    const within = cellsArg(fn, cells).some((outer) => {
      const r = h3.getResolution(outer);
      return r <= res && h3.cellToParent(hex, r) === outer;
    });
    return within ? 1n : 0n;
  }),
};
