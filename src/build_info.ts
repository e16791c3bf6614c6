/** Version and build facts for `/status` and the Prometheus `buildinfo` endpoint. */

/** Petrel's version. */
const VERSION = "0.1.0";

/** The global a release file (`deno task release`) sets to the commit facts it was built from. */
export const BUILD_FACTS_KEY = "__petrelBuildFacts";

/** What `/status` reports about this build. */
export interface BuildInfo {
  version: string;
  commit: string;
  branch: string;
  /** `"true"` when the checkout had no uncommitted changes, `"false"` when it had, else `"unknown"`. */
  clean: string;
  source_time: string;
  runtime: string;
  hostname: string;
}

let known: BuildInfo | undefined;

/** The facts the last {@link buildInfo} call found (SQL's `build()`); undefined before startup reads them. */
export function knownBuildInfo(): BuildInfo | undefined {
  return known;
}

/**
 * Reads commit facts from git when Petrel runs from a checkout (`git: false` spawns nothing, as on
 * Deno Deploy); a compiled binary reports "unknown", a release file the facts it was built with.
 */
export async function buildInfo(opts: { git?: boolean } = {}): Promise<BuildInfo> {
  const info: BuildInfo = {
    version: VERSION,
    commit: "unknown",
    branch: "unknown",
    clean: "unknown",
    source_time: "unknown",
    runtime: `deno ${Deno.version.deno} (v8 ${Deno.version.v8}, typescript ${Deno.version.typescript})`,
    hostname: Deno.hostname(),
  };
  const baked = (globalThis as Record<string, unknown>)[BUILD_FACTS_KEY] as Partial<BuildInfo> | undefined;
  if (baked) return known = { ...info, ...baked };
  const dir = new URL(".", import.meta.url);
  known = info;
  if (dir.protocol !== "file:" || opts.git === false) return info;
  try {
    const out = await new Deno.Command("git", {
      args: ["log", "-1", "--format=%H%n%cI", "HEAD"],
      cwd: dir,
      stdout: "piped",
      stderr: "null",
    }).output();
    if (out.success) {
      const [commit, time] = new TextDecoder().decode(out.stdout).trim().split("\n");
      info.commit = commit ?? "unknown";
      info.source_time = time ?? "unknown";
    }
    const branch = await new Deno.Command("git", {
      args: ["rev-parse", "--abbrev-ref", "HEAD"],
      cwd: dir,
      stdout: "piped",
      stderr: "null",
    }).output();
    if (branch.success) info.branch = new TextDecoder().decode(branch.stdout).trim();
    const status = await new Deno.Command("git", {
      args: ["status", "--porcelain", "--untracked-files=no"],
      cwd: dir,
      stdout: "piped",
      stderr: "null",
    }).output();
    if (status.success) info.clean = String(status.stdout.length === 0);
  } catch {
    // No git on this host: keep "unknown".
  }
  return info;
}
