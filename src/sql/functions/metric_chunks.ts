/**
 * The merging of a metric table's samples of one time window inside SQL, so a query on a metric
 * table can read a few series by their XOR chunks (`storage/metric_series_rows.ts`) instead of
 * scanning every series' samples, and still get its rows in the samples table's order. node:sqlite
 * has no table-valued functions, so an aggregate gathers a window's chunks (or samples) and answers
 * a JSON array of `[ts, series id, value]` sorted by (ts, series id), which `json_each` makes rows.
 * (Sorting in SQL instead costs SQLite's external sorter: ~14 s for 1.15M rows, measured.)
 */
import { decodeXorInto } from "../../codec/xor_chunk.ts";
import type { SampleColumns } from "../../common/series.ts";
import type { AggDef } from "./values.ts";

/** The decode buffer (a chunk holds at most 65535 samples: its count is 16 bits). */
const cols: SampleColumns = {
  timestamps: new Float64Array(65536),
  values: new Float64Array(65536),
  stale: null,
};

/** A window's samples, gathered: parallel arrays, values already as JSON text. */
interface Gathered {
  ts: number[];
  ids: number[];
  values: string[];
}

/**
 * A value as JSON that `->>` reads back as the samples table holds it: a stale marker NULL, another
 * NaN the text `'NaN'`, and a number always a REAL (`43.0`, not the integer `43`; an infinity as a
 * literal that overflows to one).
 */
function jsonNumber(v: number): string {
  if (Number.isNaN(v)) return '"NaN"';
  if (!Number.isFinite(v)) return v > 0 ? "9e999" : "-9e999";
  if (Object.is(v, -0)) return "-0.0";
  return Number.isInteger(v) && Math.abs(v) < 1e21 ? `${v}.0` : String(v);
}

/** A samples table value (REAL, NULL for a stale marker, or text) as JSON. */
function jsonStored(v: unknown): string {
  if (typeof v === "number") return jsonNumber(v);
  return v === null || v === undefined ? "null" : JSON.stringify(String(v));
}

/** The metric window aggregates, by their internal name. */
export const METRIC_CHUNK_AGGREGATES: Record<string, AggDef> = {
  /**
   * `__petrel_window_samples(series_id, ts, value, chunk[, lo, hi])`: per row either an XOR chunk
   * of the series (`chunk` not NULL) or one sample from the samples table; the samples as JSON
   * `[[ts, series_id, value], …]` sorted by (ts, series_id). A chunk's samples outside `[lo, hi]`
   * (either NULL: unbounded) are left out (a read of a time range; its samples come bounded).
   */
  __petrel_window_samples: {
    args: [4, 6],
    start: (): Gathered => ({ ts: [], ids: [], values: [] }),
    step: (acc, id, ts, value, chunk, lo, hi) => {
      const g = acc as Gathered;
      if (chunk instanceof Uint8Array) {
        cols.stale = null;
        const n = decodeXorInto(chunk, cols, 0);
        const from = lo === null || lo === undefined ? -Infinity : Number(lo);
        const to = hi === null || hi === undefined ? Infinity : Number(hi);
        for (let i = 0; i < n; i++) {
          if (cols.timestamps[i] < from || cols.timestamps[i] > to) continue;
          g.ts.push(cols.timestamps[i]);
          g.ids.push(Number(id));
          g.values.push(cols.stale?.[i] === 1 ? "null" : jsonNumber(cols.values[i]));
        }
      } else if (ts !== null) {
        g.ts.push(Number(ts));
        g.ids.push(Number(id));
        g.values.push(jsonStored(value));
      }
      return g;
    },
    result: (acc) => {
      const g = acc as Gathered;
      const order = Array.from(g.ts.keys()).sort((a, b) => g.ts[a] - g.ts[b] || g.ids[a] - g.ids[b]);
      return `[${order.map((i) => `[${g.ts[i]},${g.ids[i]},${g.values[i]}]`).join(",")}]`;
    },
  },
};
