/**
 * GreptimeDB/PostgreSQL functions SQLite lacks, as one table of SQLite user functions registered on
 * every connection SQL runs on. Time functions take their column's unit as an extra argument that
 * the rewriter adds.
 *
 * A few groups are lazy (LAZY_GROUPS): their libraries cost a query worker most of its start (h3-js,
 * re2js, node:crypto: ~100 ms of a ~240 ms first query, measured) and h3-js ~0.6 MB of the idle
 * server's RSS, so this module knows only their names. A thread loads a group when a
 * statement names one of its functions (`loadFunctionsFor`), or when one reached through a view or a
 * flow is missing (`withLazyFunctions`). Statements run synchronously: load before, never during.
 */
import type { DatabaseSync } from "node:sqlite";
import { AGGREGATES as OTHER_AGGREGATES } from "./aggregates.ts";
import { CAST_SCALARS, TRY_CAST_SCALARS } from "./casts.ts";
import { DECIMAL_AGGREGATES, DECIMAL_SCALARS } from "./decimals.ts";
import { SCALARS as OTHER_SCALARS } from "./scalars.ts";
import { FULLTEXT_SCALARS } from "./fulltext.ts";
import { ORDERED_AGGREGATES } from "./ordered.ts";
import { NON_NULL_AGGREGATES } from "./non_null_values.ts";
import { GREPTIME_SCALARS } from "./greptime.ts";
import { IP_SCALARS } from "./ip.ts";
import { DATE_SCALARS } from "./dates.ts";
import { DATAFUSION_SCALARS } from "./datafusion.ts";
import { TIME_SCALARS } from "./time.ts";
import { VECTOR_AGGREGATES, VECTOR_SCALARS } from "./vector.ts";
import { SERIES_SCALARS } from "./series.ts";
import { METRIC_CHUNK_AGGREGATES } from "./metric_chunks.ts";
import { ARRAY_SCALARS } from "./arrays.ts";
import { ARRAY_SET_SCALARS } from "./array_sets.ts";
import { SKETCH_AGGREGATES, SKETCH_SCALARS } from "./sketches.ts";
import { GEO_SCALARS } from "./geo.ts";
import { REGRESSION_AGGREGATES } from "./regression.ts";
import { type AggDef, type Arg, checkArgCount, type Ret, type ScalarDef } from "./values.ts";
import { storedText } from "../../storage/nul_text.ts";

/**
 * The running query's cancel flag (a query worker's; 1 = cancelled): `__petrel_alive()`, which the
 * rewriter puts into recursive CTEs, reads it, since SQLite cannot be interrupted from outside.
 */
let cancelFlag: Int32Array | undefined;

/** Sets (or clears) the flag `__petrel_alive()` reads for the query about to run on this thread. */
export function setCancelFlag(flag: Int32Array | undefined): void {
  cancelFlag = flag;
}

/** When (`performance.now()`) `__petrel_alive()` turns false on this thread (`withDeadline`). */
let deadline = Infinity;

/**
 * Runs `run` with `__petrel_alive()` false once `ms` have passed: a recursive CTE stops growing there
 * and the statement ends with the rows it has. For a probe on the main thread, which nothing else
 * can cancel (a view's column types read off its first row).
 */
export function withDeadline<T>(ms: number, run: () => T): T {
  const saved = deadline;
  deadline = Math.min(saved, performance.now() + ms);
  try {
    return run();
  } finally {
    deadline = saved;
  }
}

const ALIVE: ScalarDef = {
  deterministic: false,
  fn: () =>
    (cancelFlag !== undefined && Atomics.load(cancelFlag, 0) !== 0) ||
      (deadline !== Infinity && performance.now() > deadline)
      ? 0
      : 1,
};

const SCALARS: Record<string, ScalarDef> = {
  ...TIME_SCALARS,
  ...OTHER_SCALARS,
  ...CAST_SCALARS,
  ...TRY_CAST_SCALARS,
  ...FULLTEXT_SCALARS,
  ...DECIMAL_SCALARS,
  ...GREPTIME_SCALARS,
  ...IP_SCALARS,
  ...DATE_SCALARS,
  ...DATAFUSION_SCALARS,
  ...VECTOR_SCALARS,
  ...SERIES_SCALARS,
  ...ARRAY_SCALARS,
  ...ARRAY_SET_SCALARS,
  ...SKETCH_SCALARS,
  ...GEO_SCALARS,
  __petrel_alive: ALIVE,
};
const AGGREGATES: Record<string, AggDef> = {
  ...OTHER_AGGREGATES,
  ...DECIMAL_AGGREGATES,
  ...ORDERED_AGGREGATES,
  ...VECTOR_AGGREGATES,
  ...NON_NULL_AGGREGATES,
  ...SKETCH_AGGREGATES,
  ...REGRESSION_AGGREGATES,
  ...METRIC_CHUNK_AGGREGATES,
};

