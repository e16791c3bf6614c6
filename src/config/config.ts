/**
 * Petrel's configuration: defaults < TOML file < env vars `PETREL__SECTION__KEY` (or GreptimeDB's
 * `GREPTIMEDB_STANDALONE__SECTION__KEY`) < command-line flags.
 * The schema below is the single list of keys; a key not in it, or a value of the wrong kind, stops
 * start-up with a message naming the key and where it came from.
 */
import { parse as parseToml } from "smol-toml";
import { formatDuration, formatSize, parseDuration, parseSize } from "../common/humantime.ts";
import { type DownsampleRule, parseDownsampleRules, renderDownsampleRule } from "./downsample.ts";
import { deployDefaults, deployMarker } from "./deploy.ts";
import { type ForwardConfig, parseForwardList, renderForwardToml } from "../forward/config.ts";
import {
  type EnrichmentTableConfig,
  parseEnrichmentTables,
  renderEnrichmentTablesToml,
} from "./enrichment_tables.ts";

/** The effective configuration, with durations in ms and sizes in bytes. */
export interface Config {
  enable_telemetry: boolean;
  user_provider: string;
  init_regions_in_background: boolean;
  init_regions_parallelism: number;
  auto_create_table: boolean;
  default_timezone: string;
  http: {
    addr: string;
    timeout: number;
    body_limit: number;
    max_total_body_memory: number;
    is_strict_mode: boolean;
    enable_cors: boolean;
    cors_allowed_origins: string[];
    /** Serves `POST /v1/sql/analyze/stream` (GreptimeDB's option of the same name). */
    experimental_enable_explain_analyze_stream: boolean;
    /** `[http.tls]`: HTTPS on the same address (`src/http/tls.ts`). */
    tls: { mode: string; cert_path: string; key_path: string };
  };
  /**
   * `max_disk_size`: the bound of every database without its own (0: none). `copy_dir`: the one
   * directory COPY may read and write, relative paths resolving against it ("": anywhere).
   */
  storage: { data_home: string; ttl_sweep_interval: number; max_disk_size: number; copy_dir: string };
  logging: { level: string };
  influxdb: { enable: boolean; default_merge_mode: string };
  prom_store: { enable: boolean; with_metric_engine: boolean };
  query: { max_samples: number };
  opentsdb: { enable: boolean };
  otlp: { enable: boolean };
  jaeger: { enable: boolean };
  loki: { enable: boolean };
  dashboard: { enable: boolean };
  /** `[[downsample]]` rules (`downsample.ts`). */
  downsample: DownsampleRule[];
  /** `[[forward]]` destinations (`src/forward/`). */
  forward: ForwardConfig[];
  /** `[enrichment_tables.NAME]` for VRL (`enrichment_tables.ts`). */
  enrichment_tables: EnrichmentTableConfig[];
}

type Kind = "bool" | "int" | "string" | "duration" | "size" | "strings" | "addr" | readonly string[];

/** Every key with its kind and default; `""` is the top level. */
const SCHEMA: Record<string, Record<string, [Kind, unknown]>> = {
  "": {
    enable_telemetry: ["bool", true],
    user_provider: ["string", ""],
    init_regions_in_background: ["bool", false],
    init_regions_parallelism: ["int", 16],
    auto_create_table: ["bool", true],
    default_timezone: ["string", "UTC"],
  },
  http: {
    addr: ["addr", "127.0.0.1:4000"],
    timeout: ["duration", 30_000],
    body_limit: ["size", 64 * 1024 * 1024],
    max_total_body_memory: ["size", 256 * 1024 * 1024],
    is_strict_mode: ["bool", false],
    enable_cors: ["bool", true],
    cors_allowed_origins: ["strings", []],
    experimental_enable_explain_analyze_stream: ["bool", true],
  },
  "http.tls": {
    mode: [["disable", "prefer", "require"], "disable"],
    cert_path: ["string", ""],
    key_path: ["string", ""],
  },
  storage: {
    data_home: ["string", "./petrel_data"],
    ttl_sweep_interval: ["duration", 60_000],
    max_disk_size: ["size", 0],
    copy_dir: ["string", ""],
  },
  logging: { level: ["string", "info"] },
  influxdb: { enable: ["bool", true], default_merge_mode: [["last_non_null", "last_row"], "last_non_null"] },
  prom_store: { enable: ["bool", true], with_metric_engine: ["bool", true] },
  // Samples one PromQL query may load (Prometheus' `--query.max-samples`).
  query: { max_samples: ["int", 50_000_000] },
  opentsdb: { enable: ["bool", true] },
  otlp: { enable: ["bool", true] },
  jaeger: { enable: ["bool", true] },
  loki: { enable: ["bool", true] },
  dashboard: { enable: ["bool", true] },
};

