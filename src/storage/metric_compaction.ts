/**
 * Compaction of the metric engine's closed windows into chunks (`metric_chunks.ts`), in the
 * background. A window is read from the samples table and encoded as chunks by a worker thread
 * (`compaction_worker.ts`) on a read-only connection, in one read transaction begun after the job
 * started watching writes to the window; the writer's thread then writes the chunks in one
 * transaction. Where no worker can run (an in-memory storage, a worker that failed), the writer's
 * thread reads the window itself, a page at a time so no request waits long behind it (20k samples
 * a step). Either way nothing is deleted from the samples table, so a job cut short (a crash, a
 * close, a write to the window meanwhile) loses nothing: the window is simply compacted again.
 *
 * A window closes `GRACE_MS` after its end; a compacted window that takes a late sample is marked
 * dirty and compacted again. Windows are compacted oldest first.
 */
import { Logger } from "../common/log.ts";
import { WorkerPool, WorkerUnavailable } from "../common/worker_pool.ts";
import type { DatabaseHandle } from "./database.ts";
import { flushGroupCommit } from "./group_commit.ts";
import type { SeriesBuffer } from "./metric_buffer.ts";
import {
  type EncodedWindow,
  nextWindowWithSamples,
  type PageCursor,
  readPage,
  WINDOW_MS,
  writeWindow,
} from "./metric_chunks.ts";
import { beginJob, endJob, type JobMark, metricHead, windowCompacted } from "./metric_head.ts";
import { isPhysicalTable } from "./metric_layout.ts";
import { encodeWindow, type WindowReply, type WindowRequest } from "./metric_window.ts";
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

/** The compaction worker thread: one, started by a job, stopped a minute after the last. */
export type CompactionPool = WorkerPool<WindowRequest, WindowReply>;

function compactionPool(): CompactionPool {
  return new WorkerPool<WindowRequest, WindowReply>({
    name: "compaction",
    url: new URL("./compaction_worker.ts", import.meta.url),
    runtime: "node",
    maxThreads: 1,
    perThread: 1,
    idleMs: 60_000,
  });
}

/**
 * One window being compacted: read and encoded by a worker (`offThread`), or a page per `step()`
 * on this thread (exported for tests of writes racing a job).
 */
export class CompactionJob {
  private cursor: PageCursor | null;
  private readonly series = new Map<number, SeriesBuffer>();
  private readonly mark: JobMark;
  private readonly began: TableMeta;

  constructor(
    private readonly handle: DatabaseHandle,
    private readonly name: string,
    readonly start: number,
  ) {
    this.cursor = { ts: start - 1, id: Number.MAX_SAFE_INTEGER };
    this.began = this.physical()!;
    this.mark = beginJob(handle, this.began, start);
  }

  /**
   * Lets go of the job's mark once it is over, however it ended (done, its table gone, an error):
   * a mark left behind would read as a job running for good (size retention waits for none).
   */
  release(): void {
    endJob(this.handle, this.began, this.mark);
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
    this.finish(physical, encodeWindow(this.series));
    return true;
  }

  /**
   * Reads and encodes the whole window on the pool's worker, then writes its chunks here; false when
   * no worker can (an in-memory database, the pool broken or stopped): then `step()` does the job.
   * The worker's read transaction begins after this job's mark was set and acknowledged skip_wal rows
   * were committed, so every sample is either in what it reads or marks the window as still dirty.
   */
  async offThread(pool: CompactionPool): Promise<boolean> {
    const physical = this.physical();
    const { main, nowal } = this.handle.files;
    if (physical === undefined || this.cursor === null || !main || !nowal || pool.broken) return false;
    flushGroupCommit(this.handle);
    let reply: WindowReply;
    try {
      reply = await pool.request({
        db: this.handle.name,
        main,
        nowal,
        table: physical.name,
        tableId: physical.id,
        start: this.start,
      });
    } catch (e) {
      if (e instanceof WorkerUnavailable) return false;
      throw e;
    }
    const now = this.physical();
    if (now === undefined || now.id !== physical.id || reply.gone) return true;
    if (reply.error !== undefined) throw new Error(`compaction worker: ${reply.error}`);
    this.cursor = null;
    this.finish(now, reply.window!);
    return true;
  }

  private finish(physical: TableMeta, encoded: EncodedWindow): void {
    endJob(this.handle, physical, this.mark);
    const head = metricHead(this.handle, physical);
    const gaps = writeWindow(this.handle, physical, this.start, encoded, head.state, this.mark.touched);
    windowCompacted(this.handle, physical, head, this.start, this.mark.touched, this.start + WINDOW_MS, gaps);
  }
}

/** Compacts every due window of a physical table now, synchronously (tests, benchmarks, tools). */
export function compactNow(handle: DatabaseHandle, physical: TableMeta, now = Date.now()): number {
  let windows = 0;
  for (let w = dueWindow(handle, physical, now); w !== null; w = dueWindow(handle, physical, now)) {
    const job = new CompactionJob(handle, physical.name, w);
    try {
      while (!job.step());
    } finally {
      job.release();
    }
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
  private running: Promise<number> | null = null;
  private stopped = false;
  private readonly pool = compactionPool();
  /** Windows compacted since start (for `/metrics`). */
  windows = 0;
  /** Of those, the windows read and encoded on the worker thread. */
  onWorker = 0;

  constructor(private readonly databases: () => Iterable<DatabaseHandle>) {}

  /**
   * Compacts every due window now, as the background does (after a run in progress); returns how
   * many, and how many of them on the worker thread.
   */
  async compactDue(): Promise<{ windows: number; onWorker: number }> {
    // The worker and the pauses do not keep the process alive; a caller awaiting this wants it to be.
    const alive = setInterval(() => {}, 3_600_000);
    try {
      while (this.running !== null) await this.running.catch(() => 0);
      const onWorker = this.onWorker;
      return { windows: await this.run(), onWorker: this.onWorker - onWorker };
    } finally {
      clearInterval(alive);
    }
  }

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
    this.pool.stop();
  }

  private soon(ms: number): void {
    if (this.stopped || this.running !== null || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.running !== null) return; // a `compactDue` started meanwhile
      this.run().catch((e) => log.error("compaction failed", { error: String((e as Error)?.stack ?? e) }));
    }, ms);
    Deno.unrefTimer(this.timer);
  }

  private run(): Promise<number> {
    const running = this.running = this.runAll().finally(() => this.running = null);
    return running;
  }

  private async runAll(): Promise<number> {
    let windows = 0;
    for (const handle of [...this.databases()]) {
      for (const t of handle.listTables()) {
        if (!isPhysicalTable(t)) continue;
        // Each window once per run: one that writes keep reaching waits for the next run.
        const done = new Set<number>();
        for (let w = this.due(handle, t); w !== null && !done.has(w); w = this.due(handle, t)) {
          done.add(w);
          const job = new CompactionJob(handle, t.name, w);
          try {
            if (await job.offThread(this.pool)) this.onWorker++;
            else {
              if (this.stopped) return windows;
              for (;;) {
                const began = performance.now();
                if (job.step()) break;
                // At most half the writer's thread: requests run in between.
                await pause(performance.now() - began);
                if (this.stopped) return windows;
              }
            }
          } finally {
            job.release();
          }
          this.windows++;
          windows++;
          if (this.stopped) return windows;
        }
      }
    }
    return windows;
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
