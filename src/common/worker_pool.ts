/**
 * The worker threads Petrel keeps (query workers, the line-protocol parse worker, the checkpoint
 * worker), run one way: started lazily, stopped after `idleMs` without work, never keeping the
 * process alive (`node:worker_threads` threads are unref'd; Deno's web workers cannot be, which is
 * why idle ones stop), and a thread that fails marks the pool broken, so its owner does the work on
 * its own thread from then on. A failure of a thread the pool already stopped is not held against it.
 *
 * Requests are `{id, …}` messages answered by `{id, …}` replies; a thread may hold up to `perThread`
 * requests at once (1 for queries, many for the pipelined parse worker). A thread may announce it has
 * loaded with `{id: 0, ready: true}`; `ready` tells owners that would rather not wait for a start.
 *
 * A pool may keep `reserved` threads for requests its owner marks `quick` (expected to finish soon):
 * other requests hold at most `maxThreads - reserved` at once, so a quick one never waits behind a row
 * of long ones. Waiting requests are served first come, first served among those that may run.
 */
import { Worker as NodeWorker } from "node:worker_threads";
import { Logger } from "./log.ts";

const log = new Logger("petrel::worker");

/**
 * The global under which the release file (`deno task release`, one bundled file) puts each worker's
 * bundled module as a `data:` URL keyed by pool name: a bundle has no worker files beside it.
 */
export const EMBEDDED_WORKERS_KEY = "__petrelEmbeddedWorkers";

/** The module a pool's threads run: the embedded one in a release file, else `opts.url`. */
function workerUrl(opts: WorkerPoolOptions): URL {
  const embedded = (globalThis as Record<string, unknown>)[EMBEDDED_WORKERS_KEY] as
    | Record<string, string>
    | undefined;
  const url = embedded?.[opts.name];
  return url === undefined ? opts.url : new URL(url);
}

/** A thread failed or stopped while holding the request: the owner does the work itself instead. */
export class WorkerUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorkerUnavailable";
  }
}

/** How a pool's threads run. */
export interface WorkerPoolOptions {
  /** Named in logs, e.g. `query`. */
  name: string;
  url: URL;
  /** `node` threads can be unref'd; `web` workers are Deno's (shared memory, transfers). */
  runtime: "web" | "node";
  maxThreads: number;
  /** Requests one thread holds at once. */
  perThread: number;
  idleMs: number;
  /**
   * How long the last thread stays without work (default `idleMs`): a dashboard refreshing every
   * minute should not pay a thread start (0.1–0.3 s, more under load) on every refresh.
   */
  warmMs?: number;
  /**
   * Threads only `quick` requests may take (default 0): the others hold at most `maxThreads - reserved`
   * requests at once. Meant for `perThread: 1`.
   */
  reserved?: number;
  /** Called for each thread started (e.g. to reset state mirrored from the thread). */
  onStart?: () => void;
  /** Called for each thread stopped, whatever the reason (idle, failure, `stop`). */
  onStop?: () => void;
}

/**
 * The shape of a pool of read threads (SQL queries, PromQL): two threads for any request, a third
 * only for quick ones, one request a thread; a spare thread stops after 5 s, the last after 5 min.
 */
export const READ_POOL = {
  runtime: "web",
  maxThreads: 3,
  reserved: 1,
  perThread: 1,
  idleMs: 5_000,
  warmMs: 300_000,
} as const satisfies Partial<WorkerPoolOptions>;

interface Pending {
  quick: boolean;
  resolve(reply: unknown): void;
  reject(e: unknown): void;
}

/** What a request may say of itself. */
export interface RequestOptions {
  signal?: AbortSignal;
  transfer?: Transferable[];
  /** Expected to finish soon: it may take the pool's reserved threads too. */
  quick?: boolean;
}

interface Waiter {
  quick: boolean;
  wake(): void;
}

interface Thread {
  post(message: unknown, transfer?: Transferable[]): void;
  terminate(): void;
  pending: Map<number, Pending>;
  ready: boolean;
  stopped: boolean;
}

/** A pool of worker threads answering `{id}` requests. */
export class WorkerPool<Request extends object, Reply = unknown> {
  private readonly threads: Thread[] = [];
  private nextId = 1;
  private lastActive = 0;
  private idleTimer: ReturnType<typeof setInterval> | undefined;
  private failed = false;

