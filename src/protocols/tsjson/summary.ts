/** The body of a JSON put answered with `?summary` or `?details`, as OpenTSDB and GreptimeDB shape it. */
import type { TsJsonPoint } from "./parser.ts";

/** A float as serde_json prints it: integral values keep `.0`, exponents have no `+`. */
function formatF64(v: number): string {
  const abs = Math.abs(v);
  if (abs !== 0 && (abs >= 1e16 || abs < 1e-5)) return v.toExponential().replace("e+", "e");
  return Number.isInteger(v) ? `${v}.0` : String(v);
}

/**
 * The 200 body of a put with `?summary`/`?details`: `errors[i]` is the failure of `points[i]` or null.
 * With `details` the failed points are echoed as `{"datapoint":{…},"error":"…"}`.
 */
export function tsjsonPutSummary(points: TsJsonPoint[], errors: (string | null)[], details: boolean): string {
  let failed = 0;
  const shown: string[] = [];
  for (let i = 0; i < points.length; i++) {
    const err = errors[i];
    if (err === null || err === undefined) continue;
    failed++;
    if (details) {
      const p = points[i];
      shown.push(
        `{"datapoint":{"metric":${JSON.stringify(p.metric)},"timestamp":${p.timestamp},"value":${
          formatF64(p.value)
        },"tags":${JSON.stringify(p.tags)}},"error":${JSON.stringify(err)}}`,
      );
    }
  }
  const head = `{"success":${points.length - failed},"failed":${failed}`;
  return details ? `${head},"errors":[${shown.join(",")}]}` : `${head}}`;
}
