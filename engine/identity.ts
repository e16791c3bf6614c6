/**
 * The built-in `greptime_identity` pipeline (reference §10.1): flattens nested objects into dotted
 * keys, stores arrays as JSON strings, auto-types every key, and uses the arrival time (or a
 * `custom_time_index`) as the time index.
 */
import type { Value } from "../src/common/rows.ts";
import { invalidArguments } from "../src/common/errors.ts";
import { illegalState, unexpected } from "./errors.ts";
import { takeHints } from "./hints.ts";
import type { Pipeline, PipelineResult, RunContext } from "./pipeline_types.ts";
import { RowCollector, timeIndexCell } from "./rows.ts";
import { compileStrftime, parseStrftime } from "./strftime.ts";
import { nowNs } from "./transform.ts";
import { timestampCell, timestampCellOf } from "./types.ts";
import { type Entry, isObject, Timestamp, toCompactJson } from "./value.ts";
import { leafValue, ShapePlans } from "./identity_shape.ts";
import { identityColumns } from "./identity_columns.ts";
import { timestampType } from "../src/common/time_unit.ts";

/** Options of the identity pipeline. */
export interface IdentityParams {
  /** Objects deeper than this are stored as JSON strings (default 10; invalid/0 → default). */
  maxNestedLevels?: number;
  /** `<field>;epoch;<s|ms|us|ns>` or `<field>;datestr;<chrono format>`. */
  customTimeIndex?: string;
  /** Use the current time when the custom time index value is bad (`ignore_errors=true`). */
  ignoreErrors?: boolean;
}

interface CustomTimeIndex {
  field: string;
  unit: "s" | "ms" | "us" | "ns";
  format?: ReturnType<typeof compileStrftime>;
}

function parseCustomTimeIndex(cfg: string): CustomTimeIndex {
  const fail = (reason: string) =>
    invalidArguments(`Invalid custom time index config: ${cfg}, reason: ${reason}`);
  const parts = cfg.split(";");
  if (parts.length !== 3) throw fail("config format: '<field>;<type>;<config>'");
  const [field, kind, conf] = parts;
  if (kind === "epoch") {
    if (conf !== "s" && conf !== "ms" && conf !== "us" && conf !== "ns") {
      throw fail("epoch type must be one of ns, us, ms, s");
    }
    return { field, unit: conf };
  }
  if (kind === "datestr") {
    const format = compileStrftime(conf);
    if (!format) throw fail(`invalid datestr format: ${conf}`);
    return { field, unit: "ns", format };
  }
  throw fail("identity time index type must be one of epoch, datestr");
}

/** Flattens `src` into `out` with dotted keys (§10.1 step 1). */
export function flattenInto(src: Entry, out: Entry, maxLevels: number, prefix = "", level = 1): void {
  for (const k in src) {
    const v = src[k];
    const key = prefix ? prefix + "." + k : k;
    if (Array.isArray(v)) out[key] = toCompactJson(v, false);
    else if (isObject(v)) {
      if (level < maxLevels) flattenInto(v, out, maxLevels, key, level + 1);
      else out[key] = toCompactJson(v, false);
    } else out[key] = v;
  }
}

function needsFlatten(e: Entry): boolean {
  for (const k in e) {
    const v = e[k];
    if (typeof v === "object" && v !== null && !(v instanceof Timestamp)) return true;
  }
  return false;
}

class IdentityPipeline implements Pipeline {
  readonly name = "greptime_identity";
  readonly mode = "identity" as const;
  readonly transform = [];
  private readonly maxLevels: number;
  private readonly custom?: CustomTimeIndex;
  /** Keys never auto-typed: the input `greptime_timestamp` and the custom time index field. */
  private readonly skip: ReadonlySet<string>;

  constructor(private readonly params: IdentityParams) {
    const m = params.maxNestedLevels;
    this.maxLevels = m !== undefined && Number.isInteger(m) && m > 0 ? m : 10;
    if (params.customTimeIndex) this.custom = parseCustomTimeIndex(params.customTimeIndex);
    this.skip = new Set(["greptime_timestamp", ...(this.custom ? [this.custom.field] : [])]);
  }

  run(records: unknown[], ctx: RunContext): PipelineResult {
    const timeName = this.custom?.field ?? "greptime_timestamp";
    const unit = this.custom?.unit ?? "ns";
    const collector = () =>
      new RowCollector(
        [{ name: timeName, type: timestampType(unit), semantic: "TIMESTAMP" }],
        ctx.existingColumns?.(ctx.table),
      );
    let skipped = 0;
    // One arrival time per request: rows without their own time share it.
    const now = nowNs();
    // The per-shape plan flattens without copying; custom time index fields take the general path.
    const shapes = this.custom ? null : new ShapePlans(this.maxLevels, this.skip);
    const columnar = shapes && identityColumns(records, ctx.table, now, shapes, collector());
    if (columnar) return { batches: [columnar], skipped: 0 };
    const rows = collector();
    for (const rec of records) {
      try {
        if (!isObject(rec)) throw illegalState("Top level value must be map");
        const leaves = shapes?.leavesOf(rec);
        if (leaves) {
          const row: Value[] = new Array(rows.columns.length);
          row[0] = now;
          for (let i = 0; i < leaves.length; i++) {
            rows.autoTypeValue(leaves[i].name, leafValue(rec, leaves[i]), row);
          }
          rows.push(row, ctx.table, undefined);
          continue;
        }
        let entry: Entry = rec;
        if (needsFlatten(entry)) {
          const flat: Entry = {};
          flattenInto(entry, flat, this.maxLevels);
          entry = flat;
        }
        // greptime_table_suffix is ignored by identity: only the options matter.
        const hints = takeHints(entry);
        const row: Value[] = new Array(rows.columns.length);
        row[0] = this.timeCell(entry, unit, now);
        rows.autoTypeInto(entry, row, this.skip);
        rows.push(row, ctx.table, hints.options);
      } catch (e) {
        if (!ctx.skipError) throw e;
        skipped++;
      }
    }
    return { batches: rows.finish().filter((b) => b.rows.length > 0), skipped };
  }

  private timeCell(entry: Entry, unit: "s" | "ms" | "us" | "ns", now: bigint): Value {
    const c = this.custom;
    if (!c) return now;
    const v = entry[c.field];
    try {
      if (c.format) {
        if (typeof v !== "string") {
          throw unexpected(`Failed to cast type, msg: expect string value for datestr time index, got ${v}`);
        }
        const r = parseStrftime(v, c.format);
        if (!r || !r.zoned) throw unexpected(`Failed to cast type, msg: failed to parse ${v} as datestr`);
        return timestampCellOf(new Timestamp(r.ms, r.subMs), "ns");
      }
      return timeIndexCell(v, unit);
    } catch (e) {
      if (this.params.ignoreErrors) return timestampCell(now, unit);
      throw e;
    }
  }
}

/** The built-in identity pipeline with request parameters. */
export function identityPipeline(params: IdentityParams = {}): Pipeline {
  return new IdentityPipeline(params);
}
