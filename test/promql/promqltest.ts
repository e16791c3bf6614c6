/**
 * A runner for Prometheus' promqltest script format (`promql/promqltest`): `load <interval>` blocks
 * with series notation (`0+10x100`, `_`, `stale`), `clear`, `eval instant at <t> <expr>`,
 * `eval range from <t> to <t> step <d> <expr>`, `eval_ordered`, `eval_fail` (with optional
 * `expected_fail_message` / `expected_fail_regexp`), and expected series lines.
 */
import { type Sample, type Series, STALE_NAN } from "../../src/common/series.ts";
import { parseDurationMs } from "../../src/promql/duration.ts";
import { PromQLEngine } from "../../src/promql/engine.ts";
import { labelsKey, labelsString } from "../../src/promql/labels.ts";
import { parseExpr } from "../../src/promql/parser.ts";
import { MemoryQueryable } from "../../src/promql/queryable.ts";
import type { Labels, QueryResult } from "../../src/promql/values.ts";

/** One value of a series notation: a number, a gap (`_`) or a staleness marker. */
type SeqValue = number | "_" | "stale";

/** Expands series notation (`1+2x3 _ stale 5x2 _x2`) into values. */
export function expandValues(text: string): SeqValue[] {
  const out: SeqValue[] = [];
  for (const tok of text.trim().split(/\s+/).filter((t) => t !== "")) {
    let m = /^_(?:x(\d+))?$/.exec(tok);
    if (m) {
      const n = m[1] === undefined ? 1 : Number(m[1]);
      for (let i = 0; i < n; i++) out.push("_");
      continue;
    }
    if (tok === "stale") {
      out.push("stale");
      continue;
    }
    m = /^([+-]?(?:[0-9.]+(?:e[+-]?\d+)?|Inf|NaN))(?:([+-][0-9.]+(?:e[+-]?\d+)?)?x(\d+))?$/i.exec(tok);
    if (!m) throw new Error(`bad series value ${JSON.stringify(tok)}`);
    let v = parseNum(m[1]);
    const n = m[3] === undefined ? 0 : Number(m[3]);
    const inc = m[2] === undefined ? 0 : Number(m[2]);
    out.push(v);
    for (let i = 1; i <= n; i++) out.push(v += inc);
  }
  return out;
}

function parseNum(s: string): number {
  const l = s.toLowerCase().replace(/^\+/, "");
  if (l === "inf") return Infinity;
  if (l === "-inf") return -Infinity;
  if (l === "nan" || l === "-nan") return NaN;
  return Number(s);
}

/** A time in a script: a duration (`50m`) or seconds. */
function parseTime(s: string): number {
  const d = parseDurationMs(s);
  if (d !== null) return d;
  const n = Number(s);
  if (Number.isNaN(n)) throw new Error(`bad time ${s}`);
  return Math.round(n * 1000);
}

/** `name{a="b"}` → labels (with `__name__`). */
export function parseMetric(text: string): Labels {
  const t = text.trim();
  if (t === "{}") return {};
  const e = parseExpr(t);
  if (e.type !== "VectorSelector") throw new Error(`not a series: ${t}`);
  const out: Labels = {};
  for (const m of e.matchers) out[m.name] = m.value;
  return out;
}

/** Splits `metric values…`: the metric ends at its closing brace, or at the first space. */
function splitSeriesLine(line: string): [string, string] {
  const brace = line.lastIndexOf("}");
  if (brace >= 0) return [line.slice(0, brace + 1), line.slice(brace + 1)];
  const sp = line.search(/\s/);
  return sp < 0 ? [line, ""] : [line.slice(0, sp), line.slice(sp)];
}

interface Expected {
  labels: Labels | null; // null: a scalar
  values: SeqValue[];
}

/** One failed expectation. */
export interface Failure {
  line: number;
  message: string;
}

const equal = (a: number, b: number) => {
  if (Number.isNaN(a) && Number.isNaN(b)) return true;
  if (a === b) return true;
  return Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b));
};

/** Runs a script; returns the failures (empty when every eval held) and the number of evals. */
export async function runScript(text: string): Promise<{ failures: Failure[]; evals: number }> {
  const lines = text.split("\n");
  let series: Series[] = [];
  const failures: Failure[] = [];
  let evals = 0;
  let i = 0;
  const block = (): { line: string; no: number }[] => {
    const out: { line: string; no: number }[] = [];
    while (i < lines.length && lines[i].trim() !== "" && /^\s/.test(lines[i])) {
      if (!lines[i].trim().startsWith("#")) out.push({ line: lines[i].trim(), no: i + 1 });
      i++;
    }
    return out;
  };
  while (i < lines.length) {
    const raw = lines[i], no = i + 1;
    const line = raw.trim();
    i++;
    if (line === "" || line.startsWith("#")) continue;
    let m: RegExpExecArray | null;
    if ((m = /^load\s+(\S+)$/.exec(line))) {
      series = series.concat(loadBlock(block(), parseTime(m[1])));
    } else if (line === "clear") {
      series = [];
    } else if ((m = /^(eval|eval_ordered|eval_fail)\s+instant\s+at\s+(\S+)\s+(.+)$/.exec(line))) {
      evals++;
      const f = await evalCase(series, m[1], m[3], { at: parseTime(m[2]) }, block());
      if (f !== null) failures.push({ line: no, message: `${m[3]}: ${f}` });
    } else if (
      (m = /^(eval|eval_fail)\s+range\s+from\s+(\S+)\s+to\s+(\S+)\s+step\s+(\S+)\s+(.+)$/.exec(line))
    ) {
      evals++;
      const range = { start: parseTime(m[2]), end: parseTime(m[3]), step: parseTime(m[4]) };
      const f = await evalCase(series, m[1], m[5], range, block());
      if (f !== null) failures.push({ line: no, message: `${m[5]}: ${f}` });
    } else throw new Error(`line ${no}: unknown command ${line}`);
  }
  return { failures, evals };
}

