/**
 * CPU profiling of the running process with V8's sampling profiler: one profile at a time (the
 * sampler is per isolate, so the guard is per process, not per server).
 */
import { InspectorSession } from "./inspector.ts";
import type { StackProfile } from "./model.ts";
import { fromCpuProfile, type V8CpuProfile } from "./v8_profiles.ts";

/** Raised when a profile is asked for while another one is running. */
export class ProfilerBusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProfilerBusyError";
  }
}

/** How to sample. */
export interface CpuProfileOptions {
  seconds: number;
  /** Samples per second. */
  frequency: number;
  /** Stops sampling early (the request went away or timed out); the profile so far is returned. */
  signal?: AbortSignal;
}

let running = false;

/** Whether a CPU profile is being taken right now. */
export function cpuProfileRunning(): boolean {
  return running;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Samples the main isolate for `seconds` at `frequency` Hz; throws `ProfilerBusyError` if already running. */
export async function profileCpu(opts: CpuProfileOptions): Promise<StackProfile> {
  if (running) throw new ProfilerBusyError("A CPU profile is already being taken; try again when it is done");
  running = true;
  const session = new InspectorSession();
  try {
    const startedAt = Date.now();
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", {
      interval: Math.max(1, Math.round(1e6 / opts.frequency)),
    });
    await session.post("Profiler.start");
    await sleep(opts.seconds * 1000, opts.signal);
    const { profile } = await session.post<{ profile: V8CpuProfile }>("Profiler.stop");
    await session.post("Profiler.disable");
    const out = fromCpuProfile(profile, startedAt);
    // The period is what was asked for, as pprof expects, not what the samples happened to average.
    out.period = Math.round(1e9 / opts.frequency);
    return out;
  } finally {
    session.close();
    running = false;
  }
}
