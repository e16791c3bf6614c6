/**
 * Line protocol (InfluxDB) into tables (reference §6.8, §7.1): one table per measurement, created
 * with GreptimeDB's semantic stamps and merge mode. A bad line rejects the whole request before
 * anything is written: parsing finishes before the one storage transaction.
 */
import { invalidArguments } from "../common/errors.ts";
import type { TableOptions, WriteBatch } from "../common/rows.ts";
import { enterWrite, paceWrite } from "../protocols/lineproto/stream/pacing.ts";
import { parseLineProtocolBody } from "../protocols/lineproto/stream/pool.ts";
import type { Storage } from "../storage/mod.ts";

const SEMANTIC: TableOptions = {
  "greptime.semantic.signal_type": "metric",
  "greptime.semantic.source": "influxdb",
};

/** One line-protocol write request. */
export interface LineProtocolWrite {
  db: string;
  /** The body, content encoding already undone. */
  body: Uint8Array;
  /** `precision` as given (`n`, `ns`, `u`, `ms`, `s`, `m`, `h`…); absent or empty means ns. */
  precision?: string;
  hints: Record<string, string>;
  /** `[influxdb] default_merge_mode`. */
  defaultMergeMode: string;
}

/**
 * Table options a batch carries for creation: the semantic stamps and the merge mode (the hint, else
 * `[influxdb] default_merge_mode`), spelled out on a `physical` create so storage takes it as given
 * (its `last_non_null` create type would force `last_non_null`). Append mode keeps no merge mode.
 */
function influxCreateOptions(
  batches: WriteBatch[],
  hints: Record<string, string>,
  defaultMergeMode: string,
): void {
  const appendMode = hints.append_mode?.trim().toLowerCase() === "true";
  const mergeMode = (hints.merge_mode ?? defaultMergeMode).trim().toLowerCase();
  if (mergeMode !== "last_row" && mergeMode !== "last_non_null") {
    throw invalidArguments(`Invalid value for table option merge_mode: '${hints.merge_mode}'`);
  }
  const options = appendMode ? SEMANTIC : { ...SEMANTIC, merge_mode: mergeMode };
  for (const b of batches) {
    b.options = options;
    b.createType = "physical";
  }
}

/** Parses and writes a line-protocol body in one transaction; returns the rows written. */
export async function ingestLineProtocol(storage: Storage, w: LineProtocolWrite): Promise<number> {
  const leave = enterWrite(w.body.byteLength);
  try {
    const precision = w.precision === "" ? undefined : w.precision;
    const now = BigInt(Date.now()) * 1_000_000n; // for lines without a timestamp
    const batches = await parseLineProtocolBody(w.body, precision, now, (stop) => storage.onClose(stop));
    await paceWrite(w.body.byteLength);
    influxCreateOptions(batches, w.hints, w.defaultMergeMode);
    return storage.write(w.db, batches, { hints: w.hints, accommodateExistingSchema: true });
  } finally {
    leave();
  }
}
