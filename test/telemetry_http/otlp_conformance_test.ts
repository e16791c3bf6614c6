/**
 * OTLP/HTTP against GreptimeDB's data model (reference §6.11, §7.3–§7.5), for the cases an audit
 * found differing: each case sends real protobuf bodies and reads the tables back through SQL.
 */
import assert from "node:assert/strict";
import { encode, types } from "../protocols/otlp/proto_oracle.ts";
import { post, sqlRows, withServer } from "../protocols_http/util.ts";

const PB = { "content-type": "application/x-protobuf" };
const T0 = "1700000000000000000";

const str = (key: string, v: string) => ({ key, value: { stringValue: v } });

function sum(name: string, unit: string, attributes: unknown[]): Uint8Array {
  return encode(types.metrics, {
    resourceMetrics: [{
      resource: { attributes: [str("service.name", "shop"), str("service.instance.id", "i-1")] },
      scopeMetrics: [{
        scope: { name: "lib" },
        metrics: [{
          name,
          unit,
          sum: {
            isMonotonic: true,
            aggregationTemporality: 2,
            dataPoints: [{ timeUnixNano: T0, asInt: "3", attributes }],
          },
        }],
      }],
    }],
  });
}

Deno.test("OTLP metrics: NoTranslation and NoUTF8EscapingWithSuffixes keep dotted names as columns", async () => {
  await withServer(async (s) => {
    const cases: [string, string, string][] = [
      ["NoTranslation", "otel.strategy.duration", "otel.strategy.duration"],
      ["NoUTF8EscapingWithSuffixes", "otel.utf8", "otel.utf8_seconds_total"],
    ];
    for (const [strategy, metric, table] of cases) {
      const r = await post(s.url + "/v1/otlp/v1/metrics", sum(metric, "s", [str("http.route", "/a")]), {
        ...PB,
        "x-greptime-otlp-metric-translation-strategy": strategy,
      });
      assert.equal(r.status, 200, `${strategy}: ${r.text}`);
      const cols = await sqlRows(s.url, `DESC TABLE "${table}"`);
      assert.deepEqual(cols.map((c) => c[0]), [
        "greptime_timestamp",
        "greptime_value",
        "http.route",
        "instance",
        "job",
        "service.instance.id",
        "service.name",
      ]);
      assert.deepEqual(await sqlRows(s.url, `SELECT "http.route", job, "service.name" FROM "${table}"`), [
        ["/a", "shop", "shop"],
      ]);
    }
  });
});
