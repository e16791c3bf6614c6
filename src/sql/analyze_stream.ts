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
 *
 * `TQL ANALYZE [VERBOSE] [FORMAT JSON] (…) <promql>` streams the same events (GreptimeDB's stream
 * refuses it): the PromQL engine runs on the serving thread but awaits its storage reads, so
 * snapshots can come while it runs; they carry its plan without metrics, as SQL's do.
 */
import { invalidArguments, PetrelError, StatusCode } from "../common/errors.ts";
import type { QueryOutput, Value } from "../common/rows.ts";
import type { Storage } from "../storage/mod.ts";
import { runAnalyze, sqlEvaluator } from "./async.ts";
import type { Session } from "./ddl.ts";
import { isExplain, parseExplain, planExplain, type PlannedExplain } from "./explain.ts";
import { analyzeOutput, analyzeRows } from "./explain_render.ts";
import { parseStatements, type SqlContext, startSession } from "./mod.ts";
import { mapSqliteError } from "./results.ts";
import { isTql, planTqlAnalyze, type PromQLBackend, type TqlText } from "./tql/mod.ts";

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

/** What the stream runs, checked and planned; checking first lets a bad request get a non-200 answer. */
export interface PlannedStream {
  started: number;
  /** The database errors are named in. */
  db: string;
  /** FORMAT JSON: plans are sent parsed. */
  json: boolean;
  /** The `stage`/`node`/`plan` rows of a snapshot while it runs. */
  partial(elapsedNs: number): Value[][];
  /** Runs it to the analyze output `/v1/sql` would answer. */
  run(signal: AbortSignal): Promise<QueryOutput>;
}

const SHAPE = "EXPLAIN ANALYZE VERBOSE [FORMAT JSON] <query> or TQL ANALYZE [VERBOSE] [FORMAT JSON] " +
  "(start, end, step) <promql>";

/**
 * Accepts only one `EXPLAIN ANALYZE VERBOSE [FORMAT JSON] <query>` or `TQL ANALYZE [VERBOSE]
 * [FORMAT JSON] (…) <promql>` (which GreptimeDB's stream refuses) and plans it.
 */
export function planAnalyzeStream(
  storage: Storage,
  sql: string,
  ctx: SqlContext,
  promql?: PromQLBackend,
): PlannedStream {
  const started = performance.now();
  const session = startSession(storage, sql, ctx);
  // parsed as /v1/sql parses it: a syntax error (brackets nested past the parser's limit among them)
  // is refused before planning
  const statements = parseStatements(sql);
  if (statements.length !== 1) {
    throw invalidArguments(`The analyze stream takes exactly one statement: ${SHAPE}`);
  }
  const tokens = statements[0].tokens;
  if (isTql(tokens)) return planTql(storage, { tokens, sql }, session, promql, started);
  if (!isExplain(tokens)) throw invalidArguments(`The analyze stream only runs ${SHAPE}`);
  const options = parseExplain(tokens, sql);
  if (!options.analyze || !options.verbose) throw invalidArguments(`The analyze stream only runs ${SHAPE}`);
  let planned: PlannedExplain;
  try {
    planned = planExplain(storage, tokens, sql, session);
  } catch (e) {
    throw mapSqliteError(e, session.db);
  }
  return {
    started,
    db: planned.query.database,
    json: planned.options.format === "json",
    partial: (elapsedNs) => analyzeRows(planned, { thread: "worker", elapsedNs }),
    run: async (signal) => analyzeOutput(planned, await runAnalyze(storage, planned, started, signal)),
  };
}

/** A TQL ANALYZE: it runs on the serving thread (the PromQL engine awaits its reads there). */
function planTql(
  storage: Storage,
  statement: TqlText,
  session: Session,
  promql: PromQLBackend | undefined,
  started: number,
): PlannedStream {
  const planned = planTqlAnalyze(promql, session.db, statement, sqlEvaluator(storage, session));
  if (!planned) throw invalidArguments(`The analyze stream only runs ${SHAPE}`);
  return {
    started,
    db: session.db,
    json: planned.json,
    partial: () => planned.partial(),
    run: (signal) => planned.run({ signal }),
  };
}

/** Stage rows as event metrics: a FORMAT JSON plan parsed, the `Total rows` row as text. */
function eventMetrics(s: PlannedStream, rows: Value[][]): AnalyzeEvent["metrics"] {
  return rows.map(([stage, node, plan]) => ({
    stage: stage as number | null,
    node: node as number | null,
    plan: s.json && stage !== null ? JSON.parse(String(plan)) : plan,
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
  s: PlannedStream,
  opts: StreamOptions,
): Promise<void> {
  const { started } = s;
  let seq = 0;
  const elapsedMs = () => Math.round(performance.now() - started);
  const timer = setInterval(() => {
    opts.emit({
      seq: seq++,
      state: "metrics",
      partial: true,
      elapsed_ms: elapsedMs(),
      metrics: eventMetrics(s, s.partial(Math.round((performance.now() - started) * 1e6))),
    });
  }, opts.intervalMs);
  try {
    const output = await s.run(opts.signal);
    clearInterval(timer);
    opts.emit({
      seq: seq++,
      state: "final",
      partial: false,
      elapsed_ms: elapsedMs(),
      metrics: eventMetrics(s, output.kind === "records" ? output.rows : []),
      output,
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
    const err = e instanceof PetrelError ? e : mapSqliteError(e, s.db);
    // GreptimeDB masks internal failures (reference §4.2)
    const masked = err.code === StatusCode.Unknown || err.code === StatusCode.Internal;
    opts.emit(end("error", masked ? `Internal error: ${err.code}` : err.message, err.code));
  }
}
