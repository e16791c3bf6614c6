/**
 * Starts a real Petrel for tests: in-process (`startTestServer`, fast) or as a child process running
 * `main.ts start` (`spawnServer`, for flags, env, signals and logs). Both bind port 0 and use a temp
 * data dir.
 */
import { type Config, defaultConfig } from "../../src/config/config.ts";
import { type RunningServer, startPetrel } from "../../src/app.ts";

/** A running test server. */
export interface TestServer {
  url: string;
  server: RunningServer;
  dataHome: string;
  stop(): Promise<void>;
}

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? Partial<T[K]> : T[K] };

/** Starts Petrel in this process on 127.0.0.1:0 with a fresh temp data dir (or `dataHome`). */
export async function startTestServer(overrides: DeepPartial<Config> = {}): Promise<TestServer> {
  const config = defaultConfig();
  const dataHome = overrides.storage?.data_home ?? await Deno.makeTempDir({ prefix: "petrel_test_" });
  for (const [key, value] of Object.entries(overrides)) {
    const target = config as unknown as Record<string, unknown>;
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      target[key] = { ...(target[key] as object), ...value };
    } else target[key] = value;
  }
  config.http.addr = "127.0.0.1:0";
  config.storage.data_home = dataHome;
  config.logging.level = overrides.logging?.level ?? "error";
  const server = await startPetrel(config);
  return {
    url: `http://127.0.0.1:${server.port}`,
    server,
    dataHome,
    stop: () => server.shutdown(),
  };
}

/** Runs `fn` with the URL of a fresh test server, stopped afterwards whatever happens. */
export async function withTestServer(fn: (url: string) => Promise<void>): Promise<void> {
  const server = await startTestServer();
  try {
    await fn(server.url);
  } finally {
    await server.stop();
  }
}

/** A Petrel child process. */
export interface SpawnedServer {
  url: string;
  child: Deno.ChildProcess;
  /** Everything the process wrote to stderr so far (the JSON log lines). */
  stderr(): string;
  /** Sends a signal and waits for the exit status. */
  stop(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
}

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/**
 * Runs `deno run -A [denoFlags] main.ts start …args` and waits for its "listening" line (`denoFlags`:
 * e.g. `--cpu-prof` for a benchmark's profile).
 */
export function spawnServer(
  args: string[],
  env: Record<string, string> = {},
  denoFlags: string[] = [],
): Promise<SpawnedServer> {
  return spawnListening(Deno.execPath(), ["run", "-A", ...denoFlags, MAIN, "start", ...args], { env });
}

/**
 * Runs any command that starts Petrel (`main.ts` with other arguments, the release file through
 * `sh`) and waits for its "listening" line; `stop()` also waits until all of stderr is read.
 */
export async function spawnListening(
  command: string,
  args: string[],
  opts: { cwd?: string; env?: Record<string, string> } = {},
): Promise<SpawnedServer> {
  const child = new Deno.Command(command, {
    args,
    cwd: opts.cwd,
    env: { NO_COLOR: "1", ...opts.env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let errText = "";
  const errDone = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) errText += chunk;
  })();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  let url = "";
  const deadline = Date.now() + 30_000;
  while (!url) {
    if (Date.now() > deadline) throw new Error(`server did not start: ${out}\n${errText}`);
    const { value, done } = await reader.read();
    if (done) {
      const status = await child.status;
      await errDone;
      throw new Error(`server exited with ${status.code} before listening:\n${out}\n${errText}`);
    }
    out += value;
    const m = /Petrel listening on (https?:\/\/\S+)/.exec(out);
    if (m) url = m[1];
  }
  const outDone = (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return {
    url,
    child,
    stderr: () => errText,
    stop: async (signal: Deno.Signal = "SIGTERM") => {
      try {
        child.kill(signal);
      } catch { /* already gone */ }
      const status = await child.status;
      await Promise.all([errDone, outDone]);
      return status;
    },
  };
}

/** Runs `main.ts` with arguments to completion (for start-up failures), returning code and output. */
export async function runMain(args: string[], env: Record<string, string> = {}): Promise<
  { code: number; stdout: string; stderr: string }
> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Basic credentials header value. */
export function basicAuth(user: string, password: string): string {
  return "Basic " + btoa(`${user}:${password}`);
}
