/**
 * Pipeline definitions and their versions, kept in `greptime_private.pipelines` (GreptimeDB's table
 * and columns) and mirrored in memory with each version compiled once.
 */
import type { compilePipeline } from "./pipeline.ts";
import type { identityPipeline } from "./identity.ts";
import type { Pipeline } from "./pipeline_types.ts";
import { invalidArguments } from "../src/common/errors.ts";
import { executeSql } from "../src/sql/mod.ts";
import type { Storage } from "../src/storage/mod.ts";
import type { ColumnSchema, WriteBatch } from "../src/common/rows.ts";
import { formatVersion, parseVersion } from "./store_version.ts";

const DB = "greptime_private";
const TABLE = "pipelines";
// Tag order is GreptimeDB's PRIMARY KEY (schema, name, content_type).
const COLUMNS: ColumnSchema[] = [
  { name: "schema", type: "String", semantic: "TAG" },
  { name: "name", type: "String", semantic: "TAG" },
  { name: "content_type", type: "String", semantic: "TAG" },
  { name: "pipeline", type: "String", semantic: "FIELD" },
  { name: "created_at", type: "TimestampNanosecond", semantic: "TIMESTAMP" },
];

/** One stored version. */
export interface PipelineVersion {
  name: string;
  version: bigint;
  yaml: string;
  compiled?: Pipeline;
}

/** The names of built-in pipelines. */
export const IDENTITY_PIPELINE = "greptime_identity";

interface PipelineEngine {
  compilePipeline: typeof compilePipeline;
  identityPipeline: typeof identityPipeline;
}

let engine: PipelineEngine | undefined;

/**
 * Loads the pipeline engine (processors, VRL and its stdlib, YAML): a server that never runs a
 * pipeline never holds it in memory. The route modules that compile pipelines load it with them
 * (`routes/mod.ts`); `add` and `compiled` need it.
 */
export async function loadPipelineEngine(): Promise<void> {
  if (engine) return;
  const [pipeline, identity] = await Promise.all([
    import("./pipeline.ts"),
    import("./identity.ts"),
    import("./vrl/stdlib/libraries.ts").then((m) => m.loadVrlLibraries()),
  ]);
  engine = { compilePipeline: pipeline.compilePipeline, identityPipeline: identity.identityPipeline };
}

function loadedEngine(): PipelineEngine {
  if (!engine) throw new Error("the pipeline engine is not loaded: call loadPipelineEngine() first");
  return engine;
}

/** Persistent pipeline store. */
export class PipelineStore {
  private readonly byName = new Map<string, PipelineVersion[]>();
  private lastVersion = 0n;

  constructor(private readonly storage: Storage) {
    this.load();
  }

  private load(): void {
    if (!this.storage.getTable(DB, TABLE)) return;
    const [out] = executeSql(this.storage, `SELECT name, pipeline, created_at FROM ${TABLE}`, { db: DB });
    if (out.kind !== "records") return;
    for (const [name, yaml, created] of out.rows) {
      this.remember({ name: String(name), yaml: String(yaml), version: BigInt(created as number | bigint) });
    }
  }

  private remember(v: PipelineVersion): void {
    const list = this.byName.get(v.name) ?? [];
    list.push(v);
    list.sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
    this.byName.set(v.name, list);
    if (v.version > this.lastVersion) this.lastVersion = v.version;
  }

  /** Compiles and stores a new version; returns its version string. Compile errors store nothing. */
  add(name: string, yaml: string): PipelineVersion {
    const compiled = loadedEngine().compilePipeline(yaml, { name });
    const now = BigInt(Date.now()) * 1_000_000n + BigInt(Math.floor((performance.now() % 1) * 1e6));
    const version = now > this.lastVersion ? now : this.lastVersion + 1n;
    const batch: WriteBatch = {
      table: TABLE,
      columns: COLUMNS,
      rows: [["", name, "yaml", yaml, version]],
      createType: "physical",
      options: { ttl: "forever" },
    };
    this.storage.write(DB, [batch]);
    const entry = { name, version, yaml, compiled };
    this.remember(entry);
    return entry;
  }

  /** The given version (or the latest) of a pipeline, or undefined. */
  get(name: string, version?: string | null): PipelineVersion | undefined {
    const list = this.byName.get(name);
    if (!list || list.length === 0) return undefined;
    if (version === undefined || version === null || version === "") return list[list.length - 1];
    const ns = parseVersion(version);
    return list.find((v) => v.version === ns);
  }

  /** The compiled pipeline, built-ins included; throws GreptimeDB's "not found" error. */
  compiled(
    name: string,
    version?: string | null,
    identity?: Parameters<typeof identityPipeline>[0],
  ): Pipeline {
    if (name === IDENTITY_PIPELINE) return loadedEngine().identityPipeline(identity);
    const v = this.get(name, version);
    if (!v) {
      throw invalidArguments(
        `Pipeline not found, name: ${name}, version: ${version ? version.trim() : "latest"}`,
      );
    }
    v.compiled ??= loadedEngine().compilePipeline(v.yaml, { name });
    return v.compiled;
  }

  /** Deletes one version; returns whether it existed. */
  delete(name: string, version: string): boolean {
    const ns = parseVersion(version);
    const list = this.byName.get(name);
    const index = list?.findIndex((v) => v.version === ns) ?? -1;
    if (!list || index < 0) return false;
    const quoted = `'${name.replaceAll("'", "''")}'`;
    executeSql(this.storage, `DELETE FROM ${TABLE} WHERE name = ${quoted} AND created_at = ${ns}`, {
      db: DB,
    });
    list.splice(index, 1);
    return true;
  }
}

export { formatVersion };
