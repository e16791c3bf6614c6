/**
 * The events of `POST /v1/sql/analyze/stream`: `EXPLAIN ANALYZE VERBOSE [FORMAT JSON] <query>` run
 * once, with a partial `metrics` snapshot every `snapshot_interval_ms` while it runs, then exactly
 * one terminal event: `final` (the analyze output), `error` or `canceled`.
 *
 * What a snapshot can honestly say: SQLite runs the query as one statement that gives back its rows
 * only when it is done, so a partial snapshot carries the plan and the time so far, never rows so
 * far. Snapshots exist only while the query runs in a query worker (file-backed databases); a query
 * on the serving thread (in-memory databases, information_schema) is over before any timer fires,
 * so it answers the final event alone.
 */
import { invalidArguments, PetrelError, StatusCode } from "../common/errors.ts";
import type { QueryOutput } from "../common/rows.ts";
import type { Storage } from "../storage/mod.ts";
import { runAnalyze } from "./async.ts";
import { isExplain, parseExplain, planExplain, type PlannedExplain } from "./explain.ts";
import { analyzeOutput, analyzeRows, type AnalyzeRun } from "./explain_render.ts";
import { splitStatements } from "./lexer.ts";
import { type SqlContext, startSession } from "./mod.ts";
import { mapSqliteError } from "./results.ts";

/** One event's payload (`seq` counts every event of the stream from 0). */
export interface AnalyzeEvent {
  seq: number;
  state: "metrics" | "final" | "error" | "canceled";
  partial: boolean;
  elapsed_ms: number;
  /** The `stage`/`node`/`plan` rows so far (`plan` parsed for FORMAT JSON). */
  metrics?: Array<{ stage: number | null; node: number | null; plan: unknown }>;
  /** `final`: the statement's output, as `/v1/sql` would answer it. */
  output?: QueryOutput;
  reason?: string;
  code?: number;
}

/** `snapshot_interval_ms`: 5000 when absent, clamped to 1000–60000 (as GreptimeDB). */
export function snapshotInterval(raw: string | null): number {
  if (raw === null || raw.trim() === "") return 5_000;
  if (!/^\d+$/.test(raw.trim())) {
    throw invalidArguments(`snapshot_interval_ms must be a whole number of milliseconds, got ${raw}`);
  }
  return Math.min(60_000, Math.max(1_000, Number(raw.trim())));
}

/** A checked and planned stream request; checking first lets a bad request get a non-200 answer. */
export interface PlannedStream {
  planned: PlannedExplain;
  started: number;
}

/** Accepts only one `EXPLAIN ANALYZE VERBOSE [FORMAT JSON] <query>` and plans it. */
export function planAnalyzeStream(storage: Storage, sql: string, ctx: SqlContext): PlannedStream {
  const started = performance.now();
  const session = startSession(storage, sql, ctx);
  const statements = splitStatements(sql);
  const shape = "EXPLAIN ANALYZE VERBOSE [FORMAT JSON] <query>";
  if (statements.length !== 1) {
    throw invalidArguments(`The analyze stream takes exactly one statement: ${shape}`);
  }
  const tokens = statements[0].tokens;
  if (!isExplain(tokens)) throw invalidArguments(`The analyze stream only runs ${shape}`);
  const options = parseExplain(tokens, sql);
  if (!options.analyze || !options.verbose) throw invalidArguments(`The analyze stream only runs ${shape}`);
  try {
    return { planned: planExplain(storage, tokens, sql, session), started };
  } catch (e) {
    throw mapSqliteError(e, session.db);
  }
}

function snapshot(p: PlannedExplain, run: AnalyzeRun): AnalyzeEvent["metrics"] {
  return analyzeRows(p, run).map(([stage, node, plan]) => ({
    stage: stage as number | null,
    node: node as number | null,
    plan: p.options.format === "json" && stage !== null ? JSON.parse(String(plan)) : plan,
  }));
}

/** Options of {@link runAnalyzeStream}. */
export interface StreamOptions {
  intervalMs: number;
  /** Aborted when the client leaves: the query stops and the stream ends `canceled`. */
  signal: AbortSignal;
  emit(event: AnalyzeEvent): void;
}

/** Runs the planned query, emitting snapshots while it runs and one terminal event. */
export async function runAnalyzeStream(
  storage: Storage,
  s: PlannedStream,
  opts: StreamOptions,
): Promise<void> {
  const { planned, started } = s;
  let seq = 0;
  const elapsedMs = () => Math.round(performance.now() - started);
  const timer = setInterval(() => {
    const run: AnalyzeRun = { thread: "worker", elapsedNs: Math.round((performance.now() - started) * 1e6) };
    opts.emit({
      seq: seq++,
      state: "metrics",
      partial: true,
      elapsed_ms: elapsedMs(),
      metrics: snapshot(planned, run),
    });
  }, opts.intervalMs);
  try {
    const run = await runAnalyze(storage, planned, started, opts.signal);
    clearInterval(timer);
    opts.emit({
      seq: seq++,
      state: "final",
      partial: false,
      elapsed_ms: elapsedMs(),
      metrics: snapshot(planned, run),
      output: analyzeOutput(planned, run),
    });
  } catch (e) {
    clearInterval(timer);
    const end = (state: "error" | "canceled", reason: string, code: number): AnalyzeEvent => ({
      seq: seq++,
      state,
      partial: false,
      elapsed_ms: elapsedMs(),
      reason,
      code,
    });
    if (opts.signal.aborted) {
      return opts.emit(end("canceled", "the client disconnected", StatusCode.Cancelled));
    }
    const err = e instanceof PetrelError ? e : mapSqliteError(e, planned.query.database);
    // GreptimeDB masks internal failures (reference §4.2)
    const masked = err.code === StatusCode.Unknown || err.code === StatusCode.Internal;
    opts.emit(end("error", masked ? `Internal error: ${err.code}` : err.message, err.code));
  }
}
