/**
 * The JavaScript half of the release file (bundled into `dist/petrel.js` by `build.ts`; it imports
 * nothing). The program travels inside the file as a gzip'd JSON `{path: source}` in base64, in the
 * block comment that follows this code, and runs from a copy extracted once into a cache directory
 * keyed by its content hash: chunks Petrel never loads then cost no memory, which they would in one
 * bundled module. `sh petrel.js` calls `petrel.js --petrel-extract <dir>` only when `<dir>` lacks the
 * program, then runs `<dir>/entry.js` itself; `deno run -A petrel.js …` extracts and runs it here.
 */

/** The content hash of the payload (the build fills it in); names the cache directory. */
const PAYLOAD_HASH = "@@PAYLOAD_HASH@@";
/** Starts the payload comment (the build writes it after this code). */
const PAYLOAD_MARK = "/*@@PETREL_PAYLOAD";
/** The program's entry inside the extracted directory. */
const ENTRY = "@@ENTRY@@";

function writable(dir: string): boolean {
  try {
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const probe = `${dir}/.probe-${Deno.pid}`;
    Deno.writeTextFileSync(probe, "");
    Deno.removeSync(probe);
    return true;
  } catch {
    return false;
  }
}

/** Where this file's program lives: `$XDG_CACHE_HOME` or `~/.cache`, else the temp directory. */
function cacheDir(): string {
  const env = (name: string) => Deno.env.get(name) || undefined;
  const home = env("HOME");
  const cache = env("XDG_CACHE_HOME") ?? (home === undefined ? undefined : `${home}/.cache`);
  if (cache !== undefined && writable(`${cache}/petrel`)) return `${cache}/petrel/${PAYLOAD_HASH}`;
  const uid = Deno.uid() ?? "user";
  return `${env("TMPDIR") ?? "/tmp"}/petrel-${uid}/${PAYLOAD_HASH}`;
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The files in this file's payload comment. */
async function payload(): Promise<Record<string, string>> {
  const text = await Deno.readTextFile(new URL(import.meta.url));
  const start = text.lastIndexOf(PAYLOAD_MARK) + PAYLOAD_MARK.length;
  const end = text.indexOf("*/", start);
  if (start < PAYLOAD_MARK.length || end < 0) throw new Error("petrel.js: the program payload is missing");
  const gz = Uint8Array.from(atob(text.slice(start, end).replace(/\s/g, "")), (c) => c.charCodeAt(0));
  const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

/**
 * Writes the program into `dir` unless it is there: into a sibling first, renamed into place, so a
 * concurrent start sees either nothing or the whole program.
 */
async function extract(dir: string): Promise<void> {
  if (exists(`${dir}/${ENTRY}`)) return;
  const tmp = `${dir}.tmp-${Deno.pid}`;
  for (const [path, source] of Object.entries(await payload())) {
    const file = `${tmp}/${path}`;
    Deno.mkdirSync(file.slice(0, file.lastIndexOf("/")), { recursive: true, mode: 0o700 });
    Deno.writeTextFileSync(file, source);
  }
  try {
    Deno.renameSync(tmp, dir);
  } catch (e) {
    Deno.removeSync(tmp, { recursive: true });
    if (!exists(`${dir}/${ENTRY}`)) throw e; // not a concurrent start that got there first
  }
}

if (Deno.args[0] === "--petrel-extract" && Deno.args[1] !== undefined) {
  await extract(Deno.args[1]);
} else {
  const dir = cacheDir();
  await extract(dir);
  await import(new URL(`file://${dir}/${ENTRY}`).href);
}
