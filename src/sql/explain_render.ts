/**
 * EXPLAIN ANALYZE's answer in GreptimeDB's shape: `stage` (UInt32), `node` (UInt32) and `plan`
 * (String) rows, one per stage and node, then a row with null stage and node and `Total rows: N`.
 * Petrel runs a query as one SQLite program, so there is one stage and one node, `SqliteQueryExec`,
 * carrying what the run measured, over SQLite's plan lines. SQLite measures nothing per plan line
 * (`node:sqlite` exposes no scan status), so those lines carry no metrics rather than invented ones.
 */
import type { QueryOutput, Value } from "../common/rows.ts";
import type { PlannedExplain } from "./explain.ts";
import type { QueryStats } from "./results.ts";

/** One run of the explained query, finished or (without `stats`) still running. */
export interface AnalyzeRun {
  stats?: QueryStats;
  /** Where the query ran: a query worker, or the thread that serves requests. */
  thread: "worker" | "main";
  /** From the start of planning to the rows (or to the snapshot). */
  elapsedNs: number;
}

/** A plan node of the JSON form (GreptimeDB's `JsonMetrics`; times in nanoseconds). */
export interface JsonPlanNode {
  name: string;
  param: string;
  output_rows?: number;
  elapsed_compute?: number;
  metrics: Record<string, number>;
  children: JsonPlanNode[];
}

const ROOT = "SqliteQueryExec";

/** DataFusion's display of a duration (Rust's `Duration` Debug): `812ns`, `12.5µs`, `1.234ms`, `2.1s`. */
export function formatDuration(ns: number): string {
  const trim = (v: number, digits: number) => v.toFixed(digits).replace(/\.?0+$/, "");
  if (ns < 1e3) return `${Math.round(ns)}ns`;
  if (ns < 1e6) return `${trim(ns / 1e3, 3)}µs`;
  if (ns < 1e9) return `${trim(ns / 1e6, 6)}ms`;
  return `${trim(ns / 1e9, 9)}s`;
}

/** The measured metrics in display order: name, value, and whether the value is a duration. */
function metricsOf(p: PlannedExplain, run: AnalyzeRun): Array<[string, number, boolean]> {
  const s = run.stats;
  if (!s) return [];
  const out: Array<[string, number, boolean]> = [
    ["output_rows", s.rows, false],
    ["elapsed_compute", s.executeNs + s.convertNs, true],
  ];
  if (!p.options.verbose) return out;
  out.push(
    ["prepare_time", s.prepareNs, true],
    ["execute_time", s.executeNs, true],
    ["convert_time", s.convertNs, true],
    ["plan_time", p.planNs, true],
    ["elapsed", run.elapsedNs, true],
  );
  if (p.programOps !== undefined) out.push(["program_ops", p.programOps, false]);
  return out;
}

function rootParam(p: PlannedExplain, run: AnalyzeRun): string {
  return p.options.verbose ? `thread=${run.thread}, sql=${p.query.sql.replace(/\s+/g, " ")}` : "";
}

function textPlan(p: PlannedExplain, run: AnalyzeRun): string {
  const param = rootParam(p, run);
  let head = param ? `${ROOT}: ${param}` : ROOT;
  if (run.stats) {
    const shown = metricsOf(p, run).map(([k, v, time]) => `${k}=${time ? formatDuration(v) : v}`);
    head += `, metrics=[${shown.join(", ")}]`;
  }
  const lines = [head, ...p.plan.map((l) => `${"  ".repeat(l.depth + 1)}${l.detail}`)];
  return lines.map((l) => l + "\n").join("");
}

/** The plan as GreptimeDB's JSON form builds it: the root with its metrics, SQLite's lines as children. */
export function jsonPlan(p: PlannedExplain, run: AnalyzeRun): JsonPlanNode {
  const measured = new Map(metricsOf(p, run).map(([k, v]) => [k, v]));
  const root: JsonPlanNode = {
    name: ROOT,
    param: rootParam(p, run),
    output_rows: measured.get("output_rows"),
    elapsed_compute: measured.get("elapsed_compute"),
    metrics: {},
    children: [],
  };
  for (const [name, value] of measured) {
    if (name !== "output_rows" && name !== "elapsed_compute") root.metrics[name] = value;
  }
  const parents: JsonPlanNode[] = [root];
  for (const line of p.plan) {
    const node: JsonPlanNode = { name: line.detail, param: "", metrics: {}, children: [] };
    (parents[line.depth] ?? parents[parents.length - 1]).children.push(node);
    parents[line.depth + 1] = node;
  }
  return root;
}

/** The `stage`/`node`/`plan` rows; the `Total rows` row only once the query finished. */
export function analyzeRows(p: PlannedExplain, run: AnalyzeRun): Value[][] {
  const plan = p.options.format === "json" ? JSON.stringify(jsonPlan(p, run)) : textPlan(p, run);
  const rows: Value[][] = [[0, 0, plan]];
  if (run.stats) rows.push([null, null, `Total rows: ${run.stats.rows}`]);
  return rows;
}

/** EXPLAIN ANALYZE's records. */
export function analyzeOutput(p: PlannedExplain, run: AnalyzeRun): QueryOutput {
  return stageRecords(analyzeRows(p, run));
}

/** `stage`/`node`/`plan` rows as records: the shape of every ANALYZE (SQL's and TQL's). */
export function stageRecords(rows: Value[][]): QueryOutput {
  return {
    kind: "records",
    columns: [
      { name: "stage", data_type: "UInt32" },
      { name: "node", data_type: "UInt32" },
      { name: "plan", data_type: "String" },
    ],
    rows,
  };
}
