/**
 * `TQL EXPLAIN` and `TQL ANALYZE` in the shapes of our EXPLAIN and EXPLAIN ANALYZE. EXPLAIN runs
 * nothing: its `logical_plan` is the parsed PromQL (pretty-printed) under the evaluation frame, its
 * `physical_plan` the storage reads the engine will make, each selector with the tables it resolves
 * to and the time range it reads. ANALYZE runs the query and answers `stage`/`node`/`plan` rows:
 * the evaluation with its output rows and time, over each read with the series and samples it
 * returned and its time, then `Total rows: N`.
 */
import type { QueryOutput, Value } from "../../common/rows.ts";
import { prettify, selectorString } from "../../promql/mod.ts";
import { formatDuration, type JsonPlanNode, stageRecords } from "../explain_render.ts";
import { stringRecords } from "../show.ts";
import type { PreparedTql, ResolvedSelect, SelectRecord, TqlRun } from "./eval.ts";

const ROOT = "PromQLEvalExec", READ = "SeriesSelectExec";

function frameParam(p: PreparedTql): string {
  const { startMs, endMs, stepMs, lookbackMs } = p.frame;
  return `range=[${startMs}..${endMs}], step=[${stepMs}], lookback=[${lookbackMs ?? 300_000}]`;
}

function readParam(s: ResolvedSelect): string {
  const tables = s.tables.map((t) => `${s.db}.${t.name}`).join(", ");
  return `selector=[${
    selectorString(s.planned.selector)
  }], tables=[${tables}], time=[${s.planned.startMs}..${s.planned.endMs}]`;
}

/** TQL EXPLAIN [VERBOSE]'s `plan_type`/`plan` rows (VERBOSE: the PromQL as written first). */
export function tqlExplainOutput(p: PreparedTql): QueryOutput {
  const logical = [`PromQLEval: ${frameParam(p)}`, ...prettify(p.expr).split("\n").map((l) => `  ${l}`)];
  const physical = [`${ROOT}: ${frameParam(p)}`, ...p.selects.map((s) => `  ${READ}: ${readParam(s)}`)];
  const rows = [["logical_plan", logical.join("\n")], ["physical_plan", physical.join("\n")]];
  if (p.stmt.verbose) rows.unshift(["initial_logical_plan", p.stmt.query]);
  return stringRecords(["plan_type", "plan"], rows);
}

type Metric = [string, number, boolean];

/** What a run measured at the root; nothing before it finished. */
function rootMetrics(p: PreparedTql, run: TqlRun | null): Metric[] {
  if (!run) return [];
  const rows = run.output.kind === "records" ? run.output.rows.length : 0;
  const out: Metric[] = [["output_rows", rows, false], ["elapsed_compute", run.evalNs, true]];
  if (p.stmt.verbose) out.push(["plan_time", p.planNs, true], ["elapsed", run.elapsedNs, true]);
  return out;
}

/** Each selector's read: the engine reads every selector once, in plan order. */
function readMetrics(read: SelectRecord | undefined): Metric[] {
  if (!read) return [];
  return [["output_series", read.series, false], ["output_samples", read.samples, false], [
    "elapsed_compute",
    read.ns,
    true,
  ]];
}

/** A node's metrics as text; none at all while the query runs (as SQL's EXPLAIN ANALYZE shows it). */
function shown(line: string, metrics: Metric[] | null): string {
  if (!metrics) return line;
  return `${line}, metrics=[${
    metrics.map(([k, v, time]) => `${k}=${time ? formatDuration(v) : v}`).join(", ")
  }]`;
}

function rootParam(p: PreparedTql): string {
  return p.stmt.verbose ? `${frameParam(p)}, query=${p.stmt.query.replace(/\s+/g, " ")}` : frameParam(p);
}

function textPlan(p: PreparedTql, run: TqlRun | null): string {
  const lines = [shown(`${ROOT}: ${rootParam(p)}`, run && rootMetrics(p, run))];
  p.selects.forEach((s, i) =>
    lines.push(shown(`  ${READ}: ${readParam(s)}`, run && readMetrics(run.reads[i])))
  );
  return lines.map((l) => l + "\n").join("");
}

function jsonNode(name: string, param: string, metrics: Metric[]): JsonPlanNode {
  const node: JsonPlanNode = { name, param, metrics: {}, children: [] };
  for (const [k, v] of metrics) {
    if (k === "output_rows" || k === "elapsed_compute") node[k] = v;
    else node.metrics[k] = v;
  }
  return node;
}

/**
 * TQL ANALYZE [VERBOSE] [FORMAT JSON]'s `stage`/`node`/`plan` rows; without a run (the analyze
 * stream's snapshots while it runs), the plan alone and no `Total rows`.
 */
export function tqlAnalyzeRows(p: PreparedTql, run: TqlRun | null): Value[][] {
  let plan: string;
  if (p.stmt.format === "json") {
    const root = jsonNode(ROOT, rootParam(p), rootMetrics(p, run));
    p.selects.forEach((s, i) =>
      root.children.push(jsonNode(READ, readParam(s), run ? readMetrics(run.reads[i]) : []))
    );
    plan = JSON.stringify(root);
  } else plan = textPlan(p, run);
  if (!run) return [[0, 0, plan]];
  const total = run.output.kind === "records" ? run.output.rows.length : 0;
  return [[0, 0, plan], [null, null, `Total rows: ${total}`]];
}

/** TQL ANALYZE [VERBOSE] [FORMAT JSON]'s records. */
export function tqlAnalyzeOutput(p: PreparedTql, run: TqlRun): QueryOutput {
  return stageRecords(tqlAnalyzeRows(p, run));
}
