/**
 * A CASE or COALESCE whose values are timestamps of different units answers the coarsest
 * (`branch_types.ts`): the finer values are divided to it where they stand, as arrow's cast
 * truncates, so the answer is one unit whichever branch gives it.
 */
import { branchesOf } from "../branch_types.ts";
import { caseEnd } from "../operand_bounds.ts";
import { coarsestUnit, type TimeUnit } from "../../common/time_unit.ts";
import type { OutputContext } from "../output_columns.ts";
import { type LazyRewrite, rescaled, timestampUnit } from "./time_compare.ts";

/** The rescales of the finer values of every CASE and coalescing call that mixes units. */
export function branchUnits(c: OutputContext, emit: (a: number, b: number) => string): LazyRewrite[] {
  const { toks, match } = c.q;
  const out: LazyRewrite[] = [];
  for (let s = 0; s < toks.length; s++) {
    const t = toks[s];
    if (t.kind !== "ident") continue;
    const e = t.text.toUpperCase() === "CASE" ? caseEnd(c.q, s) + 1 : match[s + 1] + 1;
    if (!(e > s + 1)) continue;
    const branches = branchesOf(c.q, s, e) ?? [];
    const units = branches.map((b) => timestampUnit(c, b));
    const known = units.filter((u): u is TimeUnit => u !== undefined);
    if (known.length < 2 || known.every((u) => u === known[0])) continue;
    const unit = coarsestUnit(known);
    branches.forEach((b, i) => {
      const from = units[i];
      if (from && from !== unit) out.push(rescaled(emit, b, from, unit));
    });
  }
  return out;
}