function loadBlock(body: { line: string; no: number }[], intervalMs: number): Series[] {
  return body.map(({ line }) => {
    const [metric, values] = splitSeriesLine(line);
    const samples: Sample[] = [];
    expandValues(values).forEach((v, k) => {
      if (v === "_") return;
      const timestampMs = k * intervalMs;
      samples.push(
        v === "stale" ? { timestampMs, value: STALE_NAN, stale: true } : { timestampMs, value: v },
      );
    });
    return { labels: parseMetric(metric), samples };
  });
}

type When = { at: number } | { start: number; end: number; step: number };

async function evalCase(
  series: Series[],
  kind: string,
  query: string,
  when: When,
  body: { line: string; no: number }[],
): Promise<string | null> {
  const engine = new PromQLEngine(new MemoryQueryable(series));
  let result: QueryResult;
  try {
    result = "at" in when
      ? await engine.instantQuery(query, when.at)
      : await engine.rangeQuery(query, when.start, when.end, when.step);
  } catch (e) {
    if (kind !== "eval_fail") return `unexpected error: ${(e as Error).message}`;
    return checkFailure((e as Error).message, body);
  }
  if (kind === "eval_fail") return `expected an error, got ${JSON.stringify(result)}`;
  const expected: Expected[] = body.map(({ line }) => {
    if (/^[-+]?(\d|\.\d|Inf|NaN)/i.test(line) && !line.includes("{")) {
      return { labels: null, values: expandValues(line) };
    }
    const [metric, values] = splitSeriesLine(line);
    return { labels: parseMetric(metric), values: expandValues(values) };
  });
  return compareResult(result, expected, kind === "eval_ordered", when);
}

function checkFailure(message: string, body: { line: string; no: number }[]): string | null {
  for (const { line } of body) {
    let m = /^expected_fail_message\s+(.*)$/.exec(line);
    if (m && message !== m[1]) return `error ${JSON.stringify(message)}, expected ${JSON.stringify(m[1])}`;
    m = /^expected_fail_regexp\s+(.*)$/.exec(line);
    if (m && !new RegExp(m[1]).test(message)) {
      return `error ${JSON.stringify(message)} does not match /${m[1]}/`;
    }
  }
  return null;
}

function compareResult(
  result: QueryResult,
  expected: Expected[],
  ordered: boolean,
  when: When,
): string | null {
  if (result.resultType === "scalar") {
    if (expected.length !== 1 || expected[0].labels !== null) return `got scalar ${result.value}`;
    const want = expected[0].values[0];
    return typeof want === "number" && equal(want, result.value)
      ? null
      : `scalar ${result.value}, want ${want}`;
  }
  if (result.resultType === "string") return `got string ${result.value}`;
  const got = new Map<string, { labels: Labels; values: SeqValue[]; index: number }>();
  if (result.resultType === "vector") {
    result.result.forEach((s, index) =>
      got.set(labelsKey(s.labels), { labels: s.labels, values: [s.value], index })
    );
  } else {
    const grid = "at" in when ? null : when;
    result.result.forEach((s, index) => {
      const values: SeqValue[] = [];
      if (grid === null) values.push(...s.values);
      else {
        for (let t = grid.start, k = 0; t <= grid.end; t += grid.step) {
          values.push(s.timestamps[k] === t ? s.values[k++] : "_");
        }
      }
      got.set(labelsKey(s.labels), { labels: s.labels, values, index });
    });
  }
  if (got.size !== expected.length) {
    return `got ${got.size} series, want ${expected.length}: ${
      [...got.values()].map((g) => labelsString(g.labels) + " " + g.values.join(" ")).join("; ")
    }`;
  }
  for (let k = 0; k < expected.length; k++) {
    const e = expected[k];
    const g = got.get(labelsKey(e.labels ?? {}));
    if (g === undefined) {
      return `missing ${labelsString(e.labels ?? {})}; got ${
        [...got.values()].map((x) => labelsString(x.labels)).join(", ")
      }`;
    }
    if (ordered && g.index !== k) return `${labelsString(g.labels)} at position ${g.index}, want ${k}`;
    const trimmed = [...g.values];
    while (trimmed.length > e.values.length && trimmed.at(-1) === "_") trimmed.pop();
    const same = trimmed.length === e.values.length &&
      trimmed.every((v, i) =>
        v === e.values[i] ||
        (typeof v === "number" && typeof e.values[i] === "number" && equal(v, e.values[i] as number))
      );
    if (!same) return `${labelsString(g.labels)}: got ${trimmed.join(" ")}, want ${e.values.join(" ")}`;
  }
  return null;
}
