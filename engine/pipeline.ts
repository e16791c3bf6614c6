/**
 * Compiles a pipeline document (reference §3) and runs it over a request's entries: processors,
 * dispatcher, transform / auto-typing, hints, grouping into write batches.
 */
import { rowCountOf, type Value } from "../src/common/rows.ts";
import { PetrelError } from "../src/common/errors.ts";
import { OptionReader } from "./config.ts";
import { compileDispatcher, type Dispatcher, matchRule } from "./dispatcher.ts";
import { compileError, execError, illegalState } from "./errors.ts";
import { takeHints } from "./hints.ts";
import type { Processor, TimeField } from "./processors/common.ts";
import { PROCESSORS } from "./processors/mod.ts";
import { RowCollector, timeIndexCell } from "./rows.ts";
import { compileTableSuffix, renderTableSuffix, type TableSuffixTemplate } from "./table_suffix.ts";
import { compileTransforms, produceCell, type TransformColumn } from "./transform.ts";
import { identityPipeline } from "./identity.ts";
import type { Pipeline, PipelineResult, RunContext, TransformMode } from "./pipeline_types.ts";
import { type Entry, isObject, kindName } from "./value.ts";
import { keyString, loadYaml, mapGet, nodeText, type YNode } from "./yaml_doc.ts";
import { timestampType } from "../src/common/time_unit.ts";

/** Compiles YAML text; throws PipelineCompileError (1004) with GreptimeDB's messages. */
export function compilePipeline(yaml: string, opts: { name?: string } = {}): Pipeline {
  const doc = loadYaml(yaml);
  if (doc.t !== "map") {
    // yaml-rust accepts a non-map document but then finds no keys: no processors, no transform.
    return new CompiledPipeline(opts.name, 1, [], [], undefined, undefined);
  }
  const version = parseVersion(mapGet(doc, "version"));
  const processors = compileProcessors(mapGet(doc, "processors"));
  // `transforms` is accepted as well and wins over `transform`.
  const transformNode = mapGet(doc, "transforms") ?? mapGet(doc, "transform");
  const transformItems = transformNode?.t === "seq" ? transformNode.items : [];
  const transform = transformItems.length ? compileTransforms(transformItems, version) : [];
  const dispNode = mapGet(doc, "dispatcher");
  const dispatcher = dispNode && dispNode.t !== "null" ? compileDispatcher(dispNode) : undefined;
  const suffixNode = mapGet(doc, "table_suffix");
  let tableSuffix: TableSuffixTemplate | undefined;
  if (suffixNode && suffixNode.t !== "null") {
    tableSuffix = compileTableSuffix(suffixNode.t === "str" ? suffixNode.v : undefined, {
      key: "table_suffix",
      line: suffixNode.line || undefined,
    });
  }
  return new CompiledPipeline(opts.name, version, processors, transform, dispatcher, tableSuffix, doc.line);
}

function parseVersion(n: YNode | undefined): 1 | 2 {
  if (!n || n.t === "null") return 1;
  if ((n.t === "int" || n.t === "str") && (String(n.v) === "1" || String(n.v) === "2")) {
    return Number(n.v) as 1 | 2;
  }
  return compileError(`Invalid Pipeline doc version number: ${nodeText(n)}`, {
    key: "version",
    line: n.line,
  });
}

/** Compiles a `processors` list node (exported for tests and tools). */
export function compileProcessors(n: YNode | undefined): Processor[] {
  if (!n || n.t !== "seq") return [];
  return n.items.map((item) => {
    const loc = { line: item.line || undefined };
    if (item.t !== "map") return compileError("Processor must be a map", loc);
    if (item.pairs.length === 0) return compileError("Processor must have a string key", loc);
    const first = item.pairs[0];
    const name = keyString(first);
    if (name === undefined) return compileError("Processor key must be a string", loc);
    if (!Object.hasOwn(PROCESSORS, name)) return compileError(`Unsupported ${name} processor`, loc);
    if (first.value.t !== "map") {
      return compileError("Processor must be a map", { processor: name, line: first.value.line || loc.line });
    }
    for (const p of first.value.pairs) {
      if (p.key.t !== "str") {
        return compileError(`Key must be a string, but got ${nodeText(p.key)}`, {
          processor: name,
          line: p.key.line,
        });
      }
    }
    return PROCESSORS[name](new OptionReader(name, first.value));
  });
}

/**
 * A one-to-many VRL result: its elements, and the index of the first processor still to run on each
 * element (the processors after the `vrl` one that produced the array).
 */
export class FanOut {
  constructor(readonly elements: readonly unknown[], readonly resume: number) {}
}

/**
 * The outcome of the processor stage for one record: null when dropped, the entry, or (after a VRL
 * one-to-many result) a fan-out. Only the fan-out is wrapped, to keep the per-record path lean.
 */
export type Processed = null | Entry | FanOut;

/**
 * Runs the processors from index `from` over one record. A `vrl` processor sees whatever the
 * previous one returned, an array included (as in GreptimeDB); a field processor meeting a VRL
 * array stops the run with a fan-out, and the rest of the processors then run on each element.
 */
export function runProcessors(processors: readonly Processor[], record: unknown, from = 0): Processed {
  let cur: unknown = record;
  let fromVrl = false;
  for (let i = from; i < processors.length; i++) {
    const p = processors[i];
    if (!p.wholeEntry && !isObject(cur)) {
      // A scalar here fails as in GreptimeDB; an array is our extension of it (see fanOut).
      if (fromVrl && Array.isArray(cur)) return new FanOut(cur, i);
      throw illegalState("Top level value must be map");
    }
    cur = p.exec(cur as Entry);
    if (cur === null || cur === undefined) return null;
    fromVrl = p.wholeEntry === true;
  }
  if (isObject(cur)) return cur;
  // Only a VRL result fans out (a scalar as a one-element array); a record never an object is an error.
  if (!fromVrl) throw illegalState("Top level value must be map");
  return new FanOut(Array.isArray(cur) ? cur : [cur], processors.length);
}

