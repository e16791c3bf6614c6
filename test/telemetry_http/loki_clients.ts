/** Real Loki clients pushing to a server: winston-loki (protobuf + snappy, or JSON) and pino-loki. */
import winston from "winston";
import LokiTransport from "winston-loki";
import pino from "pino";
import pinoLoki from "pino-loki";

/** Logs two lines through winston-loki to `base` (the server's root URL) and flushes. */
export async function winstonLines(
  base: string,
  json: boolean,
  headers: Record<string, string>,
): Promise<void> {
  const errors: unknown[] = [];
  const transport = new LokiTransport({
    host: base + "/v1",
    json,
    batching: true,
    interval: 0.2,
    headers,
    labels: { app: "winston-demo", transport: json ? "json" : "protobuf" },
    gracefulShutdown: false,
    onConnectionError: (e: unknown) => errors.push(e),
  });
  const log = winston.createLogger({ transports: [transport] });
  log.info("winston hello", { labels: { job: "w" }, user: "u1" });
  log.warn("winston second line ✓");
  await new Promise((r) => setTimeout(r, 50));
  await transport.flush();
  log.close();
  if (errors.length > 0) throw new Error(`winston-loki failed: ${errors.map(String).join("; ")}`);
}

/** Logs two lines through pino-loki (no batching) and waits until `done` says both arrived. */
export async function pinoLines(base: string, headers: Record<string, string>, done: () => Promise<boolean>) {
  const stream = pinoLoki({
    host: base,
    endpoint: "/v1/loki/api/v1/push",
    batching: false,
    headers,
    labels: { app: "pino-demo" },
    propsToLabels: ["component"],
    structuredMetaKey: "meta",
    silenceErrors: false,
  });
  const log = pino({ level: "info" }, stream);
  log.info({ component: "api", meta: { trace_id: "abc123" } }, "pino hello");
  log.error({ component: "db" }, "pino error line");
  for (let i = 0; i < 250 && !await done(); i++) await new Promise((r) => setTimeout(r, 20));
  stream.end();
}
