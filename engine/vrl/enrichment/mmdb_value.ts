/**
 * MMDB values as VRL values. `mmdb-lib` decodes doubles, floats and unsigned integers alike to JS
 * numbers; the reader's decoder is patched to mark doubles and floats so they stay VRL floats.
 */

import type { Reader } from "mmdb-lib";
import { bytesString } from "../bytes.ts";
import type { VrlValue } from "../value.ts";

/** Marks an MMDB double or float, which `mmdb-lib` would otherwise hand back as a plain JS number. */
class MmdbFloat {
  constructor(readonly value: number) {}
}

/** A decoded record: what `mmdb-lib` returns, with floats marked. */
export type MmdbRecord = unknown;

/** An MMDB value as VRL's: maps → objects, unsigned and int32 → integers, doubles → floats. */
export function toVrl(v: MmdbRecord): VrlValue {
  if (v instanceof MmdbFloat) return v.value;
  if (typeof v === "number") return BigInt(v);
  // uint64/uint128 beyond i64 wrap, as a Rust `as i64` would.
  if (typeof v === "bigint") return BigInt.asIntN(64, v);
  if (typeof v === "string" || typeof v === "boolean") return v;
  if (v instanceof Uint8Array) return bytesString(v);
  if (Array.isArray(v)) return v.map(toVrl);
  if (v && typeof v === "object") {
    return new Map(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, toVrl(x)]));
  }
  return null;
}

/** Makes `mmdb-lib`'s decoder (pinned version; private fields) keep doubles and floats apart from integers. */
export function markFloats(reader: Reader<never>): void {
  // deno-lint-ignore no-explicit-any
  const decoder = (reader as any).decoder;
  if (typeof decoder?.decodeDouble !== "function" || typeof decoder.decodeFloat !== "function") {
    throw new Error("mmdb-lib's decoder changed: floats cannot be told from integers");
  }
  const double = decoder.decodeDouble.bind(decoder), float = decoder.decodeFloat.bind(decoder);
  decoder.decodeDouble = (offset: number) => new MmdbFloat(double(offset));
  decoder.decodeFloat = (offset: number) => new MmdbFloat(float(offset));
}
