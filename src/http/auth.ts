/**
 * Authentication and permissions (reference §3): the static user providers, credential extraction
 * from the request, constant-time password checks, and read/write permission checks.
 */
import { createHash, createHmac, pbkdf2Sync, timingSafeEqual } from "node:crypto";
import { PetrelError, StatusCode } from "../common/errors.ts";
import { Logger } from "../common/log.ts";

const log = new Logger("petrel::auth");

/** What a user may do. */
export type Permission = "rw" | "ro" | "wo";

/** An authenticated user. */
export interface UserInfo {
  username: string;
  permission: Permission;
}

interface Credential {
  permission: Permission;
  password: string;
}

const PERMISSIONS: Record<string, Permission> = {
  rw: "rw",
  readwrite: "rw",
  read_write: "rw",
  ro: "ro",
  readonly: "ro",
  read_only: "ro",
  wo: "wo",
  writeonly: "wo",
  write_only: "wo",
};

/** Users from `static_user_provider:cmd:…`, `static_user_provider:file:<path>` or `watch_file_user_provider:<path>`. */
export class StaticUserProvider {
  /** The watched file's last seen modification stamp (`watch_file_user_provider` only). */
  private stamp = "";

  private constructor(
    private users: Map<string, Credential>,
    private readonly watched: string | null = null,
  ) {
    if (watched !== null) this.stamp = fileStamp(watched);
  }

  /** Parses a `user_provider` option; throws an Error naming what is wrong. */
  static fromSpec(spec: string): StaticUserProvider {
    const [kind, mode, ...rest] = spec.split(":");
    const arg = rest.join(":");
    if (kind === "static_user_provider" && mode === "cmd") {
      return new StaticUserProvider(parseEntries(arg.split(","), true));
    }
    if (kind === "static_user_provider" && mode === "file") return new StaticUserProvider(readUserFile(arg));
    if (kind === "watch_file_user_provider") {
      const path = [mode, ...rest].join(":");
      return new StaticUserProvider(readUserFile(path), path);
    }
    throw new Error(`unsupported user provider "${kind}${mode ? ":" + mode : ""}"`);
  }

  /**
   * Rereads a watched file that changed since last seen (GreptimeDB reloads on change); a file that
   * is gone or holds no valid credential keeps the last good users.
   */
  private refresh(): void {
    if (this.watched === null) return;
    const stamp = fileStamp(this.watched);
    if (stamp === this.stamp) return;
    this.stamp = stamp;
    try {
      this.users = readUserFile(this.watched);
    } catch (e) {
      log.warn("user provider file not reloaded; the previous users stay", { error: (e as Error).message });
    }
  }

  /** Checks a username and password; throws the 401 GreptimeDB answers with. */
  authenticate(username: string, password: string): UserInfo {
    this.refresh();
    if (username.trim() === "") throw authError(StatusCode.InvalidArguments, "Illegal param: blank username");
    if (password === "") throw authError(StatusCode.InvalidArguments, "Illegal param: blank password");
    const cred = this.users.get(username);
    if (!cred) throw authError(StatusCode.UserNotFound, `User not found, username: ${username}`);
    if (!passwordMatches(cred.password, password)) {
      throw authError(
        StatusCode.UserPasswordMismatch,
        `Username and password does not match, username: ${username}`,
      );
    }
    return { username, permission: cred.permission };
  }
}

/** A file's users: `user[:perm]=password` lines; blank lines and `#` comments skipped. */
function readUserFile(path: string): Map<string, Credential> {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (e) {
    throw new Error(`user provider file ${path}: ${(e as Error).message}`);
  }
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#"));
  const users = parseEntries(lines, false);
  if (users.size === 0) throw new Error(`user provider file ${path} holds no valid credential`);
  return users;
}

/** What tells a rewritten file: its modification time and size ("" when it cannot be read). */
function fileStamp(path: string): string {
  try {
    const st = Deno.statSync(path);
    return `${st.mtime?.getTime() ?? 0}:${st.size}`;
  } catch {
    return "";
  }
}

function parseEntries(entries: string[], strict: boolean): Map<string, Credential> {
  const users = new Map<string, Credential>();
  for (const entry of entries) {
    const parts = entry.split("=");
    if (parts.length !== 2 || parts[0].trim() === "") {
      if (strict) {
        throw new Error(`invalid user entry "${entry.split("=")[0]}=…": expected user[:perm]=password`);
      }
      continue;
    }
    const [who, password] = parts;
    const colon = who.indexOf(":");
    const name = (colon < 0 ? who : who.slice(0, colon)).trim();
    let permission: Permission = "rw";
    if (colon >= 0) {
      const p = PERMISSIONS[who.slice(colon + 1).trim().toLowerCase()];
      if (!p) throw new Error(`invalid permission "${who.slice(colon + 1)}" for user "${name}"`);
      permission = p;
    }
    users.set(name, { permission, password: password.trim() });
  }
  return users;
}

function digest(s: string | Uint8Array): Uint8Array {
  return createHash("sha256").update(s).digest();
}

/** Constant-time comparison: both sides are hashed first so lengths never leak. */
function sameSecret(a: string | Uint8Array, b: string | Uint8Array): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

