/**
 * The storage's background upkeep of its open databases: WAL checkpoints after writes, the ttl and
 * size-retention sweeper, and compaction of metric tables. `Storage` delegates to one `Upkeep`.
 */
import { Checkpointer } from "./checkpointer.ts";
import type { DatabaseHandle } from "./database.ts";
import { compactAllNow, MetricCompactor } from "./metric_compaction.ts";
import { enforceDiskLimits, RetentionCounters, type RetentionDrop } from "./size_retention.ts";
import { startSweeper, sweepExpiredTables } from "./ttl_sweep.ts";

/** Checkpointer, sweeper, compactor and retention counters over the databases `dbs` yields. */
export class Upkeep {
  private sweeper: number | undefined;
  private readonly lastSweep = new Map<string, number>();
  private readonly checkpointer = new Checkpointer();
  private readonly compactor: MetricCompactor;
  private readonly retention = new RetentionCounters();

  /** `maxDiskSize`: `max_disk_size` of databases without their own, in bytes (0: unbounded). */
  constructor(private readonly dbs: () => Iterable<DatabaseHandle>, private readonly maxDiskSize: number) {
    this.compactor = new MetricCompactor(dbs);
  }

  /** Hands the database's files to the background checkpointer after a write. */
  wrote(h: DatabaseHandle): void {
    for (const path of [h.files.main, h.files.nowal]) {
      if (path) this.checkpointer.wrote({ path, setAutoCheckpoint: (bytes) => h.setAutoCheckpoint(bytes) });
    }
  }

  /** A metric write is about to happen: compaction may become due. */
  wroteMetrics(): void {
    this.compactor.wrote();
  }

  /** Stops checkpointing a database's files (before they are deleted). */
  forget(h: DatabaseHandle): void {
    for (const f of [h.files.main, h.files.nowal]) if (f) this.checkpointer.forget(f);
  }

  /** Deletes expired rows of every table with a ttl (see `sweepExpiredTables`); returns the rows deleted. */
  sweepExpired(nowMs: number): number {
    return sweepExpiredTables(this.dbs(), this.lastSweep, nowMs);
  }

  /** Drops the oldest time windows over `max_disk_size`, and counts them. */
  enforceDiskSize(): RetentionDrop[] {
    const drops = enforceDiskLimits(this.dbs(), this.maxDiskSize);
    this.retention.add(drops);
    return drops;
  }

  /** Windows and rows dropped by size retention since start, per table. */
  retentionDropped(): RetentionDrop[] {
    return this.retention.totals();
  }

  /** Starts the sweeper: expired rows, then size bounds, every `intervalMs`. */
  startSweeper(intervalMs: number): void {
    this.stopSweeper();
    this.sweeper = startSweeper(intervalMs, [
      ["ttl sweep", () => this.sweepExpired(Date.now())],
      ["size retention", () => this.enforceDiskSize()],
    ]);
  }

  /** Stops the sweeper. */
  stopSweeper(): void {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /** Starts compacting closed windows of metric tables in the background. */
  startCompactor(): void {
    this.compactor.start();
  }

  /** Stops background compaction for good. */
  stopCompactor(): void {
    this.compactor.stop();
  }

  /** Windows of metric tables compacted in the background since start. */
  compactedWindows(): number {
    return this.compactor.windows;
  }

  /** Compacts every closed window of every metric table now; returns how many. */
  compactMetrics(nowMs: number): number {
    return compactAllNow(this.dbs(), nowMs);
  }

  /** Compacts every due window now as the background compactor does (on its worker where it can). */
  compactMetricsDue(): Promise<{ windows: number; onWorker: number }> {
    return this.compactor.compactDue();
  }

  /** Stops the sweeper, the compactor and the checkpointer's worker (which then holds no file open). */
  stop(): void {
    this.stopSweeper();
    this.compactor.stop();
    this.checkpointer.stop();
  }
}
