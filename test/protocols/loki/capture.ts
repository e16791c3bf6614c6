/**
 * Real Loki push bodies: winston-loki (protobuf + snappy, and JSON) and pino-loki (JSON with
 * structured metadata), pointed at a capture server.
 */
import winston from "winston";
import LokiTransport from "winston-loki";
import pino from "pino";
import pinoLoki from "pino-loki";

/** One captured push. */
export interface LokiCaptured {
  client: "winston-proto" | "winston-json" | "pino";
  contentType: string | null;
  contentEncoding: string | null;
  body: Uint8Array;
}

async function withServer(
  client: LokiCaptured["client"],
  run: (host: string, got: LokiCaptured[]) => Promise<void>,
): Promise<LokiCaptured[]> {
  const got: LokiCaptured[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    got.push({
      client,
      contentType: req.headers.get("content-type"),
      contentEncoding: req.headers.get("content-encoding"),
      body: new Uint8Array(await req.arrayBuffer()),
    });
    return new Response(null, { status: 204 });
  });
  try {
    await run(`http://127.0.0.1:${server.addr.port}`, got);
  } finally {
    await server.shutdown();
  }
  return got;
}

async function winstonPush(json: boolean): Promise<LokiCaptured[]> {
  return await withServer(json ? "winston-json" : "winston-proto", async (host) => {
    const transport = new LokiTransport({
      host: host + "/v1",
      json,
      batching: true,
      interval: 0.2,
      labels: { app: "winston-demo", transport: json ? "json" : "protobuf" },
      gracefulShutdown: false,
      onConnectionError: (e: unknown) => {
        throw e;
      },
    });
    const log = winston.createLogger({ transports: [transport] });
    log.info("winston hello", { labels: { job: "w" }, user: "u1" });
    log.warn("winston second line ✓");
    await new Promise((r) => setTimeout(r, 50));
    await transport.flush();
    log.close();
  });
}

async function pinoPush(): Promise<LokiCaptured[]> {
  return await withServer("pino", async (host, got) => {
    const stream = pinoLoki({
      host,
      endpoint: "/v1/loki/api/v1/push",
      batching: false,
      labels: { app: "pino-demo" },
      propsToLabels: ["component"],
      structuredMetaKey: "meta",
      silenceErrors: false,
    });
    const log = pino({ level: "info" }, stream);
    log.info({ component: "api", meta: { trace_id: "abc123" } }, "pino hello");
    log.error({ component: "db" }, "pino error line");
    // pino-loki sends each line as it comes (no batching); wait for both requests.
    for (let i = 0; i < 250 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    stream.end();
  });
}

/** Pushes from every client. */
export async function captureLoki(): Promise<LokiCaptured[]> {
  return [...await winstonPush(false), ...await winstonPush(true), ...await pinoPush()];
}