/** Element `index` of a one-to-many VRL result as an entry; it must be an object. */
export function oneToManyEntry(element: unknown, index: number): Entry {
  if (isObject(element)) return element;
  throw illegalState(
    `Array element at index ${index} must be an object for one-to-many transformation, got ${
      kindName(element)
    }`,
  );
}

class CompiledPipeline implements Pipeline {
  readonly mode: TransformMode;
  private readonly timeField?: TimeField;
  /** Keys the transform stage consumes (v2 inputs, the auto time field): invisible afterwards. */
  private readonly consumed?: ReadonlySet<string>;

  constructor(
    readonly name: string | undefined,
    readonly version: 1 | 2,
    readonly processors: Processor[],
    readonly transform: TransformColumn[],
    readonly dispatcher: Dispatcher | undefined,
    readonly tableSuffix: TableSuffixTemplate | undefined,
    docLine = 0,
  ) {
    this.mode = transform.length ? (version === 2 ? "v2" : "v1") : "auto";
    if (this.mode === "auto") {
      // Only processors without `ignore_missing: true` offer a time index (reference §3.2).
      const candidates = processors.flatMap((p) => p.timeFields ?? []).filter((f) => !f.ignoreMissing);
      if (candidates.length !== 1) {
        compileError(
          "Exactly one time-related processor and one timestamp value is required to use auto transform. `ignore_missing` can not be set to true.",
          { processor: "transform", line: docLine || undefined },
        );
      }
      this.timeField = candidates[0];
      this.consumed = new Set([this.timeField.target]);
    } else if (this.mode === "v2") this.consumed = new Set(transform.map((t) => t.input));
  }

  run(records: unknown[], ctx: RunContext): PipelineResult {
    const initial = this.mode === "auto"
      ? [{
        name: this.timeField!.target,
        type: timestampType(this.timeField!.unit),
        semantic: "TIMESTAMP" as const,
      }]
      : this.transform.map((t) => t.column);
    const rows = new RowCollector(initial, ctx.existingColumns?.(ctx.table));
    let skipped = 0;
    const dispatched = new Map<number, Entry[]>();
    for (let r = 0; r < records.length; r++) {
      let processed: Processed;
      try {
        processed = runProcessors(this.processors, records[r]);
        if (processed === null) continue;
        if (!(processed instanceof FanOut)) {
          const rule = this.dispatcher ? matchRule(this.dispatcher, processed) : undefined;
          if (rule) {
            const i = this.dispatcher!.rules.indexOf(rule);
            const list = dispatched.get(i);
            if (list) list.push(processed);
            else dispatched.set(i, [processed]);
          } else this.buildRow(processed, rows, ctx);
          continue;
        }
      } catch (e) {
        if (!ctx.skipError) throw e;
        skipped++;
        continue;
      }
      skipped += this.fanOut(processed, rows, ctx);
    }
    const batches = rows.finish();
    for (const [i, entries] of dispatched) {
      const rule = this.dispatcher!.rules[i];
      const child = rule.pipeline === undefined ? identityPipeline() : ctx.resolve(rule.pipeline);
      if (!child) throw execError(`Pipeline not found, name: ${rule.pipeline}, version: latest`);
      const res = child.run(entries, { ...ctx, table: ctx.table + rule.tableSuffix });
      batches.push(...res.batches);
      skipped += res.skipped;
    }
    return { batches: batches.filter((b) => rowCountOf(b) > 0), skipped };
  }

  /**
   * Turns each element of a one-to-many result into a row (the dispatcher is skipped, as in
   * GreptimeDB); with skip_error a failing element skips only itself. Returns the skipped count.
   */
  private fanOut(fan: FanOut, rows: RowCollector, ctx: RunContext): number {
    let skipped = 0;
    const rest = fan.resume < this.processors.length;
    for (let i = 0; i < fan.elements.length; i++) {
      try {
        const entry = oneToManyEntry(fan.elements[i], i);
        try {
          const next = rest ? runProcessors(this.processors, entry, fan.resume) : entry;
          if (next instanceof FanOut) skipped += this.fanOut(next, rows, ctx);
          else if (next !== null) this.buildRow(next, rows, ctx);
        } catch (e) {
          if (e instanceof PetrelError) {
            throw new PetrelError(e.code, `Failed to transform array element at index ${i}: ${e.message}`);
          }
          throw e;
        }
      } catch (e) {
        if (!ctx.skipError) throw e;
        skipped++;
      }
    }
    return skipped;
  }

  private buildRow(entry: Entry, rows: RowCollector, ctx: RunContext): void {
    const row: Value[] = new Array(rows.columns.length);
    const tf = this.transform;
    if (this.mode === "auto") {
      const key = this.timeField!.target;
      row[0] = timeIndexCell(entry[key], this.timeField!.unit);
    } else {
      for (let i = 0; i < tf.length; i++) row[i] = produceCell(tf[i], entry);
    }
    // Consumed keys are skipped rather than deleted: `delete` turns objects into slow dictionaries.
    const consumed = this.consumed;
    const hints = takeHints(entry, consumed);
    let suffix = hints.suffix;
    if (suffix === undefined && this.tableSuffix) {
      suffix = renderTableSuffix(this.tableSuffix, entry, consumed);
    }
    if (this.mode !== "v1") rows.autoTypeInto(entry, row, consumed);
    rows.push(row, suffix ? ctx.table + suffix : ctx.table, hints.options);
  }
}
