/**
 * `vrl`: the registration hook for the VRL interpreter (reference §4.18). Until a compiler is
 * registered with `setVrlCompiler`, uploading a pipeline that uses `vrl` fails with a clear error.
 *
 * The engine's values (plain objects, number integers, `Timestamp`) differ from VRL's (Map objects,
 * bigint integers, its own timestamp class), so entries are converted on the way in and out. The
 * one line that plugs `engine/vrl/` in:
 *
 *   setVrlCompiler(compileVrl, { check: checkPipelineResult, timestamp: (ns) => new VrlTimestamp(ns) });
 */
import { PetrelError } from "../../src/common/errors.ts";
import { execError } from "../errors.ts";
import { isInteger, Timestamp } from "../value.ts";
import type { Processor, ProcessorCompiler } from "./common.ts";

/** A compiled VRL program: runs on one event and returns the program's result value. */
export interface VrlRunner {
  run(event: never): unknown;
}

/** Compiles VRL source; throws (any Error) with the diagnostic text on compile errors. */
export type VrlCompiler = (source: string) => VrlRunner;

/** How the VRL implementation wants values; without it entries are passed as plain JS objects. */
export interface VrlBindingOptions {
  /** Upload-time result check (`Vrl script should return object or array…`); null when fine. */
  check?: (program: never) => string | null;
  /** Builds the VRL timestamp for `ns`; when given, entries are converted to VRL values (Maps, bigints). */
  timestamp?: (ns: bigint) => unknown;
}

let compiler: VrlCompiler | undefined;
let binding: VrlBindingOptions = {};

/** Plugs the VRL implementation in (or out, with `undefined`). */
export function setVrlCompiler(fn: VrlCompiler | undefined, options: VrlBindingOptions = {}): void {
  compiler = fn;
  binding = options;
}

/** Engine value → VRL value (objects become Maps, integers bigints, timestamps VRL timestamps). */
function toVrl(v: unknown, ts: (ns: bigint) => unknown): unknown {
  if (typeof v === "number") {
    if (isInteger(v)) return BigInt(v);
    return Number.isFinite(v) ? v : null;
  }
  if (typeof v !== "object" || v === null) return v === undefined ? null : v;
  if (v instanceof Timestamp) return ts(v.ns);
  if (Array.isArray(v)) return v.map((x) => toVrl(x, ts));
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  const m = new Map<string, unknown>();
  for (const k in v as Record<string, unknown>) m.set(k, toVrl((v as Record<string, unknown>)[k], ts));
  return m;
}

/** VRL value → engine value. VRL timestamps are recognised by their `ns` bigint. */
function fromVrl(v: unknown): unknown {
  if (typeof v === "bigint") return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
  if (typeof v !== "object" || v === null) return v;
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v) out[k] = fromVrl(x);
    return out;
  }
  if (Array.isArray(v)) return v.map(fromVrl);
  const ns = (v as { ns?: unknown }).ns;
  if (typeof ns === "bigint") return Timestamp.fromNs(ns);
  if ((v as { re?: unknown }).re instanceof RegExp) throw execError("Please don't use regex in Vrl script");
  return v;
}

/** Compiles a `vrl` processor. */
export const compileVrlProcessor: ProcessorCompiler = (o): Processor => {
  const source = o.string("source");
  if (source === undefined) return o.fail("Failed to compile VRL, source is required", "source");
  if (!compiler) return o.fail("Failed to compile VRL, VRL not available in this build", "source");
  let program: VrlRunner;
  try {
    program = compiler(source);
  } catch (e) {
    const msg = (e as Error).message ?? String(e);
    return o.fail(msg.startsWith("Failed to compile VRL") ? msg : `Failed to compile VRL, ${msg}`, "source");
  }
  const problem = binding.check?.(program as never);
  if (problem) return o.fail(problem, "source");
  const ts = binding.timestamp;
  return {
    name: "vrl",
    wholeEntry: true,
    exec(entry) {
      let out: unknown;
      try {
        out = program.run((ts ? toVrl(entry, ts) : entry) as never);
      } catch (e) {
        const msg = (e as Error).message ?? String(e);
        if (e instanceof PetrelError && msg.startsWith("Failed to execute VRL")) throw e;
        throw execError(`Failed to execute VRL, ${msg}`);
      }
      return ts ? fromVrl(out) : out;
    },
  };
};
