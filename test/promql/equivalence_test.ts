/**
 * Equivalence with a real Prometheus 2.42: the same series go by remote write into Prometheus and
 * into a real Petrel server (metric engine), and into the engine's in-memory queryable; every
 * corpus query is answered by all three at several instants and over ranges (Petrel over HTTP, by
 * GET and by POST form alternately), and the answers must agree. Skips (printing why) when
 * Prometheus is missing.
 */
import assert from "node:assert/strict";
import { PromQLEngine } from "../../src/promql/engine.ts";
import { MemoryQueryable } from "../../src/promql/queryable.ts";
import {
  equivalenceSeries,
  INSTANTS,
  RANGES,
  SUBQUERY_INSTANTS,
  SUBQUERY_RANGES,
  T0,
} from "./equivalence_data.ts";
import { corpus, ERROR_QUERIES, FORMAT_QUERIES } from "./equivalence_queries.ts";
import { parseExpr } from "../../src/promql/parser.ts";
import { prettify } from "../../src/promql/prettify.ts";
import { startTestServer } from "../helpers/server.ts";
import {
  apiQuerySide,
  compareResponses,
  engineSide,
  remoteWrite,
  startPrometheus,
  type When,
} from "./prom_compare.ts";

/** Scalars, strings and samples whose JSON text Prometheus spells its own way. */
const TEXT_QUERIES = [
  "1e21",
  "1.5e-7",
  "-1e-300",
  "-0",
  "0.1 + 0.2",
  "time()",
  "NaN",
  "-Inf",
  '"a string"',
  "vector(1e21)",
  "vector(1.5e-7)",
  'scalar(up{instance="i-0",job="api"}) * 1e-9',
  // Go's JSON escapes <, >, &, U+2028 and U+2029, and writes \b and \f as \u0008 and \u000c
  '"<&>\\u2028\\b\\f\\\\b"',
  'label_replace(vector(1), "a", "<&>\\u2029\\b\\f\\\\b\\\\", "", "")',
];

Deno.test("PromQL answers equal Prometheus 2.42's", async () => {
  const prom = await startPrometheus();
  if (prom === null) return;
  const petrel = await startTestServer();
  try {
    const series = equivalenceSeries();
    await remoteWrite(prom.url, series);
    await remoteWrite(petrel.url, series, "/v1/prometheus/write");
    const viaGet = apiQuerySide(`${petrel.url}/v1/prometheus/api/v1`);
    const viaPost = apiQuerySide(`${petrel.url}/v1/metricsapi/api/v1`, true);
    const loaded = await prom.query('count({__name__=~".+"})', { time: T0 + 30 * 60_000 });
    // Every series but late_series (which starts later) has a sample in the lookback at T0+30m.
    assert.equal(
      (loaded.data?.result as { value: [number, string] }[])[0]?.value[1],
      String(series.length - 1),
    );
    const ours = engineSide(new PromQLEngine(new MemoryQueryable(series)));
    const queries = corpus();
    const mismatches: string[] = [];
    let comparisons = 0, nonEmpty = 0, http = 0;
    for (const q of queries) {
      const isSubquery = /\[[^\]]*:[^\]]*\]/.test(q);
      const instants = isSubquery ? SUBQUERY_INSTANTS : INSTANTS;
      const ranges = isSubquery ? SUBQUERY_RANGES : RANGES;
      const whens: When[] = [...instants.map((time) => ({ time })), ...ranges];
      for (const when of whens) {
        const overHttp = http++ % 2 === 0 ? viaGet : viaPost;
        const [p, o, h] = await Promise.all([prom.query(q, when), ours(q, when), overHttp(q, when)]);
        comparisons++;
        const httpDiff = compareResponses(p, h, "time" in when && /^sort/.test(q));
        if (httpDiff !== null) {
          mismatches.push(`[Petrel over HTTP] ${q} @ ${JSON.stringify(when)}: ${httpDiff}`);
        }
        if (
          p.status === "success" && Array.isArray(p.data?.result) && (p.data.result as unknown[]).length > 0
        ) nonEmpty++;
        const ordered = "time" in when && /^sort/.test(q);
        const diff = compareResponses(p, o, ordered);
        if (diff !== null) mismatches.push(`${q} @ ${JSON.stringify(when)}: ${diff}`);
      }
    }
    let formatted = 0;
    for (const q of [...queries, ...FORMAT_QUERIES]) {
      const qs = new URLSearchParams({ query: q });
      const res = await fetch(`${prom.url}/api/v1/format_query?${qs}`);
      const text = await res.text();
      const body = JSON.parse(text) as { data: string };
      const ourText = await (await fetch(`${petrel.url}/v1/prometheus/api/v1/format_query?${qs}`)).text();
      if (ourText !== text) mismatches.push(`[Petrel over HTTP] format_query ${q}:\n${text}\nvs\n${ourText}`);
      formatted++;
      const mine = prettify(parseExpr(q));
      if (mine !== body.data) mismatches.push(`format_query ${q}:\n${body.data}\nvs\n${mine}`);
    }
    for (const q of ERROR_QUERIES) {
      const when = { time: T0 + 30 * 60_000 };
      const [p, o, h] = await Promise.all([prom.query(q, when), ours(q, when), viaGet(q, when)]);
      comparisons++;
      const diff = compareResponses(p, o, false);
      if (diff !== null) mismatches.push(`${q}: ${diff}`);
      // Over HTTP the error text must be Prometheus' whole message, prefix included.
      if (h.error !== p.error || h.errorType !== p.errorType) {
        mismatches.push(`[Petrel over HTTP] ${q}: ${h.errorType} ${h.error} vs ${p.errorType} ${p.error}`);
      }
    }
    // The exact text where the values above compare as numbers: Prometheus prints scalars and strings
    // with Go's encoding/json and FormatFloat 'f' (1700001000.5, "0.00000015"), samples otherwise.
    for (const q of TEXT_QUERIES) {
      const qs = new URLSearchParams({ query: q, time: String(T0 / 1000 + 1800.5) });
      const want = await (await fetch(`${prom.url}/api/v1/query?${qs}`)).text();
      const got = await (await fetch(`${petrel.url}/v1/prometheus/api/v1/query?${qs}`)).text();
      const data = (text: string) => text.slice(text.indexOf('"data":'), text.lastIndexOf("}"));
      if (data(got) !== data(want)) mismatches.push(`[Petrel over HTTP] text of ${q}:\n${want}\nvs\n${got}`);
    }
    console.log(
      `equivalence: ${queries.length} queries + ${ERROR_QUERIES.length} error queries, ${comparisons} comparisons ` +
        `(each against the engine and against Petrel over HTTP) ` +
        `(${nonEmpty} non-empty), ${formatted} format_query, ${mismatches.length} mismatches`,
    );
    assert.deepEqual(mismatches, []);
  } finally {
    await petrel.stop();
    await prom.stop();
  }
});
