/**
 * Server-Sent Events responses: `event:`/`data:` frames, a keep-alive comment at a fixed interval
 * (as axum's `KeepAlive` sends it, `:` and a blank line) and a signal that aborts when the client
 * goes away, so the producer can stop its work.
 */
import { Logger } from "../common/log.ts";

const log = new Logger("petrel::http::sse");

/** What a producer writes events to. */
export interface SseSink {
  /** Sends one event; after the client left, nothing happens. */
  send(event: string, data: string): void;
  /** Aborts when the client disconnects. */
  readonly signal: AbortSignal;
}

/** Options of {@link sseResponse}. */
export interface SseOptions {
  /** Milliseconds between keep-alive comments (default 15 s, as GreptimeDB). */
  keepAliveMs?: number;
}

/** A `text/event-stream` response fed by `produce`; the stream ends when `produce` settles. */
export function sseResponse(produce: (sink: SseSink) => Promise<void>, opts: SseOptions = {}): Response {
  const enc = new TextEncoder();
  const gone = new AbortController();
  let timer: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      const write = (text: string) => {
        if (closed) return;
        try {
          c.enqueue(enc.encode(text));
        } catch {
          closed = true;
        }
      };
      timer = setInterval(() => write(":\n\n"), opts.keepAliveMs ?? 15_000);
      const sink: SseSink = {
        send: (event, data) =>
          write(`event: ${event}\n${data.split("\n").map((l) => `data: ${l}\n`).join("")}\n`),
        signal: gone.signal,
      };
      produce(sink)
        .catch((e) => log.error("event stream failed", { error: String((e as Error)?.stack ?? e) }))
        .finally(() => {
          clearInterval(timer);
          if (closed) return;
          closed = true;
          c.close();
        });
    },
    cancel() {
      closed = true;
      clearInterval(timer);
      gone.abort();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      // events must reach the client as they happen: no compression buffering them
      "content-encoding": "identity",
    },
  });
}
