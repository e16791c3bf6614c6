/**
 * The listening socket of the server: `Deno.serve` over plain HTTP or HTTPS, and the swap a TLS
 * reload needs. `Deno.serve` cannot change its certificate, so a reload proves the new certificate
 * and key on a throwaway listener, closes the server's listener (its in-flight requests run to
 * completion) and binds a new server with them on the same port. Connections attempted in the
 * instant between are refused (clients retry); a gapless swap would need SO_REUSEPORT, which Deno
 * 2.9 offers for TLS only behind `--unstable-net`.
 */
import type { TlsFiles } from "./tls.ts";

type Handler = (req: Request) => Response | Promise<Response>;

/** What to listen on and with. */
export interface ListenOptions {
  hostname: string;
  port: number;
  tls: TlsFiles | null;
  handler: Handler;
  onError: (e: unknown) => Response;
}

/** A bound listener. */
export class Listener {
  private current: Deno.HttpServer<Deno.NetAddr>;
  private done!: () => void;
  /** Resolves once {@link shutdown} has stopped the last server. */
  readonly finished = new Promise<void>((r) => this.done = r);

  private constructor(
    private readonly opts: ListenOptions,
    first: Deno.HttpServer<Deno.NetAddr>,
    readonly hostname: string,
    readonly port: number,
  ) {
    this.current = first;
  }

  /** Whether clients must speak HTTPS. */
  get secure(): boolean {
    return this.opts.tls !== null;
  }

  /** Binds (port 0 picks one) and resolves once listening. */
  static async open(opts: ListenOptions): Promise<Listener> {
    const [server, addr] = await serve(opts, opts.port, opts.tls);
    return new Listener(opts, server, addr.hostname, addr.port);
  }

  /** Serves new connections with another certificate; the old server drains and stops. */
  async reload(tls: TlsFiles): Promise<void> {
    if (!this.secure) throw new Error("TLS is not enabled; a reload needs a restart");
    // A certificate or key Deno cannot serve fails here, while the old server still listens.
    Deno.listenTls({ hostname: "127.0.0.1", port: 0, cert: tls.cert, key: tls.key }).close();
    const old = this.current;
    const draining = old.shutdown();
    for (let attempt = 0;; attempt++) {
      try {
        [this.current] = await serve(this.opts, this.port, tls);
        break;
      } catch (e) {
        // the closed listener's port can take a moment to be free again
        if (!(e instanceof Deno.errors.AddrInUse) || attempt >= 50) throw e;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    this.opts.tls = tls;
    await draining;
  }

  /** Stops accepting, waits for in-flight requests of the current server. */
  async shutdown(): Promise<void> {
    await this.current.shutdown();
    this.done();
  }
}

async function serve(
  opts: ListenOptions,
  port: number,
  tls: TlsFiles | null,
): Promise<[Deno.HttpServer<Deno.NetAddr>, Deno.NetAddr]> {
  let resolve!: (a: Deno.NetAddr) => void;
  const listening = new Promise<Deno.NetAddr>((r) => resolve = r);
  const base = {
    hostname: opts.hostname,
    port,
    onListen: (a: Deno.NetAddr) => resolve(a),
    onError: opts.onError,
  };
  const server = tls
    ? Deno.serve({ ...base, cert: tls.cert, key: tls.key }, opts.handler)
    : Deno.serve(base, opts.handler);
  return [server, await listening];
}
