/**
 * The flows of a server: `CREATE FLOW` compiles a statement into a downsampling rule, creates its
 * sink table when there is none (as GreptimeDB does, so dashboards read it before the first window
 * closes), stores the rule (`flow_store.ts`) and hands it to the running downsampler; `DROP FLOW`
 * stops it (its sink stays); `ADMIN FLUSH_FLOW` computes its ended windows at once (a flow without a
 * window key: its whole query, `whole.ts`). At start the stored rules run next to the TOML's
 * (`storedFlowRules`).
 */
import { PetrelError, StatusCode } from "../common/errors.ts";
import type { DownsampleRule } from "../config/downsample.ts";
import type { Storage } from "../storage/mod.ts";
import { createBatchTable } from "../storage/writer.ts";
import { compileFlow } from "./flow_compile.ts";
import { compileTqlFlow } from "./flow_tql.ts";
import type { FlowSpec } from "./flow_spec.ts";
import { deleteFlow, listFlows, nextFlowId, saveFlow } from "./flow_store.ts";
import { type Downsampler, ruleKey } from "./downsampler.ts";
import { flowBatch } from "./target.ts";

/** The rules of the stored flows, to start the downsampler with. */
export function storedFlowRules(storage: Storage): DownsampleRule[] {
  return listFlows(storage).map((f) => f.rule);
}

const notFound = (name: string) =>
  new PetrelError(StatusCode.FlowNotFound, `Flow not found: greptime.${name}`);

/** Creating, dropping and flushing flows (what `src/sql/flow.ts`'s statements call). */
export class FlowService {
  constructor(private readonly storage: Storage, private readonly downsampler: Downsampler) {}

  /** Creates a flow; 0 when it exists and `ifNotExists`, else 1 (OR REPLACE drops the old one first). */
  async create(spec: FlowSpec, opts: { orReplace: boolean; ifNotExists: boolean }): Promise<number> {
    const existing = listFlows(this.storage).find((f) => f.spec.name === spec.name);
    if (existing !== undefined) {
      if (opts.ifNotExists) return 0;
      if (!opts.orReplace) {
        throw new PetrelError(StatusCode.FlowAlreadyExists, `Flow already exists: greptime.${spec.name}`);
      }
    }
    const id = nextFlowId(this.storage);
    const compiled = spec.tql
      ? await compileTqlFlow(this.storage, spec, id, this.downsampler.tql)
      : compileFlow(this.storage, spec, id);
    const target = `${compiled.rule.target_database}.${compiled.rule.target}`.toLowerCase();
    const other = this.downsampler.ruleList.find((r) =>
      `${r.target_database}.${r.target}`.toLowerCase() === target && r.sink?.flow !== spec.name
    );
    if (other !== undefined) {
      const owner = other.sink ? `flow ${other.sink.flow}` : "a [[downsample]] rule";
      throw new PetrelError(
        StatusCode.InvalidArguments,
        `CREATE FLOW: sink table ${compiled.rule.target} is already written by ${owner}`,
      );
    }
    const { rule } = compiled;
    // the sink is made first, so a sink that cannot be made (no such database) leaves no flow
    const made = this.storage.getTable(rule.target_database, rule.target) === undefined;
    if (made) createBatchTable(this.storage.database(rule.target_database), flowBatch(rule, rule.sink!, []));
    try {
      if (existing !== undefined) await this.downsampler.removeRule(ruleKey(existing.rule));
      saveFlow(this.storage, { id, spec: compiled.spec, rule, createdMs: Date.now() });
    } catch (e) {
      if (made) this.storage.dropTable(rule.target_database, rule.target);
      throw e;
    }
    this.downsampler.addRule(rule);
    return 1;
  }

  /** Drops a flow (its sink table stays); false when there is none and `ifExists`. */
  async drop(name: string, ifExists: boolean): Promise<void> {
    const flow = listFlows(this.storage).find((f) => f.spec.name === name);
    if (flow === undefined) {
      if (ifExists) return;
      throw notFound(name);
    }
    deleteFlow(this.storage, name);
    await this.downsampler.removeRule(ruleKey(flow.rule));
  }

  /**
   * Computes a flow's windows ended by now (its `delay` not waited for); the windows written (without
   * a window key: its whole query, the rows written).
   */
  async flush(name: string): Promise<number> {
    const flow = listFlows(this.storage).find((f) => f.spec.name === name);
    if (flow === undefined) throw notFound(name);
    return await this.downsampler.flush(ruleKey(flow.rule));
  }
}
