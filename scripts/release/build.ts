/**
 * `deno task release`: one self-contained file, `dist/petrel.js`, that is both a POSIX shell script
 * and an ES module. Inside it, in a block comment, travels the program: `deno bundle --code-splitting`
 * of `entry.ts` and the worker modules, so each lazily loaded route module (and the npm libraries only
 * it needs) is a chunk of its own, gzip'd JSON in base64. Run as `sh petrel.js start …` its second
 * line finds Deno (`$DENO`, else `npx -y deno@2.9.6`), has the file's JavaScript half (`extract.ts`)
 * extract the program once into `${XDG_CACHE_HOME:-~/.cache}/petrel/<content hash>` (else
 * `${TMPDIR:-/tmp}/petrel-<uid>/<hash>`), never the working directory, and execs Deno on it; run as
 * `deno run -A petrel.js start …` the JavaScript half extracts and imports it. An idle server thus
 * parses only what it runs: one bundled module kept every route's source resident (~4 bytes a byte).
 * Workers are plain files in the extracted directory, found through `EMBEDDED_WORKERS_KEY`.
 */
import { EMBEDDED_WORKERS_KEY } from "../../src/common/worker_pool.ts";
import { BUILD_FACTS_KEY, buildInfo } from "../../src/build_info.ts";

/** The Deno the start script fetches from npm: the version Petrel is built and tested with. */
export const DENO_VERSION = "2.9.6";

const ROOT = new URL("../../", import.meta.url);
const ENTRY = "scripts/release/entry.ts";

/** Every worker thread Petrel starts: pool name → its module (the names `WorkerPool` is given). */
export const WORKERS: Record<string, string> = {
  "query": "src/sql/query_worker.ts",
  "promql": "src/query/promql_worker.ts",
  "line protocol": "src/protocols/lineproto/stream/worker.ts",
  "checkpoint": "src/storage/checkpoint_worker.ts",
  "compaction": "src/storage/compaction_worker.ts",
  "vrl network": "engine/vrl/stdlib/net_worker.ts",
};

/**
 * deno.json's `unstable` list as flags: `request.signal` (read by `/debug/prof/cpu` to stop when the
 * client leaves) otherwise makes Deno print a "legacy behavior" warning once.
 */
const UNSTABLE_FLAGS = "--unstable-no-legacy-abort";

const outName = (entry: string) => entry.replace(/\.ts$/, ".js");

/**
 * The shell half: JS sees a hashbang and a line comment; sh runs the second line and never reads on.
 * It execs the Deno binary itself (not npx) so signals reach Petrel and no node process stays resident.
 */
function startScript(hash: string): string {
  const cacheDir = `C="\${XDG_CACHE_HOME:-$HOME/.cache}/petrel"; mkdir -p "$C" 2>/dev/null && [ -w "$C" ]` +
    ` || { C="\${TMPDIR:-/tmp}/petrel-$(id -u)"; mkdir -p -m 700 "$C" && [ -O "$C" ] || exit 1; }; C="$C/${hash}"`;
  const findDeno =
    `[ -n "$DENO" ] || DENO=$(npx -y deno@${DENO_VERSION} eval "console.log(Deno.execPath())") || exit 1`;
  const extract = `[ -f "$C/${
    outName(ENTRY)
  }" ] || "$DENO" run -A --no-config "$0" --petrel-extract "$C" || exit 1`;
  // --no-config drops deno.json's `unstable` list: the flags it holds are given here instead.
  const run = `exec "$DENO" run -A --no-config ${UNSTABLE_FLAGS} "$C/${outName(ENTRY)}" "$@"`;
  return `#!/bin/sh\n//bin/true; ${cacheDir}; ${findDeno}; ${extract}; ${run}\n`;
}

function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

async function deno(args: string[]): Promise<void> {
  const res = await new Deno.Command(Deno.execPath(), { args, cwd: ROOT, stderr: "piped" }).output();
  if (!res.success) throw new Error(`deno ${args[0]} failed:\n${new TextDecoder().decode(res.stderr)}`);
}

/** Every file under `dir` by its path relative to `dir`. */
async function readTree(dir: string, prefix = ""): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const entries = [...Deno.readDirSync(`${dir}/${prefix}`)].sort((a, b) => a.name < b.name ? -1 : 1);
  for (const e of entries) {
    const path = prefix + e.name;
    if (e.isDirectory) Object.assign(files, await readTree(dir, `${path}/`));
    else files[path] = await Deno.readTextFile(`${dir}/${path}`);
  }
  return files;
}

/** The program split into chunks, with the build facts and worker locations set before `main` runs. */
async function program(tmp: string): Promise<Record<string, string>> {
  const out = `${tmp}/program`;
  const bundle = ["bundle", "--quiet", "--code-splitting", "--minify", "--platform", "deno"];
  await deno([...bundle, "--outdir", out, ENTRY, ...Object.values(WORKERS)]);
  const files = await readTree(out);
  // Dynamic imports as literals would be read (though not run) when the program starts: Deno's module
  // graph follows them. A computed specifier loads the chunk when the import runs, and only then.
  for (const [path, source] of Object.entries(files)) {
    files[path] = source.replace(/\bimport\("(\.{1,2}\/[^"]+)"\)/g, 'import(String("$1"))');
  }
  const up = "../".repeat(outName(ENTRY).split("/").length - 1);
  const workers = Object.entries(WORKERS).map(([name, entry]) =>
    `${JSON.stringify(name)}:new URL(${JSON.stringify(up + outName(entry))},import.meta.url).href`
  );
  // The commit it was built from: a release file is not in a checkout when it runs.
  const { commit, branch, source_time } = await buildInfo();
  const facts = { commit, branch, source_time };
  files[outName(ENTRY)] = `globalThis[${JSON.stringify(EMBEDDED_WORKERS_KEY)}]={${workers.join(",")}};` +
    `globalThis[${JSON.stringify(BUILD_FACTS_KEY)}]=${JSON.stringify(facts)};\n` + files[outName(ENTRY)];
  return files;
}

/** Builds the release file at `output` (default `dist/petrel.js`); returns its path. */
export async function buildRelease(output = new URL("dist/petrel.js", ROOT).pathname): Promise<string> {
  const tmp = await Deno.makeTempDir({ prefix: "petrel_release_" });
  try {
    const json = new TextEncoder().encode(JSON.stringify(await program(tmp)));
    const gz = new Uint8Array(
      await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer(),
    );
    const hash = [...new Uint8Array(await crypto.subtle.digest("SHA-256", json))].slice(0, 12)
      .map((b) => b.toString(16).padStart(2, "0")).join("");
    await deno([
      "bundle",
      "--quiet",
      "--minify",
      "--platform",
      "deno",
      "--output",
      `${tmp}/extract.js`,
      "scripts/release/extract.ts",
    ]);
    const extractor = (await Deno.readTextFile(`${tmp}/extract.js`))
      .replace("@@PAYLOAD_HASH@@", hash).replace("@@ENTRY@@", outName(ENTRY));
    const body = `${startScript(hash)}${extractor}\n/*@@PETREL_PAYLOAD\n${
      encodeBase64(gz).replace(/.{1,100}/g, "$&\n")
    }*/\n`;
    await Deno.mkdir(new URL(".", `file://${output}`), { recursive: true });
    await Deno.writeTextFile(output, body, { mode: 0o755 });
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
