/**
 * A TQL statement's parameters as the PromQL engine takes them. Times are GreptimeDB's
 * `parse_promql_timestamp`: an RFC3339 string, else a float of unix seconds; an SQL expression
 * (`now() - interval '5' minute`) is evaluated first and must give a timestamp, which counts in
 * whole seconds (GreptimeDB's `parse_tokens_to_ts`). Step and lookback are whole seconds or a
 * Prometheus duration (`5s`, `1m30s`).
 */
import { invalidArguments } from "../../common/errors.ts";
import type { QueryOutput } from "../../common/rows.ts";
import { parseDurationMs } from "../../promql/duration.ts";
import type { TqlParam, TqlStatement } from "./statement.ts";

/** Evaluates `SELECT <expression>` in the statement's session. */
export type SqlEvaluator = (expression: string) => QueryOutput;

/** The evaluation frame of a TQL statement, in milliseconds. */
export interface TqlFrame {
  startMs: number;
  endMs: number;
  stepMs: number;
  /** Null: the engine's default (5m). */
  lookbackMs: number | null;
}

const UNIT_MS: Record<string, number> = {
  TimestampSecond: 1000,
  TimestampMillisecond: 1,
  TimestampMicrosecond: 1e-3,
  TimestampNanosecond: 1e-6,
};

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Resolves every parameter of a parsed statement. */
export function tqlFrame(stmt: TqlStatement, evaluate: SqlEvaluator): TqlFrame {
  const text = (p: TqlParam) => p.kind === "expr" ? expressionSeconds(p.text, evaluate) : p.text;
  return {
    startMs: promTime(text(stmt.start)),
    endMs: promTime(text(stmt.end)),
    stepMs: duration(text(stmt.step), "step"),
    lookbackMs: stmt.lookback === null ? null : duration(text(stmt.lookback), "lookback"),
  };
}

/** An expression's value as GreptimeDB passes it on: whole unix seconds (truncated), as text. */
function expressionSeconds(expression: string, evaluate: SqlEvaluator): string {
  const out = evaluate(expression);
  const unit = out.kind === "records" && out.columns.length === 1 && out.rows.length === 1
    ? UNIT_MS[out.columns[0].data_type]
    : undefined;
  const value = out.kind === "records" ? out.rows[0]?.[0] : null;
  if (unit === undefined || typeof value !== "number") {
    throw invalidArguments(`Failed to convert TQL expression to timestamp: ${expression}`);
  }
  return String(Math.trunc((value * unit) / 1000));
}

/** A time: RFC3339, else unix seconds (fractions kept to the millisecond). */
function promTime(raw: string): number {
  const s = raw.trim();
  if (RFC3339.test(s)) {
    const ms = Date.parse(s.replace(" ", "T"));
    if (!Number.isNaN(ms)) return ms;
  }
  const seconds = s === "" ? NaN : Number(s);
  if (!Number.isFinite(seconds)) {
    throw invalidArguments(`Cannot parse TQL time \`${raw}\`: expected unix seconds or an RFC3339 timestamp`);
  }
  return Math.trunc(Math.round(seconds * 1e6) / 1e3);
}

/** A step or lookback: whole seconds, else a Prometheus duration. */
function duration(raw: string, what: string): number {
  const s = raw.trim();
  const ms = /^\d+$/.test(s) ? Number(s) * 1000 : parseDurationMs(s);
  if (ms === null || !Number.isSafeInteger(ms)) {
    throw invalidArguments(
      `Cannot parse TQL ${what} \`${raw}\`: expected seconds or a duration like 5s or 1m`,
    );
  }
  if (what === "step" && ms <= 0) {
    throw invalidArguments(
      "zero or negative query resolution step widths are not accepted. Try a positive integer",
    );
  }
  return ms;
}
