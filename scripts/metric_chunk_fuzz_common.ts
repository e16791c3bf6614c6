/**
 * What the metric chunk fuzz (`metric_chunk_fuzz.ts`) and its queries (`metric_chunk_fuzz_queries.ts`)
 * share: its arguments, the seeded random stream, the data's hours and its tables' tags.
 */
import { seededRandom } from "../test/helpers/random.ts";

const args = Deno.args.filter((a) => !a.startsWith("--"));
export const SEED = Number(args[0] ?? 1), QUERIES = Number(args[1] ?? 300);
export const VERBOSE = Deno.args.includes("--verbose"), PRINT = Deno.args.includes("--print");

export const log = (msg: string) => VERBOSE && console.log(msg);

export const rand = seededRandom(SEED);
export const int = (n: number) => Math.floor(rand() * n);
export const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
export const chance = (p: number) => rand() < p;

export const HOUR = 3_600_000;
/** The data is of the six hours before the current one (so a seed gives the same data at any minute). */
export const NOW = Math.floor(Date.now() / HOUR) * HOUR;
export const BASE = NOW - 6 * HOUR;

/** The tables: their tags and series, each a label set (a missing label reads NULL). */
export const TAGS: Record<string, string[]> = {
  cpu: ["host", "job", "dc"],
  disk: ["host", "dev", "job"],
  latency: ["host", "path", "job"],
};
export const HOSTS = Array.from({ length: 9 }, (_, i) => `h${i}`);
export const VALUES: Record<string, string[]> = {
  host: HOSTS,
  job: ["j0", "j1", "h1", "a%b", "it's"],
  dc: ["east", "west"],
  dev: ["sda", "sdb", "h2"],
  path: ["/a", "/b"],
};
