/**
 * Store-and-forward: every `[[forward]]` destination runs in the background (started by `src/app.ts`
 * like the metric compactor, stopped before storage closes), and the storage asks it before each
 * write whether a `block_ingest` destination lags too far behind to take more (429).
 */
import { PetrelError, StatusCode } from "../common/errors.ts";
import { Logger } from "../common/log.ts";
import type { Storage } from "../storage/mod.ts";
import { loadCursor, recentDeadLetters } from "../storage/forward_state.ts";
import { trimJournal } from "../storage/forward_journal.ts";
import { type ForwardConfig, globMatch } from "./config.ts";
import { Destination, type DestinationStats, storedDatabases } from "./destination.ts";

const log = new Logger("petrel::forward");
/** How often the write journal is trimmed below every greptime destination's cursor. */
const TRIM_EVERY_MS = 10_000;

/** The forwarder of a Petrel instance. */
export class Forwarder {
  private readonly destinations: Destination[];
  private readonly abort = new AbortController();
  private readonly loops: Promise<void>[] = [];
  private wake: Array<() => void> = [];
  private trimmer: ReturnType<typeof setInterval> | undefined;

  constructor(configs: ForwardConfig[], private readonly storage: Storage) {
    this.destinations = configs.map((c) => new Destination(c, storage));
    // Stamping writes with the insert sequence is what forwarding reads by; the gate is the 429.
    storage.forwarding = {
      gate: (db, table) => this.gate(db, table),
      journal: configs.some((c) => c.protocol !== "remote_write"),
    };
  }

  /** Starts every destination's loop. */
  start(): void {
    if (this.storage.forwarding?.journal) {
      const timer = setInterval(() => this.trimJournals(), TRIM_EVERY_MS);
      Deno.unrefTimer(timer);
      this.trimmer = timer;
    }
    for (const d of this.destinations) {
      this.loops.push(this.loop(d));
      log.info("forwarding started", {
        destination: d.config.name,
        url: d.config.url,
        protocol: d.config.protocol,
      });
    }
  }

  private async loop(d: Destination): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      let waitMs = d.config.interval;
      try {
        waitMs = await d.round(signal);
      } catch (e) {
        if (signal.aborted) break;
        d.stats.last_error = String((e as Error).message ?? e);
        log.error("forwarding round failed", { destination: d.config.name, error: d.stats.last_error });
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.max(10, waitMs));
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.wake.push(done);
      });
      this.wake = [];
    }
  }

  /** Stops every loop (an unacknowledged batch is sent again on the next start). */
  async stop(): Promise<void> {
    clearInterval(this.trimmer);
    this.abort.abort();
    for (const w of this.wake) w();
    await Promise.allSettled(this.loops);
    this.storage.forwarding = null;
  }

  /** Deletes the journal entries every `greptime` and `otlp` destination has forwarded. */
  trimJournals(): void {
    try {
      for (const db of storedDatabases(this.storage)) {
        const handle = this.storage.database(db);
        for (const schema of ["main", "nowal"]) {
          let through = Number.MAX_SAFE_INTEGER;
          for (const d of this.destinations) {
            if (d.config.protocol !== "greptime" || !d.config.databases.some((g) => globMatch(g, db))) {
              continue;
            }
            const c = loadCursor(handle, d.config.name, `tables/${schema}`);
            through = Math.min(through, c.seriesId === 1 ? c.seq : c.seq - 1);
          }
          if (through > 0) trimJournal(handle, schema, through);
        }
      }
    } catch (e) {
      log.error("trimming the forwarding journal failed", { error: String(e) });
    }
  }

  /** Refuses a write into a table a `block_ingest` destination forwards while it lags past its limit. */
  gate(db: string, table: string): void {
    for (const d of this.destinations) {
      if (d.stats.blocking_ingest && d.covers(db, table)) {
        throw new PetrelError(
          StatusCode.RateLimited,
          `Forwarding to ${d.config.name} lags behind its max_lag (${d.stats.queue_rows} rows, ` +
            `${d.stats.lag_seconds.toFixed(1)} s); writes to ${db}.${table} are refused until it catches up`,
        );
      }
    }
  }

  /** Each destination's figures. */
  stats(): DestinationStats[] {
    return this.destinations.map((d) => ({ ...d.stats }));
  }

  /** What `/status` shows: figures plus the latest dead letters of each destination. */
  status(): Array<DestinationStats & { recent_dead_letters: unknown[] }> {
    return this.destinations.map((d) => ({
      ...d.stats,
      recent_dead_letters: this.deadLetters(d.config.name, 10),
    }));
  }

  /** The newest dead letters (of one destination, or all), across the databases forwarded. */
  deadLetters(destination: string | null, limit: number): Array<Record<string, unknown>> {
    const out: Array<Record<string, unknown> & { at: number }> = [];
    for (const d of this.destinations) {
      if (destination !== null && d.config.name !== destination) continue;
      for (const db of storedDatabases(this.storage)) {
        if (!d.config.databases.some((g) => globMatch(g, db))) continue;
        for (const l of recentDeadLetters(this.storage.database(db), d.config.name, limit)) {
          out.push({ db, ...l });
        }
      }
    }
    return out.sort((a, b) => b.at - a.at).slice(0, limit);
  }
}
