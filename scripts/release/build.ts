/**
 * `deno task release`: one self-contained file, `dist/petrel.js`, that is both a POSIX shell script
 * and an ES module. Run as `sh petrel.js start …` (or `./petrel.js` once executable) its second line
 * finds Deno through `npx -y deno@2.9.6` (or `$DENO`) and re-runs the same file with it; run as
 * `deno run -A petrel.js start …` that line is a JS comment. The module is `deno bundle`'s output
 * of `main.ts` (npm packages and the dashboard included), preceded by the bundled source of each
 * worker thread as a `data:` URL keyed by its pool name: the worker modules are separate files in the
 * tree, and `WorkerPool` starts the embedded one when it is there (`EMBEDDED_WORKERS_KEY`).
 */
import { EMBEDDED_WORKERS_KEY } from "../../src/common/worker_pool.ts";
import { BUILD_FACTS_KEY, buildInfo } from "../../src/build_info.ts";

/** The Deno the start script fetches from npm: the version Petrel is built and tested with. */
export const DENO_VERSION = "2.9.6";

const ROOT = new URL("../../", import.meta.url);

/** Every worker thread Petrel starts: pool name → its module (the names `WorkerPool` is given). */
export const WORKERS: Record<string, string> = {
  "query": "src/sql/query_worker.ts",
  "line protocol": "src/protocols/lineproto/stream/worker.ts",
  "checkpoint": "src/storage/checkpoint_worker.ts",
};

/** The shell half: JS sees a hashbang and a comment; sh runs the second line and never reads on. */
function startScript(): string {
  const findDeno =
    `[ -n "$DENO" ] || DENO=$(npx -y deno@${DENO_VERSION} eval "console.log(Deno.execPath())")` +
    ` || exit 1`;
  // exec the binary itself (not npx) so signals reach Petrel and no node process stays resident.
  return `#!/bin/sh\n//bin/true; ${findDeno}; exec "$DENO" run -A --no-config "$0" "$@"\n`;
}

function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

async function bundle(entry: string, out: string): Promise<string> {
  const res = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", "--minify", "--platform", "deno", "--output", out, entry],
    cwd: ROOT,
    stdout: "inherit",
    stderr: "piped",
  }).output();
  if (!res.success) throw new Error(`deno bundle ${entry} failed:\n${new TextDecoder().decode(res.stderr)}`);
  return await Deno.readTextFile(out);
}

/** Builds the release file at `output` (default `dist/petrel.js`); returns its path. */
export async function buildRelease(output = new URL("dist/petrel.js", ROOT).pathname): Promise<string> {
  const tmp = await Deno.makeTempDir({ prefix: "petrel_release_" });
  try {
    const workers: Record<string, string> = {};
    for (const [name, entry] of Object.entries(WORKERS)) {
      const source = await bundle(entry, `${tmp}/${name.replace(/\W/g, "_")}.js`);
      workers[name] = `data:text/javascript;base64,${encodeBase64(new TextEncoder().encode(source))}`;
    }
    const program = await bundle("main.ts", `${tmp}/main.js`);
    // The commit it was built from: a release file is not in a checkout when it runs.
    const { commit, branch, source_time } = await buildInfo();
    const facts = { commit, branch, source_time };
    const embed = `globalThis[${JSON.stringify(EMBEDDED_WORKERS_KEY)}] = ${JSON.stringify(workers)};\n` +
      `globalThis[${JSON.stringify(BUILD_FACTS_KEY)}] = ${JSON.stringify(facts)};\n`;
    await Deno.mkdir(new URL(".", `file://${output}`), { recursive: true });
    await Deno.writeTextFile(output, startScript() + embed + program, { mode: 0o755 });
    return output;
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

if (import.meta.main) {
  const out = await buildRelease(Deno.args[0]);
  const size = (await Deno.stat(out)).size;
  console.log(`${out}: ${(size / 1e6).toFixed(1)} MB; run with: sh ${out} start [--http-addr …]`);
}
