/** What a handler receives: the request, its route parameters, the app and per-request state. */
import type { Config } from "../config/config.ts";
import { type Access, checkPermission, type StaticUserProvider, type UserInfo } from "./auth.ts";
import { decodeBody, type DecodedBody } from "../codec/decompress.ts";
import { decodeSnappyBody } from "../codec/snappy_framed.ts";
import { readBodyLimited } from "./body.ts";
import { BodyLease, type BodyMemory } from "./body_memory.ts";
import type { ServerMetrics } from "./metrics.ts";
import type { ErrorShape } from "./render_error.ts";
import { HINT_OPTIONS } from "../common/hints.ts";

/**
 * What the HTTP layer needs of the running app; the app handlers see is a wider type the routes
 * define (`routes/context.ts`), so this layer never imports what sits above it.
 */
export interface HttpHost {
  readonly config: Pick<Config, "http">;
  readonly metrics: ServerMetrics;
  readonly userProvider: StaticUserProvider | null;
}

/** HTTP methods the route table uses. */
export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** A handler: a plain function from a request context to a Response. */
export type Handler<A extends HttpHost = HttpHost> = (ctx: RequestContext<A>) => Response | Promise<Response>;

/**
 * Who may call a route: `public` needs no credentials; `read`/`write` need an authenticated user with
 * that permission; `user` any authenticated user, whatever their permission (GreptimeDB runs no
 * permission check where no data is touched: SQL/PromQL parse and format, build info, the calls
 * Elasticsearch shippers make at start-up, which a write-only user must pass); `custom`
 * authenticates and lets the handler call `ctx.authorize` (e.g. SQL decides per statement).
 */
export type AuthRule = "public" | "read" | "write" | "user" | "custom";

/** Switches in the config that can turn a route family off (protocols, experimental endpoints). */
export type Feature =
  | "influxdb"
  | "prom_store"
  | "opentsdb"
  | "otlp"
  | "jaeger"
  | "loki"
  | "explain_analyze_stream";

/** One row of the route table. */
export interface Route<A extends HttpHost = HttpHost> {
  method: Method | Method[];
  path: string;
  handler: Handler<A>;
  auth: AuthRule;
  errors: ErrorShape;
  feature?: Feature;
  /**
   * A request timeout answers 504 here instead of 408 (GreptimeDB's `/v1/prometheus/write`, reference
   * §2.4): Prometheus and vmagent retry 5xx but drop a batch answered with any other 4xx. Petrel sets
   * it on every shipper's write path too: the OpenTelemetry Collector (429/502/503/504 only), Alloy and
   * Promtail (429, 5xx) and Telegraf (drops any 4xx) would lose a batch answered 408.
   */
  timeoutIsGatewayTimeout?: boolean;
  /** Responses are compressed per `accept-encoding` (GreptimeDB's Prometheus query API, §2.8). */
  compressResponse?: boolean;
}

/** Per-request state handed to handlers. */
export class RequestContext<A extends HttpHost = HttpHost> {
  /** The database the request targets (reference §2.1). */
  readonly db: string;
  /** Hints from `x-greptime-hints` / `x-greptime-hint-*` headers (reference §2.3). */
  readonly hints: Record<string, string>;
  private decoded?: Promise<DecodedBody>;
  /** This request's share of `[http] max_total_body_memory`, released when it is answered. */
  readonly bodyLease: BodyLease;

  constructor(
    readonly req: Request,
    readonly url: URL,
    readonly params: Record<string, string>,
    readonly app: A,
    readonly user: UserInfo | null,
    readonly signal: AbortSignal,
    readonly startedAt: number,
    bodyMemory: BodyMemory | null = null,
  ) {
    this.bodyLease = new BodyLease(bodyMemory);
    this.db = selectDatabase(req, url);
    this.hints = extractHints(req.headers);
  }

  /** A query-string parameter. */
  query(name: string): string | null {
    return this.url.searchParams.get(name);
  }

  /**
   * The body, size-limited and with gzip/deflate/br/zstd `Content-Encoding` decoded; read once.
   * `shared`: read an unencoded body straight into shared memory, so it can go to a worker uncopied.
   * `snappy`: also undo `snappy` (raw block or framed) and `x-snappy-framed`, which GreptimeDB passes
   * through undecoded: the OpenTelemetry Collector and Vector send them when told to compress so.
   */
  async body(opts: { shared?: boolean; snappy?: boolean } = {}): Promise<Uint8Array> {
    if (opts.snappy !== true) return (await this.decodedBody([], opts.shared === true)).body;
    const { body, encoding } = await this.decodedBody([], false);
    if (encoding !== "snappy" && encoding !== "x-snappy-framed") return body;
    const out = decodeSnappyBody(body, this.app.config.http.body_limit);
    this.bodyLease.reserve(out.byteLength);
    return out;
  }

  /**
   * The body with its transfer encoding undone except the codecs the endpoint's protocol decodes
   * itself (`own`, e.g. remote write's snappy and zstd), and the encoding still on it; read once.
   */
  bodyWithEncoding(own: readonly string[]): Promise<DecodedBody> {
    return this.decodedBody(own, false);
  }

  private decodedBody(own: readonly string[], shared: boolean): Promise<DecodedBody> {
    if (!this.decoded) {
      const limit = this.app.config.http.body_limit;
      const header = this.req.headers.get("content-encoding");
      this.decoded = readBodyLimited(this.req, limit, shared && header === null, this.bodyLease).then(
        async (raw) => {
          const out = await decodeBody(raw, header, limit, own);
          if (out.body !== raw) this.bodyLease.reserve(out.body.byteLength);
          return out;
        },
      );
    }
    return this.decoded;
  }

  /** The body as UTF-8 text. */
  async text(): Promise<string> {
    return new TextDecoder().decode(await this.body());
  }

  /** Rejects the request (403) unless the user may perform `access`. */
  authorize(access: Access): void {
    checkPermission(this.user, access);
  }

  /** Milliseconds since the request arrived. */
  elapsedMs(): number {
    return Math.round(performance.now() - this.startedAt);
  }
}

/** Header `x-greptime-db-name`, else `db` (then `bucket` on influx v2 paths), else `public`. */
function selectDatabase(req: Request, url: URL): string {
  let db = req.headers.get("x-greptime-db-name") ?? url.searchParams.get("db") ?? "";
  if (db === "" && url.pathname.includes("/api/v2/")) db = url.searchParams.get("bucket") ?? "";
  if (db === "") return "public";
  // `catalog-schema`: Petrel has the single catalog `greptime`.
  return db.startsWith("greptime-") ? db.slice("greptime-".length) : db;
}

const HINT_HEADERS = [...HINT_OPTIONS, "read_preference"];
const RESERVED_HINTS = new Set([
  "remote_query_id",
  "initial_remote_dyn_filter_registrations",
  "query.support_flight_metrics_before_batch",
  "query.live_analyze_metrics",
]);

function extractHints(headers: Headers): Record<string, string> {
  const hints: Record<string, string> = {};
  const all = headers.get("x-greptime-hints");
  if (all !== null) {
    for (const item of all.split(",")) {
      const eq = item.indexOf("=");
      if (eq < 0) continue;
      const key = item.slice(0, eq).trim();
      if (!RESERVED_HINTS.has(key)) hints[key] = item.slice(eq + 1).trim();
    }
    return hints;
  }
  for (const key of HINT_HEADERS) {
    const v = headers.get(`x-greptime-hint-${key}`);
    if (v !== null) hints[key] = v.trim();
  }
  return hints;
}
