/**
 * Crash safety, at length: `deno run -A scripts/crash.ts [trials=20] [seed=14]` runs SIGKILL trials
 * (see `test/reliability/crash.ts`) and prints per-trial and total counts: acknowledged batches and
 * rows, lost and partial batches (both must be 0), and what skip_wal writes lost within their window.
 */
import { crashTrial, type CrashTrialResult, seededRandom } from "../test/reliability/crash.ts";

const trials = Number(Deno.args[0] ?? 20);
const random = seededRandom(Number(Deno.args[1] ?? 14));
const totals = { acked: 0, rows: 0, lost: 0, partial: 0, unacked: 0, swAcked: 0, swLost: 0, swWindow: 0 };
const results: CrashTrialResult[] = [];
for (let i = 0; i < trials; i++) {
  const r = await crashTrial({ random, runMs: 500 + Math.floor(random() * 4500) });
  results.push(r);
  totals.acked += r.ackedBatches;
  totals.rows += r.ackedRows;
  totals.lost += r.lostBatches.length;
  totals.partial += r.partialBatches.length;
  totals.unacked += r.unackedStored;
  totals.swAcked += r.skipWalAcked;
  totals.swLost += r.skipWalLost;
  totals.swWindow = Math.max(totals.swWindow, r.skipWalLostWindowMs);
  console.log(
    `trial ${i + 1}/${trials}: ran ${r.ranMs} ms, acked ${r.ackedBatches} batches (${r.ackedRows} rows), ` +
      `lost ${r.lostBatches.length}, partial ${r.partialBatches.length}, stored unacked ${r.unackedStored}, ` +
      `skip_wal acked ${r.skipWalAcked} lost ${r.skipWalLost} (window ${r.skipWalLostWindowMs} ms)`,
  );
  for (const b of [...r.lostBatches, ...r.partialBatches]) console.log(`  ${b}`);
}
console.log(
  `total: ${trials} trials, ${totals.acked} acknowledged batches (${totals.rows} rows), ` +
    `${totals.lost} lost, ${totals.partial} partial, ${totals.unacked} stored unacknowledged; ` +
    `skip_wal: ${totals.swAcked} acknowledged, ${totals.swLost} lost, longest lost window ${totals.swWindow} ms`,
);
if (totals.lost > 0 || totals.partial > 0) Deno.exit(1);
