/** `http_request`'s work on the network thread: one fetch, its body as a VRL byte string. */

import { bytesString, utf8Bytes } from "../bytes.ts";

/** `http_request`'s arguments as the caller checked them. */
export interface HttpRequestArgs {
  url: string;
  /** Upper-cased. */
  method: string;
  headers: [string, string][];
  /** A VRL byte string; empty sends none. */
  body: string;
}

/** Performs the request and returns the response body whatever its status, as VRL does. */
export async function httpRequest(a: HttpRequestArgs, signal: AbortSignal): Promise<string> {
  let headers: Headers;
  try {
    headers = new Headers(a.headers);
  } catch (e) {
    throw new Error(`Invalid header: ${(e as Error).message}`);
  }
  const hasBody = a.body !== "" && a.method !== "GET" && a.method !== "HEAD";
  try {
    const res = await fetch(a.url, {
      method: a.method,
      headers,
      body: hasBody ? utf8Bytes(a.body) as Uint8Array<ArrayBuffer> : undefined,
      signal,
    });
    return bytesString(new Uint8Array(await res.arrayBuffer()));
  } catch (e) {
    if (signal.aborted) throw new Error(`HTTP request timed out: ${a.method} ${a.url}`);
    throw new Error(`HTTP request failed: ${(e as Error).message}`);
  }
}
