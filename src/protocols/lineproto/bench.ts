/**
 * The line-protocol parser's benchmark (no HTTP, no storage), so a regression in the parser shows up
 * apart from the rest of the write path. Run: `deno run -A src/protocols/lineproto/bench.ts`.
 */

import { parseLineProtocol } from "./parser.ts";

/** Line-protocol text shaped like the reference load (3 tags, 3 float + 1 int field per line). */
export function lineProtocolBody(rows: number, series: number, startRow = 0): string {
  const parts: string[] = [];
  const base = 1700000000000000000n;
  for (let i = startRow; i < startRow + rows; i++) {
    const h = i % series, t = Math.floor(i / series);
    parts.push(
      `cpu,host=host_${h},region=r${h % 10},dc=dc${h % 3} usage_user=${(i % 997) / 10},` +
        `usage_system=${(i % 113) / 7},usage_idle=${(i % 71) * 1.25},procs=${i % 300}i ` +
        `${base + BigInt(t) * 10000000000n}\n`,
    );
  }
  return parts.join("");
}

/** Rows per second of `parseLineProtocol` alone, over bodies of 5000 lines (the usual batch). */
export function benchLineProtocol(rows = 1_000_000, series = 10_000): number {
  const batch = 5000;
  const bodies: string[] = [];
  for (let i = 0; i < rows; i += batch) bodies.push(lineProtocolBody(Math.min(batch, rows - i), series, i));
  parseLineProtocol(bodies[0], "ns", 0n); // warm-up
  const t0 = performance.now();
  let n = 0;
  for (const b of bodies) n += parseLineProtocol(b, "ns", 0n)[0].rows.length;
  const seconds = (performance.now() - t0) / 1000;
  if (n !== rows) throw new Error(`parsed ${n} rows of ${rows}`);
  return Math.round(rows / seconds);
}

if (import.meta.main) {
  console.log(JSON.stringify({ lineProtocolRowsPerSec: benchLineProtocol() }));
}