  constructor(private readonly opts: WorkerPoolOptions) {}

  /** True once a thread failed: the owner works on its own thread from then on. */
  get broken(): boolean {
    return this.failed;
  }

  /** Whether a started thread has announced it is loaded. */
  get ready(): boolean {
    return this.threads.some((t) => t.ready);
  }

  /** Whether any thread holds a request not yet answered. */
  get busy(): boolean {
    return this.threads.some((t) => t.pending.size > 0);
  }

  /**
   * Sends a request to a thread with room (starting one if allowed, else waiting for one) and
   * resolves with its reply. Rejects with {@link WorkerUnavailable} when threads are unavailable or
   * its thread fails; aborting `signal` rejects with the signal's reason (terminating the thread if
   * the request was running). A `quick` request may also take the pool's reserved threads.
   */
  async request(req: Request, opts: RequestOptions = {}): Promise<Reply> {
    const quick = opts.quick === true;
    let thread = this.threadWithRoom(quick);
    for (let again = false; thread === null; again = true) {
      if (this.failed) throw new WorkerUnavailable(`${this.opts.name} worker unavailable`);
      await this.roomFreed(quick, again, opts.signal);
      thread = this.threadWithRoom(quick);
    }
    return await this.send(thread, req, quick, opts);
  }

  private send(thread: Thread, req: Request, quick: boolean, opts: RequestOptions): Promise<Reply> {
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      const onAbort = () => {
        thread.pending.delete(id);
        this.retire(thread);
        reject(opts.signal!.reason);
      };
      const done = () => opts.signal?.removeEventListener("abort", onAbort);
      thread.pending.set(id, {
        quick,
        resolve: (r) => (done(), resolve(r as Reply)),
        reject: (e) => (done(), reject(e)),
      });
      if (opts.signal?.aborted) return onAbort();
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      thread.post({ ...req, id }, opts.transfer);
    });
  }

  /** Sends a message that expects no reply to the (first) thread, starting it if needed. */
  post(message: unknown): boolean {
    const thread = this.threads[0] ?? this.start();
    if (thread === null) return false;
    this.lastActive = performance.now();
    thread.post(message);
    return true;
  }

  /** Starts a thread now if none runs (e.g. to let it load before it is needed). */
  warm(): void {
    if (this.threads.length === 0) this.start();
  }

  /**
   * Stops every thread; requests they held are rejected with {@link WorkerUnavailable}. `farewell`
   * runs first for each thread, e.g. to let it close its files.
   */
  stop(farewell?: (post: (message: unknown) => void) => void): void {
    if (this.idleTimer !== undefined) clearInterval(this.idleTimer);
    this.idleTimer = undefined;
    for (const t of [...this.threads]) {
      try {
        farewell?.((m) => t.post(m));
      } finally {
        this.retire(t);
      }
    }
  }

  /** Marks the pool broken and stops it (the owner decided its threads cannot be trusted). */
  fail(reason: string): void {
    if (!this.failed) {
      log.error(`${this.opts.name} worker failed; working without it from now on`, { reason });
    }
    this.failed = true;
    this.stop();
    this.wake(true);
  }

  /** For tests: lets the pool start threads again after a failure. */
  revive(): void {
    this.failed = false;
  }

  private readonly waiters: Waiter[] = [];

  /**
   * Resolves when room this request may take is freed (or the pool fails); rejects when `signal`
   * aborts first. A request woken but beaten to the room waits again at the front (`again`).
   */
  private roomFreed(quick: boolean, again: boolean, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        quick,
        wake: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        reject(signal!.reason);
      };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      if (again) this.waiters.unshift(waiter);
      else this.waiters.push(waiter);
    });
  }

  /** Wakes every waiter (`all`), or the first that may take the room now there. */
  private wake(all = false): void {
    if (all) {
      for (const w of this.waiters.splice(0, this.waiters.length)) w.wake();
      return;
    }
    const at = this.waiters.findIndex((w) => this.mayRun(w.quick));
    if (at >= 0) this.waiters.splice(at, 1)[0].wake();
  }

  /** Requests not `quick` held now (they may hold `maxThreads - reserved`). */
  private heldByOthers(): number {
    let n = 0;
    for (const t of this.threads) for (const p of t.pending.values()) if (!p.quick) n++;
    return n;
  }

  /** Whether a request would find room now (without starting anything). */
  private mayRun(quick: boolean): boolean {
    const reserved = this.opts.reserved ?? 0;
    if (!quick && reserved > 0 && this.heldByOthers() >= this.opts.maxThreads - reserved) return false;
    return this.threads.length < this.opts.maxThreads ||
      this.threads.some((t) => t.pending.size < this.opts.perThread);
  }

  private threadWithRoom(quick: boolean): Thread | null {
    if (this.failed) return null;
    this.lastActive = performance.now();
    if (!this.mayRun(quick)) return null;
    const free = this.threads.find((t) => t.pending.size < this.opts.perThread);
    if (free !== undefined) return free;
    return this.threads.length < this.opts.maxThreads ? this.start() : null;
  }

  private start(): Thread | null {
    if (this.failed) return null;
    let thread: Thread;
    try {
      thread = this.opts.runtime === "web" ? this.startWeb() : this.startNode();
    } catch (e) {
      // e.g. a compiled binary built without `--include` of the worker module
      this.fail(`cannot start: ${(e as Error)?.message ?? e}`);
      return null;
    }
    this.threads.push(thread);
    this.opts.onStart?.();
    this.armIdleTimer();
    return thread;
  }

  private startWeb(): Thread {
    const w = new Worker(workerUrl(this.opts).href, { type: "module" });
    const thread = this.thread((m, t) => w.postMessage(m, t ?? []), () => w.terminate());
    w.onmessage = (e: MessageEvent) => this.onReply(thread, e.data);
    w.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      this.onThreadError(thread, e.message);
    };
    w.onmessageerror = () => this.onThreadError(thread, "a message could not be read");
    return thread;
  }

  private startNode(): Thread {
    const w = new NodeWorker(workerUrl(this.opts));
    w.unref();
    const thread = this.thread(
      (m, t) => w.postMessage(m, t as never),
      () => void w.terminate(),
    );
    w.on("message", (m: unknown) => this.onReply(thread, m));
    w.on("error", (e: Error) => this.onThreadError(thread, e.message));
    return thread;
  }

  private thread(post: Thread["post"], terminate: () => void): Thread {
    return { post, terminate, pending: new Map(), ready: false, stopped: false };
  }

  private onReply(thread: Thread, data: unknown): void {
    if (thread.stopped || typeof data !== "object" || data === null) return;
    const { id, ready } = data as { id?: number; ready?: boolean };
    if (id === 0 && ready) {
      thread.ready = true;
      return;
    }
    const p = id === undefined ? undefined : thread.pending.get(id);
    if (p === undefined) return;
    thread.pending.delete(id!);
    this.lastActive = performance.now();
    p.resolve(data);
    this.wake();
  }

  private onThreadError(thread: Thread, message: string): void {
    // A thread already stopped (idle, cancelled, the storage closing) is no longer ours to judge.
    if (thread.stopped) return;
    thread.terminate();
    this.fail(message);
  }

  /** Terminates a thread; requests it still held are rejected with WorkerUnavailable. */
  private retire(thread: Thread): void {
    if (thread.stopped) return;
    thread.stopped = true;
    thread.ready = false;
    thread.terminate();
    const at = this.threads.indexOf(thread);
    if (at >= 0) this.threads.splice(at, 1);
    const left = [...thread.pending.values()];
    thread.pending.clear();
    for (const p of left) p.reject(new WorkerUnavailable(`${this.opts.name} worker stopped`));
    this.opts.onStop?.();
    this.wake(this.failed);
  }

  private armIdleTimer(): void {
    if (this.idleTimer !== undefined) return;
    const timer = setInterval(() => {
      for (const t of [...this.threads]) {
        const limit = this.threads.length === 1 ? this.opts.warmMs ?? this.opts.idleMs : this.opts.idleMs;
        if (t.pending.size === 0 && performance.now() - this.lastActive >= limit) this.retire(t);
      }
      if (this.threads.length === 0) {
        clearInterval(timer);
        this.idleTimer = undefined;
      }
    }, Math.max(10, this.opts.idleMs / 4));
    Deno.unrefTimer(timer);
    this.idleTimer = timer;
  }
}
