/**
 * One request to an upstream and what its answer means for the batch: accepted, worth retrying
 * (5xx, 408, 429, a timeout, a refused or dropped connection), or refused for good (any other
 * 4xx: sending the same bytes again cannot succeed, so the batch is dead-lettered).
 */

/** The outcome of one request. */
export type SendResult =
  | { kind: "ok" }
  | { kind: "retry"; reason: string }
  | { kind: "reject"; status: number; reason: string };

/** A request ready to send. */
export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer> | string;
}

/** Posts a request with a timeout (and the caller's abort signal) and classifies the answer. */
export async function send(
  req: UpstreamRequest,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<SendResult> {
  const timeout = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await fetch(req.url, {
      method: "POST",
      headers: req.headers,
      body: req.body,
      signal: AbortSignal.any([timeout, signal]),
    });
  } catch (e) {
    if (timeout.aborted) return { kind: "retry", reason: `timed out after ${timeoutMs} ms` };
    return { kind: "retry", reason: (e as Error).message };
  }
  let text = "";
  try {
    text = (await res.text()).slice(0, 500);
  } catch { /* the reason is the status then */ }
  if (res.ok) return { kind: "ok" };
  const reason = `HTTP ${res.status}${text ? `: ${text.trim()}` : ""}`;
  if (res.status >= 500 || res.status === 408 || res.status === 429) return { kind: "retry", reason };
  return { kind: "reject", status: res.status, reason };
}

/** The wait before retry `attempt` (0-based): exponential from `min` to `max`, with full jitter in its upper half. */
export function backoff(attempt: number, minMs: number, maxMs: number, random = Math.random): number {
  const base = Math.min(maxMs, minMs * 2 ** Math.min(attempt, 30));
  return Math.round(base / 2 + random() * base / 2);
}
