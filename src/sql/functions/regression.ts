/**
 * DataFusion's linear regression aggregates `regr_*(y, x)`, over the rows where both values are
 * present. They keep DataFusion's running means and co-moments (Welford's update), so results match
 * its floating point arithmetic rather than a textbook sum of squares.
 */
import type { AggDef, Ret } from "./values.ts";
import { num } from "./values.ts";

interface Regression {
  count: number;
  meanX: number;
  meanY: number;
  /** Sum of squared deviations of x (DataFusion's m2_x), of y, and their co-moment. */
  m2X: number;
  m2Y: number;
  coXY: number;
}

type Stat = (r: Regression) => Ret;

const slope = (r: Regression): number | null => {
  const varX = r.m2X / r.count;
  // one point, or a vertical line: no slope
  return r.count < 2 || varX === 0 ? null : (r.coXY / r.count) / varX;
};

const regression = (name: string, stat: Stat): AggDef => ({
  args: [2, 2],
  start: () => ({ count: 0, meanX: 0, meanY: 0, m2X: 0, m2Y: 0, coXY: 0 }),
  step: (acc, yArg, xArg) => {
    const r = acc as Regression;
    if (typeof yArg === "string" || typeof xArg === "string" || yArg instanceof Uint8Array) {
      throw new Error(`${name} expects numeric arguments`);
    }
    const y = num(yArg), x = num(xArg ?? null);
    if (x === null || y === null) return r;
    r.count++;
    const dx = x - r.meanX, dy = y - r.meanY;
    r.meanX += dx / r.count;
    r.meanY += dy / r.count;
    r.m2X += dx * (x - r.meanX);
    r.m2Y += dy * (y - r.meanY);
    r.coXY += dx * (y - r.meanY);
    return r;
  },
  // a sliding window frame drops its oldest pair: Welford's update run backwards
  inverse: (acc, yArg, xArg) => {
    const r = acc as Regression;
    const y = num(yArg), x = num(xArg ?? null);
    if (x === null || y === null) return r;
    if (--r.count === 0) return Object.assign(r, { meanX: 0, meanY: 0, m2X: 0, m2Y: 0, coXY: 0 });
    const dx = x - r.meanX, dy = y - r.meanY;
    r.meanX -= dx / r.count;
    r.meanY -= dy / r.count;
    r.m2X -= dx * (x - r.meanX);
    r.m2Y -= dy * (y - r.meanY);
    r.coXY -= dy * (x - r.meanX);
    return r;
  },
  result: (acc) => stat(acc as Regression),
});

const ifAny = (f: (r: Regression) => number): Stat => (r) => (r.count === 0 ? null : f(r));

/** The regression aggregates by name; regr_count answers a UInt64, the others Float64. */
export const REGRESSION_AGGREGATES: Record<string, AggDef> = {
  regr_slope: regression("regr_slope", slope),
  regr_intercept: regression("regr_intercept", (r) => {
    const s = slope(r);
    return s === null ? null : r.meanY - s * r.meanX;
  }),
  regr_count: regression("regr_count", (r) => BigInt(r.count)),
  regr_r2: regression("regr_r2", (r) => {
    const varX = r.m2X / r.count, varY = r.m2Y / r.count;
    // DataFusion: no r2 for one point or when all x, or all y, are the same
    if (r.count < 2 || varX === 0 || varY === 0) return null;
    const corr = (r.coXY / r.count) / (Math.sqrt(varX) * Math.sqrt(varY));
    return corr * corr;
  }),
  regr_avgx: regression("regr_avgx", ifAny((r) => r.meanX)),
  regr_avgy: regression("regr_avgy", ifAny((r) => r.meanY)),
  regr_sxx: regression("regr_sxx", ifAny((r) => r.m2X)),
  regr_syy: regression("regr_syy", ifAny((r) => r.m2Y)),
  regr_sxy: regression("regr_sxy", ifAny((r) => r.coXY)),
};
