/**
 * One `[[forward]]` destination: finds the streams it reads (`src/storage/forward_read.ts`), and pumps
 * each one batch at a time: read after the durable cursor, send, and move the cursor only once the
 * upstream acknowledged (at-least-once: a crash between the two sends the batch again). A retryable
 * failure backs the stream off exponentially with jitter and re-reads from the cursor; a refusal
 * (4xx) is narrowed by splitting the batch, and what is still refused is dead-lettered with the reason.
 */
import { Logger } from "../common/log.ts";
import type { DatabaseHandle } from "../storage/database.ts";
import { metricStreams } from "../storage/forward_read.ts";
import { type DeadLetter, loadCursor, saveCursor } from "../storage/forward_state.ts";
import type { SeqCursor } from "../storage/forward_seq.ts";
import { INFORMATION_SCHEMA, isMetricTable, type Storage } from "../storage/mod.ts";
import { type ForwardConfig, globMatch } from "./config.ts";
import { type Batch, journalSource, metricSource, type Stream } from "./streams.ts";
import { backoff, send, type SendResult, type UpstreamRequest } from "./sender.ts";

const log = new Logger("petrel::forward");

/** The databases with files (not the virtual `information_schema`). */
export function storedDatabases(storage: Storage): string[] {
  return storage.listDatabases().filter((db) => db !== INFORMATION_SCHEMA);
}

/** How often a stream's lag is measured while it is being pumped. */
const LAG_CHECK_MS = 1_000;
/** How many times a refused batch is halved to isolate the rows the upstream refuses. */
const MAX_SPLITS = 4;
/** Statuses that may be caused by a few rows of a batch (worth splitting it). */
const SPLIT_STATUSES = new Set([400, 413, 422]);

/**
 * The OTLP/HTTP endpoint of a signal: `url` is the base (`…/v1/otlp`, `http://collector:4318`), or a
 * signal's own endpoint (`…/v1/logs`, `…/v1/traces`), whose last segment is swapped for the other signal.
 */
export function otlpUrl(url: string, signal: "logs" | "traces"): string {
  const u = new URL(url);
  const path = u.pathname.replace(/\/+$/, "");
  u.pathname = /\/v1\/(logs|traces|metrics)$/.test(path)
    ? path.replace(/(logs|traces|metrics)$/, signal)
    : `${path}/v1/${signal}`;
  return u.toString();
}

/** What `/metrics` and `/status` show of a destination. */
export interface DestinationStats {
  destination: string;
  protocol: string;
  url: string;
  policy: string;
  lag_seconds: number;
  queue_rows: number;
  queue_bytes: number;
  sent_rows: number;
  sent_requests: number;
  failed_requests: number;
  dropped_rows: number;
  dead_lettered_rows: number;
  blocking_ingest: boolean;
  last_error: string | null;
}

interface StreamState {
  db: string;
  stream: Stream;
  cursor: SeqCursor | null;
  attempt: number;
  nextTryAt: number;
  lastLagCheck: number;
  lag: { rows: number; ageMs: number };
  over: boolean;
}

/** A running destination. */
export class Destination {
  readonly stats: DestinationStats;
  private readonly streams = new Map<string, StreamState>();

  constructor(readonly config: ForwardConfig, private readonly storage: Storage) {
    this.stats = {
      destination: config.name,
      protocol: config.protocol,
      url: config.url,
      policy: config.policy,
      lag_seconds: 0,
      queue_rows: 0,
      queue_bytes: 0,
      sent_rows: 0,
      sent_requests: 0,
      failed_requests: 0,
      dropped_rows: 0,
      dead_lettered_rows: 0,
      blocking_ingest: false,
      last_error: null,
    };
  }

  /** Whether this destination forwards a table of a database. */
  covers(db: string, table: string): boolean {
    return this.config.databases.some((g) => globMatch(g, db)) &&
      this.config.tables.some((g) => globMatch(g, table));
  }