/** A configuration problem; start-up prints the message and exits non-zero. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** The command-line flags that override configuration keys. */
export interface ConfigFlags {
  httpAddr?: string;
  dataHome?: string;
  configFile?: string;
  userProvider?: string;
}

/** The default configuration. */
export function defaultConfig(): Config {
  const out: Record<string, unknown> = {};
  for (const [section, keys] of Object.entries(SCHEMA)) {
    const target = sectionOf(out, section, true);
    for (const [key, [, def]] of Object.entries(keys)) target[key] = Array.isArray(def) ? [...def] : def;
  }
  out.downsample = [];
  out.forward = [];
  out.enrichment_tables = [];
  return out as unknown as Config;
}

/** The object holding a section's keys (`""` is the top level, `http.tls` nests in `http`). */
function sectionOf(config: object, section: string, create = false): Record<string, unknown> {
  let target = config as Record<string, unknown>;
  if (section === "") return target;
  for (const part of section.split(".")) {
    if (create && target[part] === undefined) target[part] = {};
    target = target[part] as Record<string, unknown>;
  }
  return target;
}

/** Builds the effective configuration from defaults, the TOML file, the environment and flags. */
export async function loadConfig(
  flags: ConfigFlags,
  env: Record<string, string> = Deno.env.toObject(),
): Promise<
  Config
> {
  const config = defaultConfig();
  if (deployMarker(env)) {
    const d = deployDefaults(env);
    config.storage.data_home = d.data_home;
    config.http.addr = d.addr;
  }
  if (flags.configFile) {
    let text: string;
    try {
      text = await Deno.readTextFile(flags.configFile);
    } catch (e) {
      throw new ConfigError(`Cannot read config file ${flags.configFile}: ${(e as Error).message}`);
    }
    applyToml(config, text, flags.configFile);
  }
  applyEnv(config, env);
  const flagValues: [string, string, string | undefined][] = [
    ["http", "addr", flags.httpAddr],
    ["storage", "data_home", flags.dataHome],
    ["", "user_provider", flags.userProvider],
  ];
  for (const [section, key, value] of flagValues) {
    if (value !== undefined) setKey(config, section, key, value, `flag --${flagName(key)}`);
  }
  return config;
}

function flagName(key: string): string {
  if (key === "addr") return "http-addr";
  return key.replaceAll("_", "-");
}

/** Applies a TOML document; unknown sections or keys and ill-typed values throw naming the file. */
export function applyToml(config: Config, text: string, source: string): void {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (e) {
    throw new ConfigError(`Invalid TOML in ${source}: ${(e as Error).message}`);
  }
  applyTable(config, "", doc, source);
}

function applyTable(config: Config, section: string, table: Record<string, unknown>, source: string): void {
  for (const [name, value] of Object.entries(table)) {
    const nested = section === "" ? name : `${section}.${name}`;
    if (nested === "downsample") {
      try {
        config.downsample = parseDownsampleRules(value);
      } catch (e) {
        throw new ConfigError(`Invalid downsample rule in ${source}: ${(e as Error).message}`);
      }
    } else if (nested === "forward") {
      try {
        config.forward = parseForwardList(value, source);
      } catch (e) {
        throw new ConfigError((e as Error).message);
      }
    } else if (nested === "enrichment_tables") {
      try {
        config.enrichment_tables = parseEnrichmentTables(value, source);
      } catch (e) {
        throw new ConfigError((e as Error).message);
      }
    } else if (nested in SCHEMA && isTable(value)) applyTable(config, nested, value, source);
    else setKey(config, section, name, value, source);
  }
}

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/**
 * Prefixes of configuration variables, weakest first: GreptimeDB standalone's own (so a deployment written
 * for `greptime standalone start` keeps its settings), then Petrel's, which wins when both name a key.
 */
const ENV_PREFIXES = ["GREPTIMEDB_STANDALONE__", "PETREL__"];

/** Applies `PETREL__KEY` and `PETREL__SECTION__KEY` variables (and `GREPTIMEDB_STANDALONE__…` ones). */
export function applyEnv(config: Config, env: Record<string, string>): void {
  for (const prefix of ENV_PREFIXES) {
    for (const [name, value] of Object.entries(env)) {
      if (!name.startsWith(prefix)) continue;
      const parts = name.slice(prefix.length).toLowerCase().split("__");
      const key = parts[parts.length - 1];
      const section = parts.length === 1 ? "" : parts.slice(0, -1).join(".");
      setKey(config, section, key, value, `environment variable ${name}`);
    }
  }
}

