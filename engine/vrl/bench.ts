/** Throughput benchmark of the VRL engine: a typical 10-statement log program, compiled once, run per event. */

import { compileVrl } from "./program.ts";
import { VrlTimestamp, type VrlValue } from "./value.ts";

/** The benchmarked program: parse_json, parse_timestamp, assignments, a regex, a conditional, a table suffix. */
export const BENCH_PROGRAM = `
. = parse_json!(.message)
.ts = parse_timestamp!(.time, "%Y-%m-%dT%H:%M:%S%.fZ")
.service = downcase(string!(.service))
.level = upcase(string(.level) ?? "info")
m = parse_regex(.msg, r'user=(?P<user>\\w+) status=(?P<status>\\d+)') ?? {}
.user = m.user
if .level == "ERROR" { .is_error = true } else { .is_error = false }
.greptime_table_suffix = "_" + .service
del(.time)
.
`;

function makeEvents(n: number): string[] {
  const levels = ["info", "warn", "error", "debug"];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const ms = 1_700_000_000_000 + i * 7;
    out.push(JSON.stringify({
      time: new Date(ms).toISOString(),
      service: i % 3 ? "Api" : "Web",
      level: levels[i % 4],
      msg: `request done user=u${i % 100} status=${200 + (i % 5)} path=/x/${i}`,
    }));
  }
  return out;
}

/** Runs the benchmark program over `events` generated log events; returns the throughput. */
export function benchVrl(events = 100_000): { eventsPerSec: number } {
  const program = compileVrl(BENCH_PROGRAM);
  const lines = makeEvents(events);
  const inputs: VrlValue[] = lines.map((l) => new Map<string, VrlValue>([["message", l]]));
  // Warm up the JIT on a slice so the measurement reflects steady state.
  for (let i = 0; i < Math.min(2000, events); i++) program.run(new Map([["message", lines[i]]]));
  const start = performance.now();
  let check = 0;
  for (const ev of inputs) {
    const out = program.run(ev);
    if (out instanceof Map && out.get("ts") instanceof VrlTimestamp) check++;
  }
  const secs = (performance.now() - start) / 1000;
  if (check !== events) throw new Error(`benchmark program produced ${check} of ${events} results`);
  return { eventsPerSec: Math.round(events / secs) };
}

if (import.meta.main) console.log(benchVrl());
