/**
 * Petrel's speed targets, measured side by side in one run and printed as ratios. Run by hand:
 * `deno task bench` (never part of the tests).
 */

interface Result {
  name: string;
  value: string;
  target: string;
}

const results: Result[] = [];

/** Prints the collected results as a table. */
function report(): void {
  const width = Math.max(...results.map((r) => r.name.length), 10);
  for (const r of results) console.log(`${r.name.padEnd(width)}  ${r.value.padEnd(36)}  target: ${r.target}`);
}

if (import.meta.main) {
  const t0 = performance.now();
  const probe = await fetch("data:,");
  await probe.body?.cancel();
  results.push({ name: "harness", value: `${(performance.now() - t0).toFixed(1)} ms`, target: "-" });
  report();
}
