/**
 * The running Petrel instance: its configuration, services and HTTP listener, with a clean start
 * and a graceful stop (finish in-flight requests, then close storage).
 */
import { type Config, ConfigError, parseAddr } from "./config/config.ts";
import { StaticUserProvider } from "./http/auth.ts";
import { ServerMetrics } from "./http/metrics.ts";
import { watchStatementPrepares, watchTableDisk } from "./http/storage_metrics.ts";
import { Router } from "./http/router.ts";
import { createHandler } from "./http/server.ts";
import { Listener } from "./http/listener.ts";
import { loadTls } from "./http/tls.ts";
import { buildInfo } from "./build_info.ts";
import { LogFilter, Logger, setLogFilter } from "./common/log.ts";
import { ROUTES } from "../routes/mod.ts";
import type { App } from "../routes/context.ts";
import { Storage, type StorageOptions } from "./storage/mod.ts";
import { type DataHomeLock, lockDataHome } from "./storage/data_lock.ts";
import { PipelineStore } from "../engine/store.ts";
import { Downsampler } from "./downsample/downsampler.ts";
import { FlowService, storedFlowRules } from "./downsample/flows.ts";
import { promqlBackend } from "./query/tql_backend.ts";
import { evalTqlText } from "./sql/tql/flow_eval.ts";
import { onDenoDeploy } from "./config/deploy.ts";
import type { Forwarder } from "./forward/forwarder.ts";
import { type MetricFamily, registerServer } from "./sql/info_server.ts";

/** A started server. */
export interface RunningServer {
  app: App;
  /** The bound address (the real port when started on port 0). */
  hostname: string;
  port: number;
  /** The `[[downsample]]` runner (tests drive it with `runOnce(now)`). */
  downsampler: Downsampler;
  /** Whether the listener speaks HTTPS (`[http.tls]`). */
  secure: boolean;
  /** Re-reads the TLS certificate and key (SIGHUP); false (logged) when they cannot be served. */
  reloadTls(): Promise<boolean>;
  /** Stops accepting, waits for in-flight requests, then closes storage. */
  shutdown(): Promise<void>;
  /** Resolves when the server has stopped. */
  finished: Promise<void>;
}

const log = new Logger("petrel");

/**
 * Wraps the handler for a graceful stop. Deno's `server.shutdown()` cuts the bodies of requests
 * still uploading, so draining is done here: once `drain` is called, new requests get 503 while
 * in-flight ones run to completion (at most `graceMs`).
 */
function drainingHandler(inner: (req: Request) => Promise<Response>) {
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
  const drain = async (graceMs: number) => {
    draining = true;
    if (inFlight === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      new Promise<void>((r) => drained = r),
      new Promise<void>((r) => timer = setTimeout(r, graceMs)),
    ]);
    clearTimeout(timer);
  };
  return { handler, drain };
}

