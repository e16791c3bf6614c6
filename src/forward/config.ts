/**
 * `[[forward]]` destinations: where stored data is forwarded to, and what to do while the upstream is
 * unreachable. Parsed from the TOML array of tables; every problem stops start-up with a message
 * naming the destination and the key.
 */
import { formatDuration, formatSize, parseDuration, parseSize } from "../common/humantime.ts";

/** The wire protocols a destination speaks. */
export const FORWARD_PROTOCOLS = ["remote_write", "greptime", "otlp"] as const;
/** What happens while a destination lags more than `max_lag` / `max_lag_bytes`. */
export const LAG_POLICIES = ["keep_all", "drop_oldest", "block_ingest"] as const;

/** One `[[forward]]` destination, durations in ms and sizes in bytes. */
export interface ForwardConfig {
  /** Names the destination's cursors and metrics; defaults to `forward_<n>` (1-based). */
  name: string;
  url: string;
  protocol: typeof FORWARD_PROTOCOLS[number];
  /** Globs of the databases whose tables are forwarded. */
  databases: string[];
  /** Globs of the tables forwarded. */
  tables: string[];
  username: string;
  password: string;
  bearer_token: string;
  /** Rows (samples) per request. */
  batch_size: number;
  /** Tables forwarded in parallel (each table's batches stay in order). */
  concurrency: number;
  timeout: number;
  /** How often tables are checked for new data when idle. */
  interval: number;
  min_backoff: number;
  max_backoff: number;
  /** Lag by age of the oldest unforwarded write (0: no limit). */
  max_lag: number;
  /** Lag by estimated bytes of unforwarded rows (0: no limit). */
  max_lag_bytes: number;
  policy: typeof LAG_POLICIES[number];
}

type Kind = "string" | "strings" | "int" | "duration" | "size" | readonly string[];

const KEYS: Record<string, [Kind, unknown]> = {
  name: ["string", ""],
  url: ["string", ""],
  protocol: [FORWARD_PROTOCOLS, ""],
  databases: ["strings", ["public"]],
  tables: ["strings", ["*"]],
  username: ["string", ""],
  password: ["string", ""],
  bearer_token: ["string", ""],
  batch_size: ["int", 2000],
  concurrency: ["int", 1],
  timeout: ["duration", 10_000],
  interval: ["duration", 1_000],
  min_backoff: ["duration", 500],
  max_backoff: ["duration", 30_000],
  max_lag: ["duration", 0],
  max_lag_bytes: ["size", 0],
  policy: [LAG_POLICIES, "keep_all"],
};

/** Parses the `forward` array of a TOML document; throws an Error whose message names the problem. */
export function parseForwardList(raw: unknown, source: string): ForwardConfig[] {
  if (!Array.isArray(raw)) throw new Error(`'forward' in ${source} must be an array of tables ([[forward]])`);
  const out = raw.map((entry, i) => parseForward(entry, `[[forward]] #${i + 1} in ${source}`, i));
  const seen = new Set<string>();
  for (const f of out) {
    if (seen.has(f.name)) throw new Error(`Two [[forward]] destinations are named '${f.name}' in ${source}`);
    seen.add(f.name);
  }
  return out;
}

