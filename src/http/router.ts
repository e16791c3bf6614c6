/**
 * Matches requests against the route table: literal paths through a map, parameterised ones through
 * URLPattern. Every spec path is also served under GreptimeDB's real protocol name (and vice versa).
 */
import type { Feature, HttpHost, Method, Route } from "./context.ts";

/** The spec's neutral path segments and GreptimeDB's real ones. */
const PROTOCOL_ALIASES: Record<string, string> = {
  lineproto: "influxdb",
  metricsapi: "prometheus",
  telemetry: "otlp",
  logpush: "loki",
  tsjson: "opentsdb",
};

/** The other name of a `/v1/<protocol>/…` path, if it has one. */
export function aliasPath(path: string): string | null {
  const m = /^\/v1\/([^/]+)(\/.*)?$/.exec(path);
  if (!m) return null;
  const other = PROTOCOL_ALIASES[m[1]] ??
    Object.entries(PROTOCOL_ALIASES).find(([, real]) => real === m[1])?.[0];
  return other ? `/v1/${other}${m[2] ?? ""}` : null;
}

interface Entry<A extends HttpHost> {
  route: Route<A>;
  methods: Method[];
  pattern?: URLPattern;
}

/** The outcome of a lookup. */
export type Match<A extends HttpHost = HttpHost> =
  /** `path`: the route's path as matched, the alias when the request used it (metrics label by it). */
  | { kind: "found"; route: Route<A>; params: Record<string, string>; path: string }
  | { kind: "method"; allow: string[] }
  | { kind: "none" };

/** A compiled route table. */
export class Router<A extends HttpHost = HttpHost> {
  private readonly literal = new Map<string, Entry<A>[]>();
  private readonly patterns: { path: string; entry: Entry<A> }[] = [];

  constructor(routes: Route<A>[], enabled: (f: Feature) => boolean) {
    for (const route of routes) {
      if (route.feature && !enabled(route.feature)) continue;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const paths = [route.path];
      const alias = aliasPath(route.path);
      if (alias) paths.push(alias);
      for (const path of paths) {
        if (path.includes(":") || path.includes("*")) {
          this.patterns.push({
            path,
            entry: { route, methods, pattern: new URLPattern({ pathname: path }) },
          });
        } else {
          const list = this.literal.get(path) ?? [];
          list.push({ route, methods });
          this.literal.set(path, list);
        }
      }
    }
  }

  /** Finds the route for a method and path; `HEAD` matches `GET` routes. */
  match(method: string, pathname: string): Match<A> {
    const want = method === "HEAD" ? "GET" : method;
    const allow = new Set<string>();
    const literal = this.literal.get(pathname);
    if (literal) {
      for (const e of literal) {
        if ((e.methods as string[]).includes(want)) {
          return { kind: "found", route: e.route, params: {}, path: pathname };
        }
        e.methods.forEach((m) => allow.add(m));
      }
      // A literal path owns its URL: `GET /v1/pipelines/_dryrun` is a 405, not a pipeline named `_dryrun`.
      return methodNotAllowed(allow);
    }
    for (const { path, entry } of this.patterns) {
      const m = entry.pattern!.exec({ pathname });
      if (!m) continue;
      if ((entry.methods as string[]).includes(want)) {
        const params: Record<string, string> = {};
        for (const [k, v] of Object.entries(m.pathname.groups)) {
          if (v !== undefined) params[k] = decodeURIComponent(v);
        }
        return { kind: "found", route: entry.route, params, path };
      }
      entry.methods.forEach((x) => allow.add(x));
    }
    return allow.size > 0 ? methodNotAllowed(allow) : { kind: "none" };
  }
}

function methodNotAllowed<A extends HttpHost>(allow: Set<string>): Match<A> {
  if (allow.has("GET")) allow.add("HEAD");
  return { kind: "method", allow: [...allow].sort() };
}
