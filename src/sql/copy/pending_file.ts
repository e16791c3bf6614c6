/**
 * COPY … TO's atomic writes: a file is written beside its target and renamed over it only once
 * complete, so a failed export leaves no partial file and an existing target as it was.
 */
import { basename, dirname, join } from "node:path";
import { invalidArguments } from "../../common/errors.ts";
import { describeFsError, resolvePath } from "./paths.ts";

/** A file being written beside its target, put in the target's place only once complete. */
export interface PendingFile {
  file: Deno.FsFile;
  /** Flushes and closes the file and renames it over the target. */
  commit(): void;
  /** Closes and removes the unfinished file; the target is left as it was. */
  discard(): void;
}

/**
 * Starts writing `path` atomically: the rows go to `.<name>.petrel-tmp-<random>` in the target's
 * directory (so the rename cannot cross file systems, and a `copy_dir`-confined target's temp file
 * is confined too), and only a finished export replaces the target: a failed one leaves an
 * existing file as it was. A symlinked target is written through (its file is replaced), an
 * existing file's permission bits are kept, and a device or pipe is written in place.
 */
export function createPendingFile(path: string): PendingFile {
  const target = followSymlink(resolvePath(path));
  const existing = statOrNull(target);
  if (existing?.isDirectory || path.endsWith("/")) {
    throw invalidArguments(`COPY: ${path} is a directory`);
  }
  // a device or a pipe (`/dev/null`, a FIFO) is written in place: a rename would replace it
  if (existing && !existing.isFile) return inPlace(path, target);
  const temp = join(dirname(target), `.${basename(target)}.petrel-tmp-${randomSuffix()}`);
  let file: Deno.FsFile;
  try {
    Deno.mkdirSync(dirname(target), { recursive: true });
    file = Deno.openSync(temp, { write: true, createNew: true });
  } catch (e) {
    throw describeFsError(e, path, "write");
  }
  const close = closeOnce(file);
  const discard = () => {
    try {
      close();
    } catch {
      // the file is removed next; a close error says nothing more
    }
    try {
      Deno.removeSync(temp);
    } catch {
      // already gone
    }
  };
  if (existing?.mode != null) {
    try {
      Deno.chmodSync(temp, existing.mode & 0o7777);
    } catch (e) {
      discard();
      throw describeFsError(e, path, "write");
    }
  }
  return {
    file,
    commit() {
      try {
        file.syncSync(); // the rename must not publish a file whose data is not on disk yet
        close();
        Deno.renameSync(temp, target);
      } catch (e) {
        discard();
        throw describeFsError(e, path, "write");
      }
    },
    discard,
  };
}

/** A target that is no regular file, written directly (no atomicity is possible there). */
function inPlace(path: string, target: string): PendingFile {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(target, { write: true });
  } catch (e) {
    throw describeFsError(e, path, "write");
  }
  const close = closeOnce(file);
  return { file, commit: close, discard: close };
}

function closeOnce(file: Deno.FsFile): () => void {
  let open = true;
  return () => {
    if (open) file.close();
    open = false;
  };
}

function followSymlink(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path; // not there yet (or dangling: the rename replaces the link)
  }
}

function statOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}

function randomSuffix(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
