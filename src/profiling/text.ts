/**
 * The `text` output: a summary line and two top-N tables, by self (flat) and by total (cum) value,
 * in the columns of `pprof -top`.
 */
import { defaultValueIndex, formatValue, type Frame, frameLabel, type StackProfile } from "./model.ts";

interface Row {
  label: string;
  flat: number;
  cum: number;
}

/** Per-function flat and cumulative values (a function counts once per stack, even if recursive). */
export function functionTotals(p: StackProfile, valueIndex: number): Row[] {
  const rows = new Map<string, Row>();
  const row = (f: Frame) => {
    const label = frameLabel(f);
    let r = rows.get(label);
    if (!r) rows.set(label, r = { label, flat: 0, cum: 0 });
    return r;
  };
  for (const s of p.samples) {
    const v = s.values[valueIndex] ?? 0;
    if (v === 0 || s.stack.length === 0) continue;
    row(s.stack[s.stack.length - 1]).flat += v;
    const seen = new Set<string>();
    for (const f of s.stack) {
      const r = row(f);
      if (seen.has(r.label)) continue;
      seen.add(r.label);
      r.cum += v;
    }
  }
  return [...rows.values()];
}

function pct(v: number, total: number): string {
  return total === 0 ? "0.00%" : `${((v / total) * 100).toFixed(2)}%`;
}

function table(rows: Row[], total: number, unit: string): string[] {
  const lines = [
    `${"flat".padStart(12)} ${"flat%".padStart(7)} ${"sum%".padStart(7)} ` +
    `${"cum".padStart(12)} ${"cum%".padStart(7)}  function`,
  ];
  let sum = 0;
  for (const r of rows) {
    sum += r.flat;
    lines.push(
      `${formatValue(r.flat, unit).padStart(12)} ${pct(r.flat, total).padStart(7)} ${
        pct(sum, total).padStart(7)
      } ${formatValue(r.cum, unit).padStart(12)} ${pct(r.cum, total).padStart(7)}  ${r.label}`,
    );
  }
  return lines;
}

/** Renders the text report of a profile for its default value column, `top` rows per table. */
export function renderText(p: StackProfile, title: string, top = 40): string {
  const vi = defaultValueIndex(p);
  const type = p.sampleTypes[vi];
  const rows = functionTotals(p, vi);
  const total = p.samples.reduce((s, x) => s + (x.values[vi] ?? 0), 0);
  const samples = p.samples.reduce((s, x) => s + (x.values[0] ?? 0), 0);
  const bySelf = [...rows].sort((a, b) => b.flat - a.flat || b.cum - a.cum || a.label.localeCompare(b.label));
  const byTotal = [...rows].sort((a, b) =>
    b.cum - a.cum || b.flat - a.flat || a.label.localeCompare(b.label)
  );
  const head = [
    title,
    `Type: ${type.type} (${type.unit})`,
    `Duration: ${formatValue(p.durationNanos, "nanoseconds")}, ` +
    `${p.sampleTypes[0].type}: ${formatValue(samples, p.sampleTypes[0].unit)}, ` +
    `total ${type.type}: ${formatValue(total, type.unit)}`,
  ];
  return [
    ...head,
    "",
    `Top ${Math.min(top, bySelf.length)} by self (flat) ${type.type}:`,
    ...table(bySelf.slice(0, top), total, type.unit),
    "",
    `Top ${Math.min(top, byTotal.length)} by total (cum) ${type.type}:`,
    ...table(byTotal.slice(0, top), total, type.unit),
    "",
  ].join("\n");
}