/** Reads VRL's enrichment tables (loaded only when some are configured); a bad one stops start-up. */
async function loadEnrichmentTables(config: Config): Promise<void> {
  if (config.enrichment_tables.length === 0) return;
  const registry = await import("../engine/vrl/enrichment/registry.ts");
  try {
    await registry.loadEnrichmentTables(config.enrichment_tables);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
}

/** Starts Petrel with a configuration; throws a plain Error for start-up problems. */
export async function startPetrel(config: Config): Promise<RunningServer> {
  const startedAt = Date.now();
  setLogFilter(LogFilter.parse(config.logging.level));
  const addr = parseAddr(config.http.addr)!;
  let userProvider: StaticUserProvider | null = null;
  try {
    if (config.user_provider) userProvider = StaticUserProvider.fromSpec(config.user_provider);
  } catch (e) {
    throw new ConfigError(`Invalid user_provider: ${(e as Error).message}`);
  }
  await loadEnrichmentTables(config);
  const deploy = onDenoDeploy();
  const { storage, lock } = await openStorage(config, deploy);
  if (config.storage.ttl_sweep_interval > 0) storage.startTtlSweeper(config.storage.ttl_sweep_interval);
  storage.startCompactor();
  // Flows created by SQL run next to the TOML's rules, through the same scheduler.
  const backend = promqlBackend(storage, config.query.max_samples);
  const downsampler = new Downsampler(
    storage,
    [...config.downsample, ...storedFlowRules(storage)],
    (db, statement) => evalTqlText(backend, storage, db, statement, config.default_timezone),
  );
  // Most hosts forward nothing: the forwarder's code loads only when a destination is configured.
  const forwarder = config.forward.length > 0
    ? new (await import("./forward/forwarder.ts")).Forwarder(config.forward, storage)
    : null;
  const app: App = {
    config,
    metrics: serverMetrics(storage, downsampler, forwarder),
    forwarder,
    userProvider,
    storage,
    pipelines: new PipelineStore(storage),
    flows: new FlowService(storage, downsampler),
    build: await buildInfo({ git: !deploy }),
    deploy,
    traceEnabled: false,
  };
  const router = new Router(
    ROUTES,
    (feature) =>
      feature === "explain_analyze_stream"
        ? config.http.experimental_enable_explain_analyze_stream
        : config[feature].enable,
  );
  const { handler, drain } = drainingHandler(createHandler(app, router));
  let listener: Listener;
  try {
    listener = await Listener.open({
      hostname: addr.hostname,
      port: addr.port,
      tls: await loadTls(config.http.tls),
      handler,
      onError: (e) => {
        log.error("request failed outside a handler", { error: String(e) });
        return new Response(JSON.stringify({ error: "Internal error: 1003" }), { status: 500 });
      },
    });
  } catch (e) {
    // a port in use or an unusable certificate: leave the data home as it was found
    app.metrics.close();
    await forwarder?.stop();
    storage.close();
    lock?.release();
    throw e;
  }
  // information_schema's cluster_info, runtime_metrics and process_list speak of this server
  registerServer(storage, {
    build: app.build,
    addr: `${listener.hostname}:${listener.port}`,
    startedAt,
    metrics: async () => (await app.metrics.registry.getMetricsAsJSON()) as MetricFamily[],
  });
  downsampler.start();
  forwarder?.start();
  log.info("Petrel listening", {
    addr: `${listener.hostname}:${listener.port}`,
    tls: listener.secure,
    data_home: config.storage.data_home,
  });
  if (deploy) {
    log.warn("Deno Deploy: storage is ephemeral and ends with this isolate", {
      data_home: config.storage.data_home,
    });
  }
  const reloadTls = tlsReloader(config, listener);
  let stopping: Promise<void> | null = null;
  const shutdown = () => {
    stopping ??= (async () => {
      await drain(config.http.timeout > 0 ? config.http.timeout : 30_000);
      await downsampler.stop();
      await listener.shutdown();
      await forwarder?.stop();
      app.metrics.close();
      storage.close();
      lock?.release();
      log.info("Petrel stopped");
    })();
    return stopping;
  };
  return {
    app,
    hostname: listener.hostname,
    port: listener.port,
    secure: listener.secure,
    downsampler,
    reloadTls,
    shutdown,
    finished: listener.finished,
  };
}

/** Locks the data home and opens the storage in it; a failure leaves the data home unlocked. */
async function openStorage(
  config: Config,
  deploy: boolean,
): Promise<{ storage: Storage; lock: DataHomeLock | null }> {
  const lock = await prepareDataHome(config.storage.data_home, deploy);
  try {
    return { storage: Storage.open(storageOptions(config)), lock };
  } catch (e) {
    lock?.release();
    throw e;
  }
}

/** Re-reads the certificate and key (SIGHUP); a failure keeps the current ones and is logged. */
function tlsReloader(config: Config, listener: Listener): () => Promise<boolean> {
  return async () => {
    try {
      const tls = await loadTls(config.http.tls);
      if (!tls || !listener.secure) throw new Error("TLS is not enabled");
      await listener.reload(tls);
      log.info("TLS certificate reloaded", { cert_path: config.http.tls.cert_path });
      return true;
    } catch (e) {
      log.error("TLS reload failed; serving the previous certificate", {
        error: String((e as Error).message),
      });
      return false;
    }
  };
}

function storageOptions(config: Config): StorageOptions {
  const { data_home: dataHome, max_disk_size: maxDiskSize } = config.storage;
  return { dataHome, autoCreateTable: config.auto_create_table, maxDiskSize };
}

/** Creates and locks the data home; on Deploy one isolate never shares it, so no lock file is written. */
async function prepareDataHome(dataHome: string, deploy: boolean): Promise<DataHomeLock | null> {
  if (dataHome === ":memory:") return null;
  await Deno.mkdir(dataHome, { recursive: true });
  return deploy ? null : lockDataHome(dataHome);
}

function serverMetrics(
  storage: Storage,
  downsampler: Downsampler,
  forwarder: Forwarder | null,
): ServerMetrics {
  const metrics = new ServerMetrics();
  metrics.watchDownsampling(downsampler.windows, downsampler.recomputed);
  metrics.watchStorage(() => storage.compactedWindows());
  watchTableDisk(metrics.registry, storage);
  watchStatementPrepares(metrics.registry, storage);
  if (forwarder !== null) metrics.watchForwarding(() => forwarder.stats());
  return metrics;
}
