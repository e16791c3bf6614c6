/**
 * Compaction of the metric engine's closed windows into chunks (`metric_chunks.ts`), in the
 * background on the writer's thread, a page at a time so no request waits long behind it: a window
 * is read from the samples table 20k samples at a time into per-series buffers, then its chunks are
 * written in one transaction. Nothing is deleted from the samples
 * table, so a job cut short (a crash, a close, a write to the window meanwhile) loses nothing:
 * the window is simply compacted again.
 *
 * A window closes `GRACE_MS` after its end; a compacted window that takes a late sample is marked
 * dirty and compacted again. Windows are compacted oldest first.
 */
import { Logger } from "../common/log.ts";
import type { DatabaseHandle } from "./database.ts";
import type { SeriesBuffer } from "./metric_buffer.ts";
import { nextWindowWithSamples, type PageCursor, readPage, WINDOW_MS, writeWindow } from "./metric_chunks.ts";
import { beginJob, endJob, type JobMark, metricHead, windowCompacted } from "./metric_head.ts";
import { isPhysicalTable } from "./metric_layout.ts";
import type { TableMeta } from "./table.ts";

const log = new Logger("petrel::storage::compaction");

/** How long after its end a window takes late samples before it is compacted. */
export const GRACE_MS = 5 * 60_000;
/** How many samples one step reads (~10 ms of the writer's thread). */
const PAGE_ROWS = 20_000;
/** How often closed windows are looked for when no write prompts it. */
const CHECK_EVERY_MS = 60_000;

/** The start of the next window of a physical table to compact, or null when none is due. */
export function dueWindow(handle: DatabaseHandle, physical: TableMeta, now: number): number | null {
  const head = metricHead(handle, physical);
  let dirty: number | null = null;
  for (const w of head.state.dirty) if (dirty === null || w < dirty) dirty = w;
  if (dirty !== null) return dirty;
  const w = nextWindowWithSamples(handle, physical, head.state.upto);
  return w !== null && w + WINDOW_MS <= now - GRACE_MS ? w : null;
}

/** One window being compacted, a page per `step()` (exported for tests of writes racing a job). */
export class CompactionJob {
  private cursor: PageCursor | null;
  private readonly series = new Map<number, SeriesBuffer>();
  private readonly mark: JobMark;

  constructor(
    private readonly handle: DatabaseHandle,
    private readonly name: string,
    readonly start: number,
  ) {
    this.cursor = { ts: start - 1, id: Number.MAX_SAFE_INTEGER };
    this.mark = beginJob(handle, this.physical()!, start);
  }

  private physical(): TableMeta | undefined {
    const t = this.handle.conn.isOpen ? this.handle.getTable(this.name) : undefined;
    return isPhysicalTable(t) ? t : undefined;
  }

  /** Does one page of work; true when the job is over (done, or its table or database is gone). */
  step(): boolean {
    const physical = this.physical();
    if (physical === undefined) return true;
    if (this.cursor !== null) {
      this.cursor = readPage(
        this.handle,
        physical,
        this.cursor,
        this.start + WINDOW_MS,
        PAGE_ROWS,
        this.series,
      );
      return false;
    }
    endJob(this.handle, physical);
    const head = metricHead(this.handle, physical);
    const gaps = writeWindow(this.handle, physical, this.start, this.series, head.state, this.mark.touched);
    windowCompacted(this.handle, physical, head, this.start, this.mark.touched, this.start + WINDOW_MS, gaps);
    return true;
  }
}

/** Compacts every due window of a physical table now, synchronously (tests, benchmarks, tools). */
export function compactNow(handle: DatabaseHandle, physical: TableMeta, now = Date.now()): number {
  let windows = 0;
  for (let w = dueWindow(handle, physical, now); w !== null; w = dueWindow(handle, physical, now)) {
    const job = new CompactionJob(handle, physical.name, w);
    while (!job.step());
    windows++;
  }
  return windows;
}

/**
 * Runs compaction in the background for the databases of one storage: after writes (debounced),
 * every minute, and never keeping the process alive.
 */
export class MetricCompactor {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private running = false;
  private stopped = false;
  /** Windows compacted since start (for `/metrics`). */
  windows = 0;

  constructor(private readonly databases: () => Iterable<DatabaseHandle>) {}

  /** Starts the periodic check. */
  start(): void {
    this.ticker ??= setInterval(() => this.soon(0), CHECK_EVERY_MS);
    Deno.unrefTimer(this.ticker);
  }

  /** A metric write happened: compaction may have become due. */
  wrote(): void {
    this.soon(1000);
  }

  /** Stops for good (the storage closes); a job in progress is abandoned, which loses nothing. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.ticker);
    clearTimeout(this.timer);
  }

  private soon(ms: number): void {
    if (this.stopped || this.running || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run().catch((e) => log.error("compaction failed", { error: String((e as Error)?.stack ?? e) }));
    }, ms);
    Deno.unrefTimer(this.timer);
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      for (const handle of [...this.databases()]) {
        for (const t of handle.listTables()) {
          if (!isPhysicalTable(t)) continue;
          // Each window once per run: one that writes keep reaching waits for the next run.
          const done = new Set<number>();
          for (let w = this.due(handle, t); w !== null && !done.has(w); w = this.due(handle, t)) {
            done.add(w);
            const job = new CompactionJob(handle, t.name, w);
            for (;;) {
              const began = performance.now();
              if (job.step()) {
                this.windows++;
                break;
              }
              // At most half the writer's thread: requests run in between.
              await pause(performance.now() - began);
              if (this.stopped) return;
            }
          }
        }
      }
    } finally {
      this.running = false;
    }
  }

  private due(handle: DatabaseHandle, t: TableMeta): number | null {
    return this.stopped || !handle.conn.isOpen ? null : dueWindow(handle, t, Date.now());
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    Deno.unrefTimer(timer);
  });
}

/** Compacts every closed window of every physical metric table of the databases now; returns how many. */
export function compactAllNow(handles: Iterable<DatabaseHandle>, nowMs: number): number {
  let windows = 0;
  for (const h of handles) {
    for (const t of h.listTables()) if (isPhysicalTable(t)) windows += compactNow(h, t, nowMs);
  }
  return windows;
}
