/**
 * Structured logging: one JSON object per line on stderr, filtered by a directive list in the
 * `tracing` style GreptimeDB uses (`info`, or `info,petrel::http=debug`). The filter can be changed
 * at run time (`POST /debug/log_level`).
 */

/** Log levels, most severe first. */
export const LEVELS = ["off", "error", "warn", "info", "debug", "trace"] as const;
export type Level = (typeof LEVELS)[number];

interface Directive {
  target: string;
  level: number;
}

/** A parsed filter: a default level plus per-target levels (longest target prefix wins). */
export class LogFilter {
  readonly text: string;
  private readonly directives: Directive[];
  private readonly defaultLevel: number;

  private constructor(text: string, directives: Directive[], defaultLevel: number) {
    this.text = text;
    this.directives = directives.sort((a, b) => b.target.length - a.target.length);
    this.defaultLevel = defaultLevel;
  }

  /** Parses `info` or `warn,petrel::http=debug`; throws an Error describing the first bad directive. */
  static parse(text: string): LogFilter {
    const directives: Directive[] = [];
    let defaultLevel = LEVELS.indexOf("error");
    const trimmed = text.trim();
    if (trimmed === "") throw new Error("empty filter");
    for (const part of trimmed.split(",")) {
      const item = part.trim();
      if (item === "") continue;
      const eq = item.indexOf("=");
      if (eq < 0) {
        const level = levelIndex(item);
        // A bare word must be a level: `tracing` would read `loud` as a target, which hides typos.
        if (level < 0) throw new Error(`invalid level "${item}" (expected one of ${LEVELS.join(", ")})`);
        defaultLevel = level;
      } else {
        const target = item.slice(0, eq).trim();
        const level = levelIndex(item.slice(eq + 1).trim());
        if (!/^[A-Za-z_][\w:]*$/.test(target)) throw new Error(`invalid target "${target}"`);
        if (level < 0) throw new Error(`invalid level "${item.slice(eq + 1).trim()}" for target "${target}"`);
        directives.push({ target, level });
      }
    }
    return new LogFilter(trimmed, directives, defaultLevel);
  }

  /** Whether a record of `level` from `target` passes the filter. */
  enabled(target: string, level: Level): boolean {
    const want = LEVELS.indexOf(level);
    for (const d of this.directives) {
      if (target === d.target || target.startsWith(d.target + "::")) return want <= d.level;
    }
    return want <= this.defaultLevel;
  }
}

function levelIndex(name: string): number {
  const lower = name.toLowerCase();
  return lower === "warning" ? 2 : LEVELS.indexOf(lower as Level);
}

let filter = LogFilter.parse("info");
let sink: (line: string) => void = (line) => console.error(line);

/** Replaces where log lines go (stderr by default) and returns the previous sink; for tests. */
export function setLogSink(next: (line: string) => void): (line: string) => void {
  const old = sink;
  sink = next;
  return old;
}

/** Replaces the active filter and returns the previous one's text. */
export function setLogFilter(next: LogFilter): string {
  const old = filter.text;
  filter = next;
  return old;
}

/** A logger bound to a target such as `petrel::http`. */
export class Logger {
  constructor(readonly target: string) {}

  /** Logs at `level` when enabled; fields are merged into the JSON record. */
  log(level: Level, msg: string, fields: Record<string, unknown> = {}): void {
    if (!filter.enabled(this.target, level)) return;
    sink(JSON.stringify({ ts: new Date().toISOString(), level, target: this.target, msg, ...fields }));
  }
  error(msg: string, fields?: Record<string, unknown>): void {
    this.log("error", msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>): void {
    this.log("warn", msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>): void {
    this.log("info", msg, fields);
  }
  debug(msg: string, fields?: Record<string, unknown>): void {
    this.log("debug", msg, fields);
  }
  /** Whether `level` would be written (to skip building costly fields). */
  enabled(level: Level): boolean {
    return filter.enabled(this.target, level);
  }
}