function passwordMatches(stored: string, given: string): boolean {
  if (stored.startsWith("plain:")) return sameSecret(stored.slice(6), given);
  if (stored.startsWith("pbkdf2_sha256:")) {
    const [, iter, salt, hash] = stored.split(":");
    const derived = pbkdf2Sync(given, hexBytes(salt), Number(iter), 32, "sha256");
    return sameSecret(derived, hexBytes(hash));
  }
  if (stored.startsWith("pg_scram_sha256:")) {
    // SCRAM-SHA-256 keeps StoredKey = SHA-256(HMAC(SaltedPassword, "Client Key")) (RFC 5802)
    const [, iter, salt, storedKey] = stored.split(":");
    const salted = pbkdf2Sync(given, hexBytes(salt), Number(iter), 32, "sha256");
    const clientKey = createHmac("sha256", salted).update("Client Key").digest();
    return sameSecret(digest(clientKey), hexBytes(storedKey));
  }
  return sameSecret(stored, given);
}

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

function authError(code: number, message: string): PetrelError {
  return new PetrelError(code, message, { reason: "unauthenticated" });
}

/** Which credential rules a path follows (reference §3.2). */
export type AuthScheme = "standard" | "influxdb" | "splunk";

/** Extracts and checks the credentials of a request; throws a 401 `PetrelError`. */
export function authenticateRequest(
  provider: StaticUserProvider,
  req: Request,
  url: URL,
  scheme: AuthScheme,
): UserInfo {
  const header = req.headers.get("x-greptime-auth") ?? req.headers.get("authorization");
  // Headers arrive as bytes (one char each): GreptimeDB's `HeaderValue::to_str` takes visible ASCII only.
  if (header && /[^\t\x20-\x7e]/.test(header)) {
    throw authError(StatusCode.InvalidAuthHeader, "Invalid visibility ASCII chars");
  }
  if (header && /^bearer\s/i.test(header.trim())) {
    throw authError(StatusCode.UserPasswordMismatch, "Unsupported authentication method: bearer token");
  }
  if (scheme === "influxdb") {
    if (header) {
      const [name, value] = splitScheme(header);
      if (name === "token") {
        const colon = value.indexOf(":");
        if (colon < 0) throw authError(StatusCode.InvalidAuthHeader, "Invalid http authorization header");
        return provider.authenticate(value.slice(0, colon), value.slice(colon + 1));
      }
      if (name === "basic") return basic(provider, value);
      throw authError(
        StatusCode.InvalidAuthHeader,
        `Unsupported http auth scheme, name: ${header.split(" ")[0]}`,
      );
    }
    const u = url.searchParams.get("u");
    const p = url.searchParams.get("p");
    if (u === null && p === null) {
      throw authError(StatusCode.AuthHeaderNotFound, "Not found influx http authorization info");
    }
    if (u === null || p === null) {
      throw authError(StatusCode.InvalidArguments, "Invalid request parameter: both u and p are required");
    }
    return provider.authenticate(u, p);
  }
  if (!header) throw authError(StatusCode.AuthHeaderNotFound, "Not found http or grpc authorization header");
  const [name, value] = splitScheme(header);
  if (scheme === "splunk" && name === "splunk") return splunkToken(provider, value);
  if (name !== "basic") {
    if (value === "") throw authError(StatusCode.InvalidAuthHeader, "Invalid http authorization header");
    throw authError(
      StatusCode.InvalidAuthHeader,
      `Unsupported http auth scheme, name: ${header.trim().split(/\s+/)[0]}`,
    );
  }
  return basic(provider, value);
}

/** `Authorization: Splunk <user>:<password>`: the HEC token is the user's credentials. */
function splunkToken(provider: StaticUserProvider, value: string): UserInfo {
  const colon = value.indexOf(":");
  if (colon < 0) {
    throw authError(StatusCode.UserPasswordMismatch, "Invalid token: expected <user>:<password>");
  }
  return provider.authenticate(value.slice(0, colon), value.slice(colon + 1));
}

function splitScheme(header: string): [string, string] {
  const trimmed = header.trim();
  const space = trimmed.search(/\s/);
  if (space < 0) return [trimmed.toLowerCase(), ""];
  return [trimmed.slice(0, space).toLowerCase(), trimmed.slice(space).trim()];
}

function basic(provider: StaticUserProvider, value: string): UserInfo {
  if (value === "" || /\s/.test(value)) {
    throw authError(StatusCode.InvalidAuthHeader, "Invalid http authorization header");
  }
  let decoded: string;
  try {
    const bytes = Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (e) {
    const msg = e instanceof TypeError ? "Invalid utf-8 value" : "Invalid base64 value";
    throw authError(StatusCode.InvalidAuthHeader, msg);
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) throw authError(StatusCode.InvalidAuthHeader, "Invalid http authorization header");
  return provider.authenticate(decoded.slice(0, colon), decoded.slice(colon + 1));
}

/** What a request does, for the permission check. */
export type Access = "read" | "write";

/** Rejects a read-only user writing or a write-only user reading with GreptimeDB's 403. */
export function checkPermission(user: UserInfo | null, access: Access): void {
  if (!user) return;
  if ((access === "write" && user.permission === "ro") || (access === "read" && user.permission === "wo")) {
    throw new PetrelError(StatusCode.PermissionDenied, "User is not authorized to perform this action");
  }
}
