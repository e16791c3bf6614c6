/**
 * The data home's lock: one Petrel per data directory. Two processes on one directory would each
 * cache the catalog and series index and overwrite each other's schema changes, so the second one
 * refuses to start. The lock is an `flock` on `<data_home>/petrel.lock`, which the kernel releases
 * when the holder dies however it dies: a lock file left by a crash (or a SIGKILL) is never stale,
 * the next start takes it. The file holds the holder's pid, for the error message only.
 */
import { join } from "node:path";

const LOCK_FILE = "petrel.lock";

/** The data home is locked by a live process. */
export class DataHomeInUse extends Error {
  constructor(dataHome: string, holder: string) {
    super(
      `data home ${dataHome} is in use by another Petrel process${holder ? ` (pid ${holder})` : ""}; ` +
        "stop it or choose another --data-home",
    );
    this.name = "DataHomeInUse";
  }
}

/** A held lock; `release` is idempotent. */
export interface DataHomeLock {
  release(): void;
}

/** Takes the data home's lock without waiting; throws {@link DataHomeInUse} when a live process holds it. */
export function lockDataHome(dataHome: string): DataHomeLock {
  const path = join(dataHome, LOCK_FILE);
  let file: Deno.FsFile;
  let writable = true;
  try {
    file = Deno.openSync(path, { read: true, write: true, create: true });
  } catch (e) {
    // A read-only data home (served read-only: no write can happen) is locked through a
    // read-only descriptor if the lock file exists, else not at all.
    if (!isReadOnlyFs(e)) throw e;
    writable = false;
    try {
      file = Deno.openSync(path, { read: true });
    } catch {
      return { release() {} };
    }
  }
  let locked: boolean;
  try {
    locked = file.tryLockSync(true);
  } catch (e) {
    file.close();
    throw e;
  }
  if (!locked) {
    let holder = "";
    try {
      holder = Deno.readTextFileSync(path).trim();
    } catch { /* unreadable: no pid to name */ }
    file.close();
    throw new DataHomeInUse(dataHome, holder);
  }
  if (writable) {
    file.truncateSync(0);
    file.writeSync(new TextEncoder().encode(`${Deno.pid}\n`));
  }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      try {
        file.unlockSync();
      } finally {
        file.close();
      }
    },
  };
}

function isReadOnlyFs(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === "EROFS" || /read-only file system/i.test(String((e as Error)?.message));
}
