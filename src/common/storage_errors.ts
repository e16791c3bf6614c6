/**
 * SQLite failures that are the storage's condition, not the request's fault: busy or locked by
 * another connection, disk full, read-only or failing file system, a damaged file. `node:sqlite`
 * reports them as plain `Error`s (code `ERR_SQLITE_ERROR`) carrying only SQLite's message, so they
 * are recognised by it. Each becomes a PetrelError the HTTP layer answers with 503 (busy, read-only,
 * I/O error, damaged: retry later) or 507 (disk full), with `Retry-After`; never a 500.
 */
import { PetrelError, StatusCode } from "./errors.ts";

const CONDITIONS: Array<[RegExp, (msg: string) => PetrelError]> = [
  [
    /database (table )?is locked/,
    (m) => new PetrelError(StatusCode.RegionBusy, `Storage is busy (${m}); retry later`),
  ],
  [
    /database or disk is full/,
    (m) =>
      new PetrelError(
        StatusCode.StorageUnavailable,
        `Storage is full (${m}): nothing of this request was stored; reads keep working, and writes ` +
          "resume once space is freed",
        { reason: "insufficient_storage" },
      ),
  ],
  [
    /attempt to write a readonly database|readonly database/,
    (m) =>
      new PetrelError(
        StatusCode.StorageUnavailable,
        `Storage is read-only (${m}): nothing of this request was stored; reads keep working`,
      ),
  ],
  [
    /disk I\/O error|unable to open database file/,
    (m) => new PetrelError(StatusCode.StorageUnavailable, `Storage is unavailable (${m}); retry later`),
  ],
  [
    /database disk image is malformed|file is not a database/,
    (m) => new PetrelError(StatusCode.StorageUnavailable, `Storage is damaged (${m}); run 'petrel check'`),
  ],
];

/** The PetrelError for a SQLite failure of the storage itself; undefined for anything else. */
export function storageFailure(e: unknown): PetrelError | undefined {
  if (!(e instanceof Error) || e instanceof PetrelError) return undefined;
  if ((e as { code?: unknown }).code !== "ERR_SQLITE_ERROR") return undefined;
  for (const [pattern, make] of CONDITIONS) if (pattern.test(e.message)) return make(e.message);
  return undefined;
}
