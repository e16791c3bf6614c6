/**
 * Runs the `[[downsample]]` rules in the background: a window is computed once it has closed
 * (`delay` after its end), a stretch of windows at a time, each stretch written to the target
 * together with the rule's watermark in one transaction (`watermark.ts`). Empty stretches of the
 * source are skipped without moving the watermark, so data that arrives later for a window never
 * computed is still taken. Data arriving for a window already computed (below the watermark) marks
 * the window with the write (`storage/late_marks.ts`), and the next run recomputes it (`late.ts`).
 * A flow without a window key is recomputed whole when its source changed (`whole.ts`).
 */
import { Logger } from "../common/log.ts";
import type { DownsampleRule } from "../config/downsample.ts";
import { isPhysicalTable, type Storage } from "../storage/mod.ts";
import { clearOtherRules, clearRuleMarks, type LateWatch } from "../storage/late_marks.ts";
import { firstTimeFrom } from "../storage/window_aggregate.ts";
import { readStretch, recomputeLate } from "./late.ts";
import { isWholeFlow, runWholeFlow } from "./whole.ts";
import { isTqlFlow, runTqlFlow, type TqlFlowRunner } from "./flow_tql.ts";
import { deleteWatermark, readWatermark, writeWatermark } from "./watermark.ts";
import { withLazyFunctions } from "../sql/functions/registry.ts";

const log = new Logger("petrel::downsample");

/** The source time one step reads at most (one transaction on the target). */
const STEP_MS = 6 * 3_600_000;

/** The key of a rule's watermark: a changed source, target or interval starts afresh. */
export function ruleKey(r: DownsampleRule): string {
  if (r.sink !== undefined) return `flow ${r.sink.flow}#${r.sink.flowId}`;
  return `${r.database}.${r.source} -> ${r.target_database}.${r.target} every ${r.interval}ms`;
}

/** The background runner of the rules of one server. */
export class Downsampler {
  private timer: ReturnType<typeof setInterval> | undefined;
  private stopped = false;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly lastError = new Map<string, string>();
  /** Windows written since start, per rule target (`petrel_downsample_windows_total`). */
  readonly windows = new Map<string, number>();
  /** Of those, windows written again after late writes (`petrel_downsample_recomputed_windows_total`). */
  readonly recomputed = new Map<string, number>();
  /** Per rule key, what the writes into its source compare with (its watermark). */
  private readonly watches = new Map<string, LateWatch>();

  private readonly rules: DownsampleRule[];
  private started = false;

  /**
   * Registers every rule's source with the storage, so late writes into it are marked from now on;
   * `tql` evaluates the TQL flows' statements (without it they fail at each run).
   */
  constructor(
    private readonly storage: Storage,
    rules: DownsampleRule[],
    readonly tql?: TqlFlowRunner,
  ) {
    this.rules = [...rules];
    const keysByDb = new Map<string, string[]>();
    for (const rule of rules) this.watch(rule);
    for (const rule of rules.filter((r) => !isTqlFlow(r))) {
      keysByDb.set(rule.database, [...(keysByDb.get(rule.database) ?? []), ruleKey(rule)]);
    }
    // Marks of rules no longer configured (or changed) would never be taken.
    for (const [db, keys] of keysByDb) {
      if (storage.hasDatabase(db)) clearOtherRules(storage.database(db), keys);
    }
  }

  private watch(rule: DownsampleRule): void {
    const key = ruleKey(rule);
    const storage = this.storage;
    if (isTqlFlow(rule)) {
      // it runs on its clock, not on its sources' writes; its sink is still not to be renamed
      storage.lateWatches.addSink(key, { database: rule.target_database, table: rule.target });
      return;
    }
    const watch: LateWatch = {
      rule: key,
      interval: rule.interval,
      maxLateness: rule.max_lateness,
      upto: storage.hasDatabase(rule.target_database) && this.targetExists(rule)
        ? readWatermark(storage.database(rule.target_database), key)
        : null,
      target: { database: rule.target_database, table: rule.target },
      whole: isWholeFlow(rule) || undefined,
    };
    this.watches.set(key, watch);
    storage.lateWatches.add(rule.database, rule.source, watch);
  }

  /** The rules running now (the TOML's and the flows'). */
  get ruleList(): readonly DownsampleRule[] {
    return this.rules;
  }

  /** Runs one more rule (a flow created), from now on and after restarts as its caller keeps it. */
  addRule(rule: DownsampleRule): void {
    this.watch(rule);
    this.rules.push(rule);
    this.restartTimer();
  }

  /**
   * Stops running a rule (a flow dropped) once a run in progress ends, and forgets its progress
   * and late marks; its target stays.
   */
  removeRule(key: string): Promise<void> {
    const done = this.chain.then(() => {
      const i = this.rules.findIndex((r) => ruleKey(r) === key);
      if (i < 0) return;
      const [rule] = this.rules.splice(i, 1);
      this.watches.delete(key);
      this.storage.lateWatches.remove(rule.database, rule.source, key);
      this.storage.lateWatches.removeSink(key);
      if (this.storage.hasDatabase(rule.database)) clearRuleMarks(this.storage.database(rule.database), key);
      if (this.storage.hasDatabase(rule.target_database)) {
        deleteWatermark(this.storage.database(rule.target_database), key);
      }
      this.restartTimer();
    });
    this.chain = done.catch(() => {});
    return done;
  }

