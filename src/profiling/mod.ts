/**
 * Profiling the running process (`/debug/prof/…`): request parameters, the three outputs (gzipped
 * pprof, a top-N text table, a flamegraph SVG) and the reading of uploaded profiles.
 */
import { invalidArguments } from "../common/errors.ts";
import { renderFlamegraph } from "./flamegraph.ts";
import type { StackProfile } from "./model.ts";
import { decodePprof, encodePprof } from "./pprof.ts";
import { renderText } from "./text.ts";
import { fromCpuProfile, fromHeapProfile, isCpuProfile, isHeapProfile } from "./v8_profiles.ts";

export { cpuProfileRunning, profileCpu, ProfilerBusyError } from "./cpu.ts";
export { heapProfiling, HeapProfilingInactiveError } from "./heap.ts";
export type { StackProfile } from "./model.ts";

/** The output formats. */
export type ProfileOutput = "proto" | "text" | "flamegraph";

const OUTPUTS: readonly ProfileOutput[] = ["proto", "text", "flamegraph"];

/** Longest CPU profile one request may ask for. */
export const MAX_SECONDS = 300;
/** Highest sampling frequency (V8 cannot sample much faster than every 100 µs anyway). */
export const MAX_FREQUENCY = 10_000;

/** `output` (default `def`), or a 400 naming the parameter and its values. */
export function parseOutput(params: URLSearchParams, def: ProfileOutput): ProfileOutput {
  const raw = params.get("output");
  if (raw === null || raw === "") return def;
  const v = raw.toLowerCase() as ProfileOutput;
  if (!OUTPUTS.includes(v)) {
    throw invalidArguments(
      `Invalid request parameter: output must be one of proto, text, flamegraph, got "${raw}"`,
    );
  }
  return v;
}

/** The parameters of `POST /debug/prof/cpu`: `seconds` (default 5), `frequency` (default 99), `output` (proto). */
export function parseCpuParams(params: URLSearchParams): {
  seconds: number;
  frequency: number;
  output: ProfileOutput;
} {
  const num = (name: string, def: number, max: number, integer: boolean): number => {
    const raw = params.get(name);
    if (raw === null || raw === "") return def;
    const n = Number(raw.trim());
    if (!Number.isFinite(n) || n <= 0 || n > max || (integer && !Number.isInteger(n))) {
      throw invalidArguments(
        `Invalid request parameter: ${name} must be ${
          integer ? "an integer" : "a number"
        } above 0 and at most ` +
          `${max}, got "${raw}"`,
      );
    }
    return n;
  };
  return {
    seconds: num("seconds", 5, MAX_SECONDS, false),
    frequency: num("frequency", 99, MAX_FREQUENCY, true),
    output: parseOutput(params, "proto"),
  };
}

/** An encoded profile. */
export interface RenderedProfile {
  body: Uint8Array<ArrayBuffer> | string;
  contentType: string;
  /** A download name for binary outputs. */
  filename?: string;
}

/** Encodes a profile in one of the outputs; `name` titles the text and SVG and names the file. */
export function renderProfile(p: StackProfile, output: ProfileOutput, name: string): RenderedProfile {
  if (output === "proto") {
    return {
      body: encodePprof(p) as Uint8Array<ArrayBuffer>,
      contentType: "application/octet-stream",
      filename: `${name.toLowerCase().replace(/[^a-z0-9]+/g, "_")}.pb.gz`,
    };
  }
  if (output === "text") return { body: renderText(p, name), contentType: "text/plain; charset=utf-8" };
  return { body: renderFlamegraph(p, name), contentType: "image/svg+xml" };
}

const FORMATS_READ = "a pprof profile (profile.proto, gzipped or not), a V8 .heapprofile JSON " +
  "(HeapProfiler.getSamplingProfile) or a V8 .cpuprofile JSON";

/** Reads an uploaded profile in any format Petrel knows; a 400 naming the formats otherwise. */
export function decodeUploadedProfile(bytes: Uint8Array): StackProfile {
  if (bytes.length === 0) {
    throw invalidArguments(`Invalid request parameter: empty body; upload ${FORMATS_READ}`);
  }
  const first = bytes.find((b) => b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d);
  if (first === 0x7b /* { */) {
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(bytes));
    } catch (e) {
      throw invalidArguments(
        `Invalid request parameter: the upload is not valid JSON (${
          (e as Error).message
        }); upload ${FORMATS_READ}`,
      );
    }
    if (isHeapProfile(json)) return fromHeapProfile(json);
    if (isCpuProfile(json)) return fromCpuProfile(json);
    throw invalidArguments(`Invalid request parameter: unrecognised JSON profile; upload ${FORMATS_READ}`);
  }
  const pprof = decodePprof(bytes);
  if (pprof !== null) return pprof;
  throw invalidArguments(`Invalid request parameter: unrecognised profile format; upload ${FORMATS_READ}`);
}
