/**
 * Route modules loaded on the first request that needs them: an edge server that only takes line
 * protocol and SQL never loads the PromQL engine, the pipeline/VRL engine, the OTLP, Loki or
 * Elasticsearch decoders, the profiler or the dashboard, and starts in much less memory.
 */
import type { Ctx } from "./context.ts";

type AnyHandler = (ctx: Ctx) => Response | Promise<Response>;

/** The handlers of a module, each a stand-in that loads the module once, then calls the real one. */
export type LazyHandlers<M> = { [K in keyof M]: M[K] extends AnyHandler ? AnyHandler : never };

/** Wraps `load` (a dynamic `import()`) so each handler named on the result loads the module on first call. */
export function lazyRoutes<M extends object>(load: () => Promise<M>): LazyHandlers<M> {
  let loaded: Promise<M> | undefined;
  const cache = new Map<PropertyKey, AnyHandler>();
  return new Proxy({} as LazyHandlers<M>, {
    get(_target, key) {
      let handler = cache.get(key);
      if (!handler) {
        handler = async (ctx: Ctx) => {
          const mod = (await (loaded ??= load())) as Record<PropertyKey, AnyHandler>;
          return await mod[key](ctx);
        };
        cache.set(key, handler);
      }
      return handler;
    },
  });
}
