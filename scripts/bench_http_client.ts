/**
 * A lean HTTP/1.1 load generator for the ingest benchmarks: keep-alive connections writing
 * prebuilt requests and reading just the status line, headers and any body. On a two-core host
 * the client shares the CPU with the server under test, and `fetch` spent ~10 % of a core on
 * 1 MB bodies; this spends a fraction of that, for Petrel and VictoriaMetrics alike.
 */

const CRLF_CRLF = new Uint8Array([13, 10, 13, 10]);
const decoder = new TextDecoder();

/** Where and how to POST. */
export interface PostTarget {
  url: string;
  headers: Record<string, string>;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Reads responses off one connection, keeping any bytes read past the current one. */
class ResponseReader {
  private buf = new Uint8Array(0);
  constructor(private readonly conn: Deno.Conn) {}

  private async fill(): Promise<void> {
    const chunk = new Uint8Array(64 * 1024);
    const n = await this.conn.read(chunk);
    if (n === null) throw new Error("connection closed by the server");
    const next = new Uint8Array(this.buf.length + n);
    next.set(this.buf);
    next.set(chunk.subarray(0, n), this.buf.length);
    this.buf = next;
  }

  /** The next response's status and body text. */
  async next(): Promise<{ status: number; body: string }> {
    let end: number;
    while ((end = indexOf(this.buf, CRLF_CRLF, 0)) < 0) await this.fill();
    const head = decoder.decode(this.buf.subarray(0, end));
    const status = Number(head.slice(9, 12));
    const lower = head.toLowerCase();
    const length = /\r\ncontent-length:\s*(\d+)/.exec(lower);
    let bodyStart = end + 4, bodyEnd: number;
    if (length) {
      bodyEnd = bodyStart + Number(length[1]);
      while (this.buf.length < bodyEnd) await this.fill();
    } else if (/\r\ntransfer-encoding:\s*chunked/.test(lower)) {
      const last = new TextEncoder().encode("0\r\n\r\n");
      let at: number;
      while ((at = indexOf(this.buf, last, bodyStart)) < 0) await this.fill();
      bodyEnd = at + last.length;
    } else if (status === 204 || status === 304) {
      bodyEnd = bodyStart;
    } else {
      throw new Error(`cannot frame a response without length: ${head}`);
    }
    const body = decoder.decode(this.buf.subarray(bodyStart, bodyEnd));
    this.buf = this.buf.slice(bodyEnd);
    bodyStart = 0;
    return { status, body };
  }
}

/** POSTs every body over `concurrency` keep-alive connections; returns seconds, failing on any non-2xx. */
export async function postAllRaw(
  target: PostTarget,
  bodies: Uint8Array[],
  concurrency: number,
): Promise<number> {
  const url = new URL(target.url);
  const head = (length: number) =>
    new TextEncoder().encode(
      `POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n` +
        Object.entries(target.headers).map(([k, v]) => `${k}: ${v}\r\n`).join("") +
        `content-length: ${length}\r\n\r\n`,
    );
  const heads = bodies.map((b) => head(b.byteLength));
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
    conn.setNoDelay(true);
    const reader = new ResponseReader(conn);
    try {
      while (next < bodies.length) {
        const i = next++;
        for (const part of [heads[i], bodies[i]]) {
          let off = 0;
          while (off < part.length) off += await conn.write(part.subarray(off));
        }
        const r = await reader.next();
        if (r.status >= 300) throw new Error(`${target.url} → ${r.status}: ${r.body.slice(0, 300)}`);
      }
    } finally {
      conn.close();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return (performance.now() - t0) / 1000;
}
