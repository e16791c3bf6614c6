/** Shared helpers for the engine's data-driven tests. */
import assert from "node:assert/strict";
import { compileProcessors, runProcessors } from "../../engine/pipeline.ts";
import { PipelineCompileError } from "../../engine/errors.ts";
import { deepClone, Timestamp } from "../../engine/value.ts";
import { loadYaml, mapGet } from "../../engine/yaml_doc.ts";
import "../../engine/identity.ts";
import type { Pipeline, PipelineResult } from "../../engine/pipeline_types.ts";

/** One processor case: a YAML processor list, an input record, and the expected entry or error. */
export interface ProcessorCase {
  name: string;
  yaml: string;
  input: unknown;
  /** Expected entry after the processors (timestamps written as `ts:<rfc3339>`), or `null` for dropped. */
  output?: unknown;
  /** Substring of the compile-time error message. */
  compileError?: string;
  /** Substring of the run-time error message. */
  runError?: string;
}

/** Renders engine values comparably: timestamps become `ts:<rfc3339>`, bigints strings. */
export function plain(v: unknown): unknown {
  if (v instanceof Timestamp) return "ts:" + v.toRfc3339();
  if (typeof v === "bigint") return `${v}n`;
  if (v instanceof Uint8Array) return "bytes:" + new TextDecoder().decode(v);
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = plain((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/** Runs one processor case with node:assert. */
export function runProcessorCase(c: ProcessorCase): void {
  const compile = () => compileProcessors(mapGet(loadYaml(`processors:\n${c.yaml}`), "processors"));
  if (c.compileError !== undefined) {
    assert.throws(compile, (e: Error) => {
      assert.ok(e instanceof PipelineCompileError, `expected a compile error, got ${e}`);
      assert.ok(e.message.includes(c.compileError!), `"${e.message}" should contain "${c.compileError}"`);
      return true;
    });
    return;
  }
  const procs = compile();
  const input = deepClone(c.input);
  if (c.runError !== undefined) {
    assert.throws(() => runProcessors(procs, input), (e: Error) => {
      assert.ok(e.message.includes(c.runError!), `"${e.message}" should contain "${c.runError}"`);
      return true;
    });
    return;
  }
  const r = runProcessors(procs, input);
  const got = r;
  assert.deepEqual(plain(got), plain(c.output));
}

/** Runs a pipeline with defaults suitable for tests. */
export function run(
  p: Pipeline,
  records: unknown[],
  opts: { table?: string; skipError?: boolean; resolve?: (n: string) => Pipeline | undefined } = {},
): PipelineResult {
  return p.run(deepClone(records), {
    table: opts.table ?? "t",
    skipError: opts.skipError ?? false,
    resolve: opts.resolve ?? (() => undefined),
  });
}

/** A batch as `{table, options, columns: "name:Type:SEMANTIC"[], rows}` for compact assertions. */
export function summary(res: PipelineResult) {
  return res.batches.map((b) => ({
    table: b.table,
    options: b.options,
    columns: b.columns.map((c) => `${c.name}:${c.type}:${c.semantic}`),
    rows: b.rows.map((r) => r.map(plain)),
  }));
}
