/**
 * Reads a V8 `.cpuprofile` (from `deno run --cpu-prof`, e.g. the benches' `PETREL_BENCH_CPU_PROF`)
 * and prints where the time went: self time by function and by file, and total (inclusive) time by
 * function, the top N of each. Idle time (`(idle)`) is left out of the percentages.
 *
 * The times are wall-clock time between samples, not CPU time: a thread the OS took off its core
 * (a loaded machine) or one waiting (for GC helper threads, on I/O) charges the wait to the function
 * it was in. On the shared 2-core bench host at load ~9, the Loki bench's `decodeLokiPush` showed
 * ~1.5–1.9× the CPU seconds the server's thread spent in it (`process.threadCpuUsage()` around the
 * call: within noise of the bench's own decode pass), and the scavenges `--trace-gc` timed in
 * process were ~3 % of the ingest's CPU where profiles gave `(garbage collector)` 5–14 % (parallel
 * scavenges wait for helper threads that are off their cores). Read the percentages as where a
 * thread was, and compare CPU seconds (the benches' `petrelCpu`) to judge a change.
 * Run: `deno run -A scripts/cpu_profile.ts file.cpuprofile… [N]` (a run writes one file per thread:
 * the main one and each worker's).
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function shortUrl(url: string): string {
  const at = url.lastIndexOf("/wt/");
  const rel = at >= 0 ? url.slice(url.indexOf("/", at + 4) + 1) : url.replace(/^file:\/\//, "");
  return rel || "(native)";
}

function label(n: ProfileNode): string {
  const f = n.callFrame;
  return `${f.functionName || "(anonymous)"} ${shortUrl(f.url)}:${f.lineNumber + 1}`;
}

function top(m: Map<string, number>, total: number, count: number, title: string): void {
  console.log(`\n${title}`);
  const rows = [...m].sort((a, b) => b[1] - a[1]).slice(0, count);
  for (const [k, us] of rows) {
    console.log(
      `${(us / 1000).toFixed(0).padStart(8)} ms ${(100 * us / total).toFixed(1).padStart(5)} %  ${k}`,
    );
  }
}

/** Prints the profile's top functions and files. */
export function report(profile: Profile, count = 30): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  const byFunction = new Map<string, number>(), byFile = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    if (n.callFrame.functionName === "(idle)") continue;
    total += us;
    const name = label(n);
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    const file = shortUrl(n.callFrame.url);
    byFile.set(file, (byFile.get(file) ?? 0) + us);
    // each function on the stack once, however often it recurses
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const l = label(byId.get(at)!);
      if (seen.has(l)) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + us);
    }
  }
  console.log(`busy ${(total / 1000).toFixed(0)} ms`);
  top(byFunction, total, count, "self time by function");
  top(byFile, total, count, "self time by file");
  top(inclusive, total, count, "total time by function");
}

if (import.meta.main) {
  const last = Deno.args.at(-1);
  const count = last !== undefined && /^\d+$/.test(last) ? Number(last) : undefined;
  const paths = count === undefined ? Deno.args : Deno.args.slice(0, -1);
  for (const path of paths) {
    if (paths.length > 1) console.log(`\n== ${path}`);
    report(JSON.parse(await Deno.readTextFile(path)) as Profile, count ?? 30);
  }
}