  /**
   * Computes a rule's windows ended by `nowMs` at once, without waiting for its `delay`; the windows
   * written (a flow without a window key: recomputed, the rows written).
   */
  flush(key: string, nowMs = Date.now()): Promise<number> {
    const run = this.chain.then(() => {
      const rule = this.rules.find((r) => ruleKey(r) === key);
      return rule === undefined ? 0 : this.runRule({ ...rule, delay: 0 }, nowMs, true);
    });
    this.chain = run.catch(() => {});
    return run;
  }

  private restartTimer(): void {
    if (!this.started) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.start();
  }

  /** Starts the periodic run (every rule's interval, between 1 s and 60 s), never keeping the process alive. */
  start(): void {
    this.started = true;
    if (this.stopped || this.rules.length === 0 || this.timer !== undefined) return;
    const every = Math.min(60_000, Math.max(1000, Math.min(...this.rules.map((r) => r.interval))));
    this.timer = setInterval(() => void this.runOnce(), every);
    Deno.unrefTimer(this.timer);
  }

  /** Stops for good; a run in progress ends after its current step (which commits whole or not at all). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.chain;
  }

  /** Computes every closed window of every rule as of `nowMs`; returns the windows written. */
  runOnce(nowMs = Date.now()): Promise<number> {
    const run = this.chain.then(() => this.runAll(nowMs));
    this.chain = run.catch(() => {});
    return run;
  }

  private async runAll(nowMs: number): Promise<number> {
    let total = 0;
    for (const rule of [...this.rules]) {
      if (this.stopped) break;
      if (!this.rules.includes(rule)) continue; // removed meanwhile
      const key = ruleKey(rule);
      try {
        // a flow's query may use a function group not loaded yet (a rerun resumes at the watermark)
        const n = await withLazyFunctions(() => this.runRule(rule, nowMs));
        total += n;
        this.lastError.delete(key);
        if (n > 0) log.info("downsampled", { rule: key, windows: n });
      } catch (e) {
        const message = String((e as Error)?.message ?? e);
        // Logged when it first happens or changes, not at every run.
        if (this.lastError.get(key) !== message) {
          log.error("downsampling failed", { rule: key, error: message });
        }
        this.lastError.set(key, message);
      }
    }
    return total;
  }

  private targetExists(rule: DownsampleRule): boolean {
    const names = [rule.target, ...(rule.sink ? [] : rule.aggregates.map((a) => `${rule.target}_${a}`))];
    return names.some((n) => this.storage.getTable(rule.target_database, n) !== undefined);
  }

  private async runRule(rule: DownsampleRule, nowMs: number, flushing = false): Promise<number> {
    if (isTqlFlow(rule)) {
      const rows = await runTqlFlow(this.storage, rule, ruleKey(rule), this.tql, nowMs, flushing);
      this.count(this.windows, rule, rows);
      return rows;
    }
    if (isWholeFlow(rule)) {
      const key = ruleKey(rule);
      const rows = runWholeFlow(this.storage, rule, key, this.watches.get(key)!, nowMs, flushing);
      this.count(this.windows, rule, rows);
      return rows;
    }
    const written = await this.runForward(rule, nowMs);
    const late = await recomputeLate(this.storage, rule, ruleKey(rule), nowMs, () => this.stopped);
    this.count(this.recomputed, rule, late);
    this.count(this.windows, rule, late);
    return written + late;
  }

  private count(counter: Map<string, number>, rule: DownsampleRule, n: number): void {
    if (n > 0) counter.set(rule.target, (counter.get(rule.target) ?? 0) + n);
  }

  /** Computes the windows closed since the watermark, moving it. */
  private async runForward(rule: DownsampleRule, nowMs: number): Promise<number> {
    const closedEnd = Math.floor((nowMs - rule.delay) / rule.interval) * rule.interval;
    const storage = this.storage;
    if (!storage.hasDatabase(rule.database) || storage.getTable(rule.database, rule.source) === undefined) {
      return 0;
    }
    if (isPhysicalTable(storage.getTable(rule.database, rule.source))) {
      throw new Error(`${rule.source} is a metric engine's physical table: name a metric (a logical table)`);
    }
    storage.createDatabase(rule.target_database, true);
    const key = ruleKey(rule);
    const stepMs = rule.interval * Math.max(1, Math.floor(STEP_MS / rule.interval));
    let upto = readWatermark(storage.database(rule.target_database), key);
    // A dropped target is rebuilt from the source, whatever the watermark said.
    if (upto !== null && !this.targetExists(rule)) upto = null;
    const watch = this.watches.get(key)!;
    watch.upto = upto;
    let windows = 0;
    let contiguous = false; // the last step found data: the next one starts where it ended
    while (!this.stopped) {
      const src = storage.database(rule.database);
      const table = src.getTable(rule.source);
      if (table === undefined) break;
      let from = upto ?? 0;
      if (!contiguous || upto === null) {
        // Look for the next data only after a gap: the search scans what lies beyond.
        const next = firstTimeFrom(src, table, upto);
        if (next === null) break;
        from = Math.floor(Math.max(next, upto ?? next) / rule.interval) * rule.interval;
      }
      if (from >= closedEnd) break;
      const to = Math.min(from + stepMs, closedEnd);
      const stretch = readStretch(storage, rule, src, table, from, to);
      const target = storage.database(rule.target_database);
      target.transaction(() => {
        stretch.write();
        writeWatermark(target, key, to);
      });
      // In the same synchronous stretch as the read: a write from now on below `to` is late.
      watch.upto = upto = to;
      contiguous = stretch.starts.size > 0;
      const n = stretch.starts.size;
      windows += n;
      this.count(this.windows, rule, n);
      await new Promise((r) => setTimeout(r, 0)); // requests run between steps
    }
    return windows;
  }
}
