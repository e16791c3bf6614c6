/**
 * COPY's file paths: server-local, as GreptimeDB's local file system backend; relative paths
 * resolve against the server's working directory, or against `storage.copy_dir` when it is set,
 * which then also confines every path (absolute ones, `..`, symlinks) to that directory. Missing
 * files or directories are the user's mistake (400 naming the path), never a 500.
 */
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { invalidArguments } from "../../common/errors.ts";

/** An absolute path for a COPY path. */
export function resolvePath(path: string): string {
  return resolve(Deno.cwd(), path);
}

/**
 * The absolute path a COPY statement reads or writes. With `copyDir` ("" = unconfined, as
 * GreptimeDB) relative paths resolve against it, and the path, after `..` and the symlinks of
 * its existing part, must stay inside it (400 otherwise). The answer is that checked real path,
 * so the file system is asked about what was checked; a trailing `/` is kept (it means a directory).
 *
 * ```ts
 * copyPath("out/m.csv", "/srv/copy"); // "/srv/copy/out/m.csv"
 * copyPath("/etc/passwd", "/srv/copy"); // throws 400: outside storage.copy_dir /srv/copy
 * ```
 */
export function copyPath(path: string, copyDir: string): string {
  return confine(path, copyDir).path;
}

/**
 * The absolute path a COPY … TO writes one file at: as {@link copyPath}, and never the COPY
 * directory itself, so the file's directory (where its temporary file is written) is inside too.
 */
export function copyFilePath(path: string, copyDir: string): string {
  const { path: full, root } = confine(path, copyDir);
  if (root !== undefined && relative(root, full) === "") {
    throw invalidArguments(`COPY: ${path} is the COPY directory itself (storage.copy_dir), not a file in it`);
  }
  return full;
}

function confine(path: string, copyDir: string): { path: string; root?: string } {
  if (copyDir === "") return { path };
  const root = realPath(resolvePath(copyDir));
  const full = root === null ? null : realPath(resolve(root, path));
  if (root === null || full === null || !isInside(root, full)) {
    throw invalidArguments(
      `COPY: ${path} is outside the COPY directory ${resolvePath(copyDir)} (storage.copy_dir)`,
    );
  }
  return { path: path.endsWith("/") && !full.endsWith("/") ? `${full}/` : full, root };
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * `path` (absolute, `..` normalised) with the symlinks of its longest resolvable prefix followed;
 * the rest does not exist (or cannot be reached, and then opening it fails too), so it holds
 * none. Any error walks up rather than being reported: its message would tell what lies outside.
 * Null for a dangling or looping symlink: its target may be created anywhere.
 */
function realPath(path: string): string | null {
  const missing: string[] = [];
  let at = path;
  for (;;) {
    try {
      return join(Deno.realPathSync(at), ...missing);
    } catch {
      // not there (or not reachable): its parent decides
    }
    if (isSymlink(at)) return null;
    const parent = dirname(at);
    if (parent === at) return path;
    missing.unshift(basename(at));
    at = parent;
  }
}

function isSymlink(path: string): boolean {
  try {
    return Deno.lstatSync(path).isSymlink;
  } catch {
    return false;
  }
}

/** A file-system error as the user's mistake (400) naming the path, never a 500. */
export function describeFsError(e: unknown, path: string, doing: string): Error {
  if (e instanceof Deno.errors.NotFound) return invalidArguments(`COPY: ${path} does not exist`);
  if (e instanceof Deno.errors.PermissionDenied) {
    return invalidArguments(`COPY: permission denied ${doing} ${path}`);
  }
  if (e instanceof Deno.errors.IsADirectory) return invalidArguments(`COPY: ${path} is a directory`);
  return invalidArguments(`COPY: cannot ${doing} ${path}: ${e instanceof Error ? e.message : String(e)}`);
}

/**
 * COPY DATABASE TO's file for a table in its directory: a (quoted) table name may hold `/` or
 * `..`, and must not take the file out of the directory (or out of `copy_dir`, which confined it).
 */
export function fileInDirectory(dir: string, name: string): string {
  const file = join(dir, name);
  if (!isInside(dir, file) || relative(dir, file) === "") {
    throw invalidArguments(`COPY DATABASE TO: the file for table ${name} would be outside ${dir}`);
  }
  return file;
}

/** Creates a directory for COPY DATABASE TO (and its parents). */
export function ensureDirectory(path: string): string {
  const full = resolvePath(path);
  try {
    Deno.mkdirSync(full, { recursive: true });
  } catch (e) {
    throw describeFsError(e, path, "create the directory");
  }
  return full;
}

/**
 * The files a COPY FROM reads: the file itself, or a directory's regular files (sorted by name)
 * whose names match `pattern` (GreptimeDB's PATTERN, a regex matched anywhere in the file name).
 */
export function filesToRead(path: string, pattern?: RegExp): string[] {
  const full = resolvePath(path);
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(full);
  } catch (e) {
    throw describeFsError(e, path, "read");
  }
  if (!info.isDirectory) {
    const name = full.slice(full.lastIndexOf("/") + 1);
    if (pattern && !pattern.test(name)) {
      throw invalidArguments(`COPY: ${path} does not match PATTERN ${pattern.source}`);
    }
    return [full];
  }
  const files: string[] = [];
  try {
    for (const entry of Deno.readDirSync(full)) {
      if (!entry.isFile) continue;
      if (pattern && !pattern.test(entry.name)) continue;
      files.push(join(full, entry.name));
    }
  } catch (e) {
    throw describeFsError(e, path, "list");
  }
  return files.sort();
}

/** Reads a whole file (Parquet needs random access to its footer). */
export function readWholeFile(path: string): Uint8Array {
  try {
    return Deno.readFileSync(path);
  } catch (e) {
    throw describeFsError(e, path, "read");
  }
}

/** Opens a file to read it in chunks. */
export function openToRead(path: string): Deno.FsFile {
  try {
    return Deno.openSync(path, { read: true });
  } catch (e) {
    throw describeFsError(e, path, "read");
  }
}