/** A group of scalar functions loaded on first use: their names, and the module that holds them. */
interface LazyGroup {
  names: readonly string[];
  load(): Promise<Record<string, ScalarDef>>;
}

/** The lazy groups by name (a test checks `names` against each module's table). */
export const LAZY_GROUPS: Readonly<Record<string, LazyGroup>> = {
  h3: {
    names: [
      "h3_latlng_to_cell",
      "h3_latlng_to_cell_string",
      "h3_cell_to_string",
      "h3_string_to_cell",
      "h3_cell_center_latlng",
      "h3_cell_resolution",
      "h3_cell_base",
      "h3_cell_is_pentagon",
      "h3_cell_parent",
      "h3_cell_to_children",
      "h3_cell_to_children_size",
      "h3_cell_to_child_pos",
      "h3_child_pos_to_cell",
      "h3_grid_disk",
      "h3_grid_disk_distances",
      "h3_grid_distance",
      "h3_grid_path_cells",
      "h3_distance_sphere_km",
      "h3_distance_degree",
      "h3_cells_contains",
    ],
    load: async () => (await import("./h3.ts")).H3_SCALARS,
  },
  regex: {
    names: [
      "regexp",
      "__petrel_icase",
      "regexp_like",
      "regexp_replace",
      "regexp_match",
      "regexp_count",
      "regexp_instr",
    ],
    load: async () => (await import("./regex.ts")).REGEX_SCALARS,
  },
  hashes: {
    names: [
      "md5",
      "sha224",
      "sha256",
      "sha384",
      "sha512",
      "digest",
    ],
    load: async () => (await import("./hashes.ts")).HASH_SCALARS,
  },
};

/** The lazy groups loaded on this thread, by group name. */
const loaded = new Map<string, Record<string, ScalarDef>>();

/** Makes a lazy group's functions available to connections on this thread (mod.ts does so for all). */
export function provideFunctionGroup(group: string, scalars: Record<string, ScalarDef>): void {
  loaded.set(group, scalars);
}

/** Lazy group by (lowercased) function name. */
const GROUP_OF = new Map(
  Object.entries(LAZY_GROUPS).flatMap(([group, g]) => g.names.map((n) => [n, group] as const)),
);

/** Loads a lazy group on this thread (once). */
async function loadGroup(group: string): Promise<void> {
  if (!loaded.has(group)) provideFunctionGroup(group, await LAZY_GROUPS[group].load());
}

/**
 * Loads the lazy groups whose functions `sql` names (any word that is one of their names counts, an
 * operator such as REGEXP too: a word in a string literal only loads a group for nothing). The regex
 * operators `~`, `!~`, `~*` and SIMILAR TO name the regex group: the rewriter makes them REGEXP.
 */
export async function loadFunctionsFor(sql: string): Promise<void> {
  // nothing left to load: spare a long statement the scan
  if (loaded.size === Object.keys(LAZY_GROUPS).length) return;
  const wanted = new Set<string>();
  for (const [word] of sql.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
    const group = GROUP_OF.get(word.toLowerCase());
    if (group !== undefined) wanted.add(group);
  }
  // `x SIMILAR TO p` becomes `x REGEXP p` (rewrite/tokens.ts)
  if (sql.includes("~") || /similar/i.test(sql)) wanted.add("regex");
  for (const group of wanted) await loadGroup(group);
}

/**
 * The lazy group not loaded yet that owns the function an error says is missing: SQLite's "no such
 * function: X", or the same as rendered for the user (results.ts `mapSqliteError`).
 */
function missingGroup(e: unknown): string | undefined {
  const msg = e instanceof Error ? e.message : String(e);
  const m = /no such function: ([A-Za-z0-9_]+)|Invalid function '([A-Za-z0-9_]+)'/.exec(msg);
  const group = m ? GROUP_OF.get((m[1] ?? m[2]).toLowerCase()) : undefined;
  return group !== undefined && !loaded.has(group) ? group : undefined;
}

/**
 * Runs `run`, and again each time it fails for want of a lazy group's function, with that group
 * loaded: a statement can reach one its text does not name, through a view (nested ones too) or a
 * flow. Only statements that fail before they change anything may run here (a missing function fails
 * when SQLite prepares). Each retry loads a group not loaded before, so it ends; any other error,
 * an unknown function's too, is thrown as it was.
 */
export async function withLazyFunctions<T>(run: () => T | Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await run();
    } catch (e) {
      const group = missingGroup(e);
      if (group === undefined) throw e;
      await loadGroup(group);
    }
  }
}

/** Names of the aggregate functions this module provides (a range query's RANGE must hold one). */
export const AGGREGATE_FUNCTION_NAMES: ReadonlySet<string> = new Set(Object.keys(AGGREGATES));