function parseForward(entry: unknown, where: string, index: number): ForwardConfig {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    throw new Error(`${where} must be a table`);
  }
  const out: Record<string, unknown> = {};
  for (const [key, [, def]] of Object.entries(KEYS)) out[key] = Array.isArray(def) ? [...def] : def;
  for (const [key, value] of Object.entries(entry as Record<string, unknown>)) {
    const spec = KEYS[key];
    if (spec === undefined) throw new Error(`Unknown key '${key}' in ${where}`);
    const v = coerce(spec[0], value);
    if (v === undefined) {
      throw new Error(
        `Invalid value for '${key}' in ${where}: expected ${describe(spec[0])}, got ${show(value)}`,
      );
    }
    out[key] = v;
  }
  const f = out as unknown as ForwardConfig;
  if (f.name === "") f.name = `forward_${index + 1}`;
  if (!/^[A-Za-z0-9_.-]+$/.test(f.name)) {
    throw new Error(`Invalid 'name' in ${where}: use letters, digits, '_', '.' or '-'`);
  }
  checkUrl(f.url, where);
  if (!f.protocol) throw new Error(`Missing 'protocol' in ${where}: one of ${FORWARD_PROTOCOLS.join(", ")}`);
  if (f.batch_size < 1) throw new Error(`'batch_size' in ${where} must be at least 1`);
  if (f.concurrency < 1) throw new Error(`'concurrency' in ${where} must be at least 1`);
  if (f.bearer_token && (f.username || f.password)) {
    throw new Error(`${where} sets both 'bearer_token' and 'username'/'password': choose one`);
  }
  if (f.password && !f.username) throw new Error(`${where} sets 'password' without 'username'`);
  if (f.min_backoff < 1 || f.max_backoff < f.min_backoff) {
    throw new Error(`${where}: 'min_backoff' must be positive and at most 'max_backoff'`);
  }
  if (f.policy !== "keep_all" && f.max_lag === 0 && f.max_lag_bytes === 0) {
    throw new Error(`${where}: policy '${f.policy}' needs 'max_lag' or 'max_lag_bytes'`);
  }
  if (f.databases.length === 0 || f.tables.length === 0) {
    throw new Error(`${where}: 'databases' and 'tables' must not be empty`);
  }
  return f;
}

function checkUrl(url: string, where: string): void {
  if (!url) throw new Error(`Missing 'url' in ${where}`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`Invalid 'url' in ${where}: ${JSON.stringify(url)} is not a URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new Error(`Invalid 'url' in ${where}: only http and https are supported`);
  }
}

function coerce(kind: Kind, raw: unknown): unknown {
  if (Array.isArray(kind)) return typeof raw === "string" && kind.includes(raw) ? raw : undefined;
  switch (kind) {
    case "string":
      return typeof raw === "string" ? raw : undefined;
    case "strings":
      if (typeof raw === "string") return [raw];
      return Array.isArray(raw) && raw.every((x) => typeof x === "string") ? raw : undefined;
    case "int": {
      const n = typeof raw === "number" || typeof raw === "bigint" ? Number(raw) : NaN;
      return Number.isInteger(n) && n >= 0 ? n : undefined;
    }
    case "duration":
      return typeof raw === "string" ? parseDuration(raw) ?? undefined : undefined;
    case "size":
      if (typeof raw === "number" && Number.isInteger(raw) && raw >= 0) return raw;
      return typeof raw === "string" ? parseSize(raw) ?? undefined : undefined;
  }
  return undefined;
}

function describe(kind: Kind): string {
  if (Array.isArray(kind)) return `one of ${kind.join(", ")}`;
  return {
    string: "a string",
    strings: "a list of strings",
    int: "a non-negative integer",
    duration: 'a duration like "30s"',
    size: 'a size like "512MiB"',
  }[kind as string] as string;
}

function show(raw: unknown): string {
  return typeof raw === "string" ? JSON.stringify(raw) : String(raw);
}

/** The destinations as TOML `[[forward]]` blocks (as `GET /config` shows them), credentials hidden. */
export function renderForwardToml(list: ForwardConfig[]): string[] {
  const lines: string[] = [];
  for (const f of list) {
    lines.push("", "[[forward]]");
    for (const [key, [kind]] of Object.entries(KEYS)) {
      let value = (f as unknown as Record<string, unknown>)[key];
      if ((key === "password" || key === "bearer_token") && value) value = "********";
      if (kind === "duration") value = formatDuration(value as number);
      if (kind === "size") value = formatSize(value as number);
      lines.push(`${key} = ${JSON.stringify(value)}`);
    }
  }
  return lines;
}

const globs = new Map<string, RegExp>();

/** Whether a name matches a glob (`*` any run, `?` one character); asked on every write, so cached. */
export function globMatch(glob: string, name: string): boolean {
  let re = globs.get(glob);
  if (re === undefined) {
    const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
    globs.set(glob, re = new RegExp(`^${body}$`));
  }
  return re.test(name);
}
