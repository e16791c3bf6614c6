/**
 * Heap profiling with V8's sampling heap profiler: once activated, V8 samples allocations (about one
 * per `SAMPLING_INTERVAL` bytes) and a dump lists the sampled objects still alive, by allocating
 * stack. Like the CPU sampler it belongs to the isolate, so its state is per process.
 */
import { InspectorSession } from "./inspector.ts";
import type { StackProfile } from "./model.ts";
import { fromHeapProfile, type V8HeapProfile } from "./v8_profiles.ts";

/** Bytes between samples on average: jemalloc's default `lg_prof_sample` (2^19), which GreptimeDB uses. */
export const SAMPLING_INTERVAL = 512 * 1024;

/** Raised when a heap profile is asked for while heap profiling is off. */
export class HeapProfilingInactiveError extends Error {
  constructor() {
    super("Heap profiling is not active: POST /debug/prof/mem/activate first, then dump");
    this.name = "HeapProfilingInactiveError";
  }
}

class HeapProfiling {
  private session: InspectorSession | null = null;
  private activatedAt = 0;
  private queue: Promise<unknown> = Promise.resolve();
  /** GreptimeDB's jemalloc `gdump` switch; V8 has no equivalent, so Petrel only keeps the flag. */
  gdump = false;

  /** Whether allocations are being sampled. */
  get active(): boolean {
    return this.session !== null;
  }

  // Activate, deactivate and dump run one at a time, in order.
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => {});
    return next;
  }

  /** Starts sampling (no-op when already active). */
  activate(): Promise<void> {
    return this.serial(async () => {
      if (this.session) return;
      const session = new InspectorSession();
      try {
        await session.post("HeapProfiler.enable");
        await session.post("HeapProfiler.startSampling", { samplingInterval: SAMPLING_INTERVAL });
      } catch (e) {
        session.close();
        throw e;
      }
      this.session = session;
      this.activatedAt = Date.now();
    });
  }

  /** Stops sampling and forgets the samples (no-op when inactive). */
  deactivate(): Promise<void> {
    return this.serial(async () => {
      const session = this.session;
      if (!session) return;
      this.session = null;
      try {
        await session.post("HeapProfiler.stopSampling");
        await session.post("HeapProfiler.disable");
      } finally {
        session.close();
      }
    });
  }

  /** The live sampled allocations since activation; throws `HeapProfilingInactiveError` when inactive. */
  dump(): Promise<StackProfile> {
    return this.serial(async () => {
      if (!this.session) throw new HeapProfilingInactiveError();
      const { profile } = await this.session.post<{ profile: V8HeapProfile }>(
        "HeapProfiler.getSamplingProfile",
      );
      return fromHeapProfile(profile, this.activatedAt, Date.now() - this.activatedAt);
    });
  }
}

/** The process's heap profiling state. */
export const heapProfiling: HeapProfiling = new HeapProfiling();