/** Names of the functions this module provides (lazy ones too), for the rewriter's checks. */
export const FUNCTION_NAMES = new Set([
  ...Object.keys(SCALARS),
  ...Object.keys(AGGREGATES),
  ...GROUP_OF.keys(),
]);

/** The groups registered on each connection ("" = the eager functions). */
const registered = new WeakMap<DatabaseSync, Set<string>>();

/*
 * An exception thrown inside a user function hangs node:sqlite under Deno 2.9.6 (measured), so
 * every function catches, returns NULL, and parks the error here for the caller to rethrow.
 */
let parkedError: unknown = undefined;

/** Returns (and clears) the first error a user function raised since the last call. */
export function takeFunctionError(): unknown {
  const e = parkedError;
  parkedError = undefined;
  return e;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A function's result as SQLite must get it: a string holding a NUL as its bytes (storage/nul_text.ts). */
function whole(r: Ret): Ret {
  return typeof r === "string" ? storedText(r) : r;
}

function guarded<A extends unknown[]>(fn: (...args: A) => Ret, fallback: Ret): (...args: A) => Ret {
  return (...args: A): Ret => {
    try {
      const r = fn(...args);
      // node:sqlite hangs on a bigint result past 64 bits (measured, Deno 2.9.6): fail as SQLite's abs does
      if (typeof r === "bigint" && (r < INT64_MIN || r > INT64_MAX)) throw new Error("integer overflow");
      return whole(r);
    } catch (e) {
      parkedError ??= e;
      return fallback;
    }
  };
}

/**
 * Registers the function table on a connection: the eager functions once, and each lazy group loaded
 * on this thread once it is (call again after `loadFunctionsFor`).
 */
export function registerSqlFunctions(db: DatabaseSync): void {
  let done = registered.get(db);
  if (done === undefined) {
    registered.set(db, done = new Set([""]));
    // DataFusion's LIKE is case-sensitive (ILIKE is rewritten to compare lowercased operands)
    db.exec("PRAGMA case_sensitive_like = ON");
    registerScalars(db, SCALARS);
    registerAggregates(db);
  }
  for (const [group, scalars] of loaded) {
    if (done.has(group)) continue;
    done.add(group);
    registerScalars(db, scalars);
  }
}

function registerScalars(db: DatabaseSync, scalars: Record<string, ScalarDef>): void {
  for (const [name, def] of Object.entries(scalars)) {
    const counted = def.args
      ? (...args: Arg[]) => {
        checkArgCount(name, args.length, def.args!);
        return def.fn(...args);
      }
      : def.fn;
    const fn = def.int
      ? (...args: Arg[]) => {
        const r = counted(...args);
        return typeof r === "number" && Number.isInteger(r) ? BigInt(r) : r;
      }
      : counted;
    const call = guarded((def.bigint ? fn : asNumbers(fn)) as (...args: unknown[]) => Ret, null);
    db.function(
      name,
      {
        deterministic: def.deterministic ?? true,
        varargs: !def.binary,
        useBigIntArguments: true,
      },
      // node:sqlite takes a fixed arity from the function's length
      def.binary ? (a: unknown, b: unknown) => call(a, b) : call,
    );
  }
}

/**
 * Integer arguments reach every function as bigints and are made numbers here for those that do not
 * take bigints (as DataFusion coerces Int64 to Float64): node:sqlite hangs for good, before any code of
 * ours runs, when it hands a function an integer past 2^53 as a number (measured, Deno 2.9.6). The
 * conversion costs ~25 ns a call (1M calls: ~130 → ~155 ms).
 */
function numbersInPlace(args: unknown[]): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (typeof a === "bigint") args[i] = Number(a);
  }
}

function asNumbers<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return (...args: A) => {
    numbersInPlace(args);
    return fn(...args);
  };
}

function inverseOf(inverse: unknown, bigint: boolean): (acc: unknown, ...args: unknown[]) => unknown {
  const f = inverse as (acc: unknown, ...args: unknown[]) => unknown;
  return bigint ? f : (acc, ...args) => {
    numbersInPlace(args);
    return f(acc, ...args);
  };
}

function registerAggregates(db: DatabaseSync): void {
  for (const [name, def] of Object.entries(AGGREGATES)) {
    db.aggregate(
      name,
      {
        start: def.start,
        step: (acc: unknown, ...args: Arg[]) => {
          try {
            if (def.args) checkArgCount(name, args.length, def.args);
            if (!def.bigint) numbersInPlace(args);
            return def.step(acc, ...args);
          } catch (e) {
            parkedError ??= e;
            return acc;
          }
        },
        result: guarded((acc: unknown) => (def.result as (acc: unknown) => Ret)(acc), null),
        ...(def.inverse ? { inverse: inverseOf(def.inverse, def.bigint ?? false) } : {}),
        varargs: true,
        useBigIntArguments: true,
      } as Parameters<DatabaseSync["aggregate"]>[1],
    );
  }
}
