/**
 * `vrl`: runs a VRL program over each entry (reference §4.18). Compiling checks GreptimeDB's result
 * rules (an object or array, no regex); running turns the program's result into the new entry: an
 * object continues, `null` drops the entry, an array fans out (each element checked by the pipeline).
 *
 * The engine's values (plain objects, number integers, `Timestamp`) differ from VRL's (Map objects,
 * bigint integers, its own timestamp class), so entries are converted on the way in and out.
 */
import { PetrelError } from "../../src/common/errors.ts";
import { execError } from "../errors.ts";
import { isInteger, Timestamp } from "../value.ts";
import {
  checkPipelineResult,
  compileVrl,
  type VrlObject,
  VrlRegex,
  VrlRuntimeError,
  VrlTimestamp,
  type VrlValue,
} from "../vrl/mod.ts";
import type { Processor, ProcessorCompiler } from "./common.ts";

/** Engine value → VRL value (objects become Maps, integers bigints, timestamps VRL timestamps). */
function toVrl(v: unknown): VrlValue {
  if (typeof v === "number") {
    if (isInteger(v)) return BigInt(v);
    return Number.isFinite(v) ? v : null;
  }
  if (typeof v !== "object" || v === null) return v === undefined ? null : v as VrlValue;
  if (v instanceof Timestamp) return new VrlTimestamp(v.ns);
  if (Array.isArray(v)) return v.map(toVrl);
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  const m: VrlObject = new Map();
  for (const k in v as Record<string, unknown>) m.set(k, toVrl((v as Record<string, unknown>)[k]));
  return m;
}

/** VRL value → engine value. */
function fromVrl(v: VrlValue): unknown {
  if (typeof v === "bigint") return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
  if (typeof v !== "object" || v === null) return v;
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v) out[k] = fromVrl(x);
    return out;
  }
  if (Array.isArray(v)) return v.map(fromVrl);
  if (v instanceof VrlTimestamp) return Timestamp.fromNs(v.ns);
  if (v instanceof VrlRegex) throw execError("Please don't use regex in Vrl script");
  return v;
}

/** Compiles a `vrl` processor. */
export const compileVrlProcessor: ProcessorCompiler = (o): Processor => {
  const source = o.string("source");
  if (source === undefined) return o.fail("Failed to compile VRL, source is required", "source");
  let program: ReturnType<typeof compileVrl>;
  try {
    program = compileVrl(source);
  } catch (e) {
    if (!(e instanceof PetrelError)) throw e;
    return o.fail(`Failed to compile VRL, ${e.message}`, "source");
  }
  const problem = checkPipelineResult(program);
  if (problem) return o.fail(problem, "source");
  return {
    name: "vrl",
    wholeEntry: true,
    exec(entry) {
      let out: VrlValue;
      try {
        out = program.run(toVrl(entry), new Map());
      } catch (e) {
        if (e instanceof VrlRuntimeError) throw execError(`Failed to execute VRL, ${e.message}`);
        throw e;
      }
      return fromVrl(out);
    },
  };
};