  /** One round: every due stream is pumped until caught up or failing; returns when to come back (ms). */
  async round(signal: AbortSignal): Promise<number> {
    const due = this.discover().filter((s) => s.nextTryAt <= Date.now());
    let next = 0;
    const work = [...due];
    const worker = async () => {
      for (let s = work.shift(); s !== undefined && !signal.aborted; s = work.shift()) {
        try {
          await this.pump(s, signal);
        } catch (e) {
          // a storage error (a table dropped mid-read…): this stream backs off, the others go on
          this.stats.last_error = String((e as Error).message ?? e);
          s.nextTryAt = Date.now() + backoff(s.attempt++, this.config.min_backoff, this.config.max_backoff);
          log.error("forwarding a stream failed", {
            destination: this.config.name,
            stream: `${s.db}/${s.stream.name}`,
            error: this.stats.last_error,
          });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.config.concurrency, work.length) }, worker));
    this.refreshTotals();
    for (const s of this.streams.values()) {
      if (s.nextTryAt > Date.now()) next = next === 0 ? s.nextTryAt : Math.min(next, s.nextTryAt);
    }
    return next === 0 ? this.config.interval : Math.min(this.config.interval, next - Date.now());
  }

  private discover(): StreamState[] {
    const seen = new Set<string>();
    const wanted = (t: string) => this.config.tables.some((g) => globMatch(g, t));
    for (const db of storedDatabases(this.storage)) {
      if (!this.config.databases.some((g) => globMatch(g, db))) continue;
      const handle = this.storage.database(db);
      // OTLP carries logs only here: metric tables go by remote_write or greptime
      const streams: Stream[] = this.config.protocol === "otlp"
        ? []
        : metricStreams(handle, wanted).map((m) =>
          metricSource(m, this.config.protocol === "remote_write" ? "remote_write" : "greptime")
        );
      const protocol = this.config.protocol;
      if (protocol !== "remote_write") {
        const schemas = new Set(handle.listTables().filter((t) => !isMetricTable(t)).map((t) => t.schema));
        for (const schema of schemas) streams.push(journalSource(schema, wanted, protocol));
      }
      for (const stream of streams) {
        const key = `${db}/${stream.name}`;
        seen.add(key);
        const known = this.streams.get(key);
        if (known !== undefined) known.stream = stream;
        else {
          this.streams.set(key, {
            db,
            stream,
            cursor: null,
            attempt: 0,
            nextTryAt: 0,
            lastLagCheck: 0,
            lag: { rows: 0, ageMs: 0 },
            over: false,
          });
        }
      }
    }
    for (const key of [...this.streams.keys()]) if (!seen.has(key)) this.streams.delete(key);
    return [...this.streams.values()];
  }

  private async pump(s: StreamState, signal: AbortSignal): Promise<void> {
    const handle = this.storage.database(s.db);
    s.cursor ??= loadCursor(handle, this.config.name, s.stream.name);
    while (!signal.aborted) {
      this.checkLag(handle, s, false);
      const batch = s.stream.read(handle, s.cursor, this.config.batch_size);
      if (batch.read === 0) {
        this.checkLag(handle, s, true);
        return;
      }
      const dead: DeadLetter[] = [];
      if (batch.items.length > 0) {
        const result = await this.deliver(batch, batch.items, 0, s, dead, signal);
        if (result.kind === "retry") {
          this.stats.failed_requests++;
          this.stats.last_error = result.reason;
          s.nextTryAt = Date.now() + backoff(s.attempt++, this.config.min_backoff, this.config.max_backoff);
          if (s.attempt === 1 || s.attempt % 10 === 0) {
            log.warn("forwarding failed; will retry", {
              destination: this.config.name,
              stream: `${s.db}/${s.stream.name}`,
              attempt: s.attempt,
              error: result.reason,
            });
          }
          this.checkLag(handle, s, true);
          return;
        }
      }
      // acknowledged: saved even when stopping (storage closes after the forwarder), or it goes twice
      saveCursor(handle, this.config.name, s.stream.name, batch.next, dead);
      // Counted once stored, so a status showing them can list them.
      this.stats.dead_lettered_rows += dead.reduce((n, d) => n + d.rows, 0);
      s.cursor = batch.next;
      s.attempt = 0;
      this.stats.sent_rows += batch.items.length - dead.reduce((n, d) => n + d.rows, 0);
    }
  }

  /** Sends items; a refused batch is halved (up to MAX_SPLITS times) and what stays refused is dead. */
  private async deliver(
    batch: Batch,
    items: unknown[],
    depth: number,
    s: StreamState,
    dead: DeadLetter[],
    signal: AbortSignal,
  ): Promise<SendResult> {
    const req = this.request(batch, items, s.db);
    if (req === null) return { kind: "ok" };
    const result = await send(req, this.config.timeout, signal);
    this.stats.sent_requests++;
    if (result.kind !== "reject") return result;
    if (depth < MAX_SPLITS && items.length > 1 && SPLIT_STATUSES.has(result.status)) {
      const mid = items.length >> 1;
      for (const part of [items.slice(0, mid), items.slice(mid)]) {
        const r = await this.deliver(batch, part, depth + 1, s, dead, signal);
        if (r.kind === "retry") return r;
      }
      return { kind: "ok" };
    }
    const stream = `${s.db}/${s.stream.name}`;
    log.warn("upstream refused a batch; dead-lettered", {
      destination: this.config.name,
      stream,
      rows: items.length,
      status: result.status,
      reason: result.reason,
    });
    dead.push({
      destination: this.config.name,
      stream: s.stream.name,
      status: result.status,
      reason: result.reason,
      rows: items.length,
      firstSeq: batch.seqOf(items[0]),
      lastSeq: batch.seqOf(items[items.length - 1]),
    });
    return { kind: "ok" };
  }

  private request(batch: Batch, items: unknown[], db: string): UpstreamRequest | null {
    const payload = batch.encode(items);
    if (payload === null) return null;
    const headers: Record<string, string> = { "user-agent": "Petrel-forward", ...payload.headers };
    const c = this.config;
    if (c.bearer_token) headers.authorization = `Bearer ${c.bearer_token}`;
    else if (c.username) headers.authorization = `Basic ${btoa(`${c.username}:${c.password}`)}`;
    if (payload.kind === "remote_write") {
      headers["content-type"] = "application/x-protobuf";
      headers["content-encoding"] = "snappy";
      headers["x-prometheus-remote-write-version"] = "0.1.0";
      return { url: c.url, headers, body: payload.body };
    }
    if (payload.kind === "otlp_logs" || payload.kind === "otlp_traces") {
      headers["content-type"] = "application/json";
      return {
        url: otlpUrl(c.url, payload.kind === "otlp_logs" ? "logs" : "traces"),
        headers,
        body: payload.body,
      };
    }
    const url = new URL(c.url);
    if (!url.searchParams.has("db")) url.searchParams.set("db", db);
    url.searchParams.set("precision", payload.kind.precision);
    headers["content-type"] = "text/plain; charset=utf-8";
    return { url: url.toString(), headers, body: payload.body };
  }

  /** Measures a stream's lag (at most once a second unless `force`) and applies the policy. */
  private checkLag(handle: DatabaseHandle, s: StreamState, force: boolean): void {
    const now = Date.now();
    if (!force && now - s.lastLagCheck < LAG_CHECK_MS) return;
    s.lastLagCheck = now;
    s.lag = s.stream.backlog(handle, s.cursor!, now);
    const c = this.config;
    const overBytes = c.max_lag_bytes > 0 && s.lag.rows * s.stream.rowBytes > c.max_lag_bytes;
    const overAge = c.max_lag > 0 && s.lag.ageMs > c.max_lag;
    s.over = overBytes || overAge;
    if (s.over && c.policy === "drop_oldest") {
      const keepRows = c.max_lag_bytes > 0 ? Math.floor(c.max_lag_bytes / s.stream.rowBytes) : Infinity;
      const { cursor, skipped } = s.stream.skip(handle, s.cursor!, now, c.max_lag, keepRows);
      if (skipped > 0) {
        saveCursor(handle, c.name, s.stream.name, cursor);
        s.cursor = cursor;
        this.stats.dropped_rows += skipped;
        log.warn("forwarding lags past max_lag; dropped the oldest rows", {
          destination: c.name,
          stream: `${s.db}/${s.stream.name}`,
          rows: skipped,
        });
        s.lag = s.stream.backlog(handle, cursor, now);
      }
      s.over = false;
    }
    this.refreshTotals();
  }

  private refreshTotals(): void {
    let rows = 0, bytes = 0, age = 0, over = false;
    for (const s of this.streams.values()) {
      rows += s.lag.rows;
      bytes += s.lag.rows * s.stream.rowBytes;
      age = Math.max(age, s.lag.ageMs);
      over ||= s.over;
    }
    this.stats.queue_rows = rows;
    this.stats.queue_bytes = bytes;
    this.stats.lag_seconds = age / 1000;
    this.stats.blocking_ingest = over && this.config.policy === "block_ingest";
  }
}
