/**
 * What every handler receives: the request context of the HTTP layer over the app the composition
 * root (`src/app.ts`) builds. Defined here, below the composition root, so no layer imports it.
 */
import type { Config } from "../src/config/config.ts";
import type { StaticUserProvider } from "../src/http/auth.ts";
import type { RequestContext, Route } from "../src/http/context.ts";
import type { ServerMetrics } from "../src/http/metrics.ts";
import type { BuildInfo } from "../src/build_info.ts";
import type { Storage } from "../src/storage/mod.ts";
import type { PipelineStore } from "../engine/store.ts";
import type { Forwarder } from "../src/forward/forwarder.ts";
import type { FlowService } from "../src/downsample/flows.ts";

/** Everything handlers share. */
export interface App {
  config: Config;
  metrics: ServerMetrics;
  userProvider: StaticUserProvider | null;
  storage: Storage;
  pipelines: PipelineStore;
  /** `CREATE FLOW` and friends, run by the downsampler. */
  flows: FlowService;
  /** Store-and-forward (`[[forward]]`), null when no destination is configured. */
  forwarder: Forwarder | null;
  build: BuildInfo;
  /** Running on Deno Deploy (`src/config/deploy.ts`): whatever storage it has ends with the isolate. */
  deploy: boolean;
  /** Toggled by `POST /debug/enable_trace`. */
  traceEnabled: boolean;
}

/** A handler's request context. */
export type Ctx = RequestContext<App>;

/** One row of Petrel's route table. */
export type AppRoute = Route<App>;
