/**
 * Petrel's command line: `petrel start [flags]` runs the server (`deno task start`); `petrel vrl`
 * runs VRL programs over events (`deno task vrl`).
 */
import { ConfigError, type ConfigFlags, loadConfig } from "./src/config/config.ts";
import { startPetrel } from "./src/app.ts";
import { DataHomeInUse } from "./src/storage/data_lock.ts";
import { checkDataHome } from "./src/storage/check.ts";
import { TlsConfigError } from "./src/http/tls.ts";
import { onDenoDeploy } from "./src/config/deploy.ts";
import { existsSync } from "node:fs";

const USAGE = `Petrel: an observability database (metrics, logs, traces) with GreptimeDB's HTTP API.

Usage:
  petrel start [--http-addr HOST:PORT] [--data-home DIR|:memory:] [--config-file FILE] [--user-provider SPEC]
  petrel check [--data-home DIR] [--config-file FILE]   (integrity of every database file)
  petrel vrl --program FILE.vrl --input EVENTS.ndjson [--print-object] [--config-file FILE]

Configuration: defaults < TOML file < env GREPTIMEDB_STANDALONE__SECTION__KEY < env PETREL__SECTION__KEY < flags.
-c is short for --config-file.`;

const START_FLAGS: Record<string, keyof ConfigFlags> = {
  "--http-addr": "httpAddr",
  "--data-home": "dataHome",
  "--config-file": "configFile",
  "-c": "configFile",
  "--user-provider": "userProvider",
};

/** `greptime standalone start` flags of listeners Petrel does not have, with the protocol each serves. */
const GREPTIMEDB_LISTENERS: Record<string, string> = {
  "--rpc-bind-addr": "gRPC",
  "--rpc-server-addr": "gRPC",
  "--rpc-addr": "gRPC",
  "--mysql-addr": "MySQL",
  "--postgres-addr": "PostgreSQL",
};

/** `--help` among a command's flags: print the usage and exit 0, as `greptime standalone start --help`. */
class HelpRequested extends Error {}

/** Parses `start` flags (`--flag value` or `--flag=value`); throws ConfigError on anything unknown. */
function parseStartFlags(args: string[]): ConfigFlags {
  const flags: ConfigFlags = {};
  for (let i = 0; i < args.length; i++) {
    let name = args[i];
    let value: string | undefined;
    const eq = name.indexOf("=");
    if (name.startsWith("--") && eq > 0) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    if (name === "--help" || name === "-h") throw new HelpRequested();
    const key = START_FLAGS[name];
    const other = GREPTIMEDB_LISTENERS[name];
    if (!key && other) {
      throw new ConfigError(
        `Option '${name}' of 'greptime standalone start' has no meaning here: Petrel serves only GreptimeDB's HTTP API (--http-addr), no ${other} listener; drop the option`,
      );
    }
    if (!key) throw new ConfigError(`Unknown option '${args[i]}' for 'petrel start'\n\n${USAGE}`);
    value ??= args[++i];
    if (value === undefined) throw new ConfigError(`Option '${name}' needs a value`);
    flags[key] = value;
  }
  return flags;
}

async function start(args: string[]): Promise<number> {
  const config = await loadConfig(parseStartFlags(args));
  const server = await startPetrel(config);
  const stop = () => void server.shutdown();
  // Listen for signals before announcing the server: a supervisor that reloads (SIGHUP) or stops it
  // as soon as it reads the line must not meet the default action, which kills the process.
  try {
    Deno.addSignalListener("SIGINT", stop);
    Deno.addSignalListener("SIGTERM", stop);
    if (server.secure) Deno.addSignalListener("SIGHUP", () => void server.reloadTls());
  } catch {
    // no signals to listen to (Deno Deploy): the platform stops the isolate
  }
  console.log(`Petrel listening on ${server.secure ? "https" : "http"}://${server.hostname}:${server.port}`);
  await server.finished;
  // The listener finishes before shutdown has closed storage: exit only once shutdown is complete.
  await server.shutdown();
  return 0;
}

/** `petrel check`: integrity of every database file; exit 1 on damage. */
async function check(args: string[]): Promise<number> {
  const config = await loadConfig(parseStartFlags(args));
  if (config.storage.data_home === ":memory:") {
    throw new ConfigError("petrel check needs a data home on disk");
  }
  // a mistyped path would otherwise "check" zero files and exit 0
  if (!existsSync(config.storage.data_home)) {
    throw new ConfigError(`petrel check: data home ${config.storage.data_home} does not exist`);
  }
  const results = checkDataHome(config.storage.data_home);
  for (const r of results) {
    console.log(`${r.ok ? "ok" : "DAMAGED"}  ${r.file}`);
    for (const p of r.problems) console.log(`    ${p}`);
  }
  const bad = results.filter((r) => !r.ok).length;
  console.log(`${results.length} database files checked in ${config.storage.data_home}, ${bad} damaged`);
  return bad > 0 ? 1 : 0;
}

/** Runs the `petrel` command line `args`; resolves with the exit code. */
export async function main(args: string[]): Promise<number> {
  // Deno Deploy runs the entry point without arguments: that means "start".
  const [command, ...rest] = args.length === 0 && onDenoDeploy() ? ["start"] : args;
  try {
    switch (command) {
      case "start":
        return await start(rest);
      case "check":
        return await check(rest);
      case "vrl":
        // loaded here only: the VRL engine is not part of a running server's footprint
        return await (await import("./engine/vrl/cli.ts")).runVrlCli(rest);
      case undefined:
      case "help":
      case "--help":
      case "-h":
        console.log(USAGE);
        return command === undefined ? 1 : 0;
      default:
        console.error(`Unknown command '${command}'\n\n${USAGE}`);
        return 2;
    }
  } catch (e) {
    if (e instanceof HelpRequested) {
      console.log(USAGE);
      return 0;
    }
    if (e instanceof ConfigError || e instanceof DataHomeInUse || e instanceof TlsConfigError) {
      console.error(`error: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
