/**
 * The running Petrel instance: its configuration, services and HTTP listener, with a clean start
 * and a graceful stop (finish in-flight requests, then close storage).
 */
import { type Config, ConfigError, parseAddr } from "./config/config.ts";
import { StaticUserProvider } from "./http/auth.ts";
import { ServerMetrics } from "./http/metrics.ts";
import { Router } from "./http/router.ts";
import { createHandler } from "./http/server.ts";
import { buildInfo } from "./build_info.ts";
import { LogFilter, Logger, setLogFilter } from "./common/log.ts";
import { ROUTES } from "../routes/mod.ts";
import type { App } from "../routes/context.ts";
import { Storage } from "./storage/mod.ts";
import { PipelineStore } from "../engine/store.ts";

/** A started server. */
export interface RunningServer {
  app: App;
  /** The bound address (the real port when started on port 0). */
  hostname: string;
  port: number;
  /** Stops accepting, waits for in-flight requests, then closes storage. */
  shutdown(): Promise<void>;
  /** Resolves when the server has stopped. */
  finished: Promise<void>;
}

const log = new Logger("petrel");

/** Starts Petrel with a configuration; throws a plain Error for start-up problems. */
export async function startPetrel(config: Config): Promise<RunningServer> {
  setLogFilter(LogFilter.parse(config.logging.level));
  const addr = parseAddr(config.http.addr)!;
  let userProvider: StaticUserProvider | null = null;
  try {
    if (config.user_provider) userProvider = StaticUserProvider.fromSpec(config.user_provider);
  } catch (e) {
    throw new ConfigError(`Invalid user_provider: ${(e as Error).message}`);
  }
  if (config.storage.data_home !== ":memory:") {
    await Deno.mkdir(config.storage.data_home, { recursive: true });
  }
  const storage = Storage.open({
    dataHome: config.storage.data_home,
    autoCreateTable: config.auto_create_table,
  });
  if (config.storage.ttl_sweep_interval > 0) storage.startTtlSweeper(config.storage.ttl_sweep_interval);
  storage.startCompactor();
  const app: App = {
    config,
    metrics: serverMetrics(storage),
    userProvider,
    storage,
    pipelines: new PipelineStore(storage),
    build: await buildInfo(),
    traceEnabled: false,
  };
  const router = new Router(ROUTES, (feature) => config[feature].enable);
  const inner = createHandler(app, router);
  // Deno's `server.shutdown()` cuts the bodies of requests still uploading, so draining is done
  // here: once stopping, new requests get 503 while in-flight ones run to completion.
  let inFlight = 0;
  let draining = false;
  let drained: (() => void) | null = null;
  const handler = async (req: Request) => {
    if (draining) {
      return new Response(JSON.stringify({ error: "Petrel is shutting down" }), {
        status: 503,
        headers: { "content-type": "application/json", connection: "close" },
      });
    }
    inFlight++;
    try {
      return await inner(req);
    } finally {
      if (--inFlight === 0 && drained) drained();
    }
  };
  let resolveListen: (a: Deno.NetAddr) => void;
  const listening = new Promise<Deno.NetAddr>((r) => resolveListen = r);
  const server = Deno.serve({
    hostname: addr.hostname,
    port: addr.port,
    onListen: (a) => resolveListen(a as Deno.NetAddr),
    onError: (e) => {
      log.error("request failed outside a handler", { error: String(e) });
      return new Response(JSON.stringify({ error: "Internal error: 1003" }), { status: 500 });
    },
  }, handler);
  const bound = await listening;
  log.info("Petrel listening", {
    addr: `${bound.hostname}:${bound.port}`,
    data_home: config.storage.data_home,
  });
  let stopping: Promise<void> | null = null;
  const shutdown = () => {
    stopping ??= (async () => {
      draining = true;
      if (inFlight > 0) {
        const grace = config.http.timeout > 0 ? config.http.timeout : 30_000;
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          new Promise<void>((r) => drained = r),
          new Promise<void>((r) => timer = setTimeout(r, grace)),
        ]);
        clearTimeout(timer);
      }
      await server.shutdown();
      storage.close();
      log.info("Petrel stopped");
    })();
    return stopping;
  };
  return { app, hostname: bound.hostname, port: bound.port, shutdown, finished: server.finished };
}

function serverMetrics(storage: Storage): ServerMetrics {
  const metrics = new ServerMetrics();
  metrics.watchStorage(() => storage.compactedWindows());
  return metrics;
}