function setKey(config: Config, section: string, key: string, raw: unknown, source: string): void {
  const full = section ? `${section}.${key}` : key;
  const spec = SCHEMA[section]?.[key];
  if (!spec) throw new ConfigError(`Unknown configuration key '${full}' in ${source}`);
  const value = coerce(spec[0], raw);
  if (value === undefined) {
    throw new ConfigError(
      `Invalid value for '${full}' in ${source}: expected ${describe(spec[0])}, got ${show(raw)}`,
    );
  }
  sectionOf(config, section)[key] = value;
}

function coerce(kind: Kind, raw: unknown): unknown {
  if (Array.isArray(kind)) return typeof raw === "string" && kind.includes(raw) ? raw : undefined;
  switch (kind) {
    case "bool":
      if (typeof raw === "boolean") return raw;
      if (raw === "true" || raw === "false") return raw === "true";
      return undefined;
    case "int": {
      const n = typeof raw === "number" || typeof raw === "bigint"
        ? Number(raw)
        : typeof raw === "string"
        ? Number(raw)
        : NaN;
      return Number.isInteger(n) && n >= 0 ? n : undefined;
    }
    case "string":
      return typeof raw === "string" ? raw : undefined;
    case "addr":
      return typeof raw === "string" && parseAddr(raw) ? raw : undefined;
    case "duration": {
      if (typeof raw !== "string") return undefined;
      return parseDuration(raw) ?? undefined;
    }
    case "size": {
      if (typeof raw === "number" && Number.isInteger(raw) && raw >= 0) return raw;
      if (typeof raw !== "string") return undefined;
      return parseSize(raw) ?? undefined;
    }
    case "strings":
      if (Array.isArray(raw) && raw.every((x) => typeof x === "string")) return raw;
      if (typeof raw === "string") return raw === "" ? [] : raw.split(",").map((s) => s.trim());
      return undefined;
  }
  return undefined;
}

function describe(kind: Kind): string {
  if (Array.isArray(kind)) return `one of ${kind.join(", ")}`;
  return {
    bool: "a boolean (true or false)",
    int: "a non-negative integer",
    string: "a string",
    addr: 'an address "HOST:PORT"',
    duration: 'a duration like "30s" or "1h30m"',
    size: 'a size like "64MiB" or "1GB"',
    strings: "a list of strings",
  }[kind as string] as string;
}

function show(raw: unknown): string {
  return typeof raw === "string" ? JSON.stringify(raw) : String(raw);
}

/** Splits `HOST:PORT` (IPv6 as `[::1]:4000`); null when malformed. */
export function parseAddr(addr: string): { hostname: string; port: number } | null {
  const m = /^(?:\[([^\]]+)\]|([^:\s]+)):(\d{1,5})$/.exec(addr.trim());
  if (!m) return null;
  const port = Number(m[3]);
  if (port > 65535) return null;
  return { hostname: m[1] ?? m[2], port };
}

/** The effective configuration as TOML, as `GET /config` shows it; credentials are never printed. */
export function renderConfigToml(config: Config): string {
  const lines: string[] = [];
  const sectionLines = (section: string) => {
    const values = sectionOf(config, section);
    for (const [key, [kind]] of Object.entries(SCHEMA[section])) {
      let value = values[key];
      if (key === "user_provider") {
        if (!value) continue;
        value = redactUserProvider(value as string);
      }
      lines.push(`${key} = ${tomlValue(kind, value)}`);
    }
  };
  sectionLines("");
  for (const section of Object.keys(SCHEMA)) {
    if (section === "") continue;
    lines.push("", `[${section}]`);
    sectionLines(section);
  }
  for (const rule of config.downsample ?? []) lines.push("", ...renderDownsampleRule(rule));
  lines.push(...renderForwardToml(config.forward));
  lines.push(...renderEnrichmentTablesToml(config.enrichment_tables ?? []));
  return lines.join("\n") + "\n";
}

function tomlValue(kind: Kind, value: unknown): string {
  if (kind === "duration") return JSON.stringify(formatDuration(value as number));
  if (kind === "size") return JSON.stringify(formatSize(value as number));
  return JSON.stringify(value);
}

/** Hides the passwords of an inline `static_user_provider:cmd:` list; file paths are not secrets. */
export function redactUserProvider(spec: string): string {
  const prefix = "static_user_provider:cmd:";
  if (!spec.startsWith(prefix)) return spec;
  const users = spec.slice(prefix.length).split(",").map((entry) => {
    const eq = entry.indexOf("=");
    return eq < 0 ? entry : `${entry.slice(0, eq)}=********`;
  });
  return prefix + users.join(",");
}
