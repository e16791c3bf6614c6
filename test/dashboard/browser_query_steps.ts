/** Browser steps on the query editor: SQL results, verbatim errors, 100k rows, PromQL charts. */
import assert from "node:assert/strict";
import { cellTexts, runQuery, screenshot, type Step } from "./browser.ts";

/** The query editor's steps, in order. */
export const QUERY_STEPS: Step[] = [
  {
    name: "SQL query: results as a table, kept in history",
    run: async ({ page, s }) => {
      await page.goto(`${s.url}/dashboard`);
      assert.equal(new URL(page.url()).pathname, "/dashboard/", "redirected");
      await runQuery(page, "SELECT host, level, message FROM app_logs ORDER BY ts");
      assert.equal(await page.textContent("#query-results .summary"), "3 rows");
      const header = await page.$$eval(
        "#query-results .grid-head .grid-cell",
        (c) => c.map((x) => x.textContent),
      );
      assert.deepEqual(header, ["#", "host", "level", "message"]);
      assert.deepEqual((await cellTexts(page, "#query-results"))[1], [
        "web-2",
        "WARN",
        "upstream timeout after 5 s",
      ]);
      await screenshot(page, "dashboard-query");
      await page.reload();
      await page.waitForSelector("#query-history li");
      assert.match(
        await page.textContent("#query-history li") ?? "",
        /SELECT host, level, message FROM app_logs/,
      );
    },
  },
  {
    name: "a server error is shown verbatim",
    run: async ({ page }) => {
      await runQuery(page, "SELECT * FROM no_such_table");
      assert.equal(await page.getAttribute("#query-results .error", "data-status"), "400");
      assert.equal(
        await page.textContent("#query-results .error-message"),
        "Table not found: greptime.public.no_such_table",
      );
      assert.match(
        await page.textContent("#query-results .error-body") ?? "",
        /^\{"code":4001,"error":"Table not found/,
      );
    },
  },
  {
    name: "100k rows: the grid keeps few rows in the DOM and scrolls to the last",
    run: async ({ page }) => {
      const begin = performance.now();
      await runQuery(
        page,
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) SELECT x, 'row ' || x AS label FROM c",
      );
      assert.equal(await page.textContent("#query-results .summary"), "100000 rows");
      console.log(`  100k-row result shown in ${Math.round(performance.now() - begin)} ms`);
      const inDom = await page.$$eval("#query-results .grid-body .grid-row", (r) => r.length);
      assert.ok(inDom > 10 && inDom < 200, `only the rows in view are in the DOM (${inDom})`);
      await page.$eval("#query-results .grid", (g) => g.scrollTop = g.scrollHeight);
      await page.waitForSelector('#query-results .grid-row[data-index="99999"]');
      const last = await page.$eval('#query-results .grid-row[data-index="99999"]', (r) => r.textContent);
      assert.equal(last, "100000100000row 100000");
    },
  },
  {
    name: "PromQL range query: a line chart",
    run: async ({ page }) => {
      await page.selectOption("#query-lang", "promql");
      await runQuery(page, "vector(1)");
      await page.waitForSelector("#query-results .chart canvas");
      assert.equal(await page.getAttribute("#query-results .chart", "data-series"), "1");
      await screenshot(page, "dashboard-promql");
      await page.selectOption("#query-lang", "sql");
    },
  },
  {
    name: "the chart draws a Prometheus HTTP API answer (the documented shape, served by the test)",
    run: async ({ page }) => {
      // Checks the dashboard against the API contract whatever the engine's state; the step above
      // checks it against Petrel's own engine once that lands.
      const now = Math.floor(Date.now() / 1000);
      const values = (f: (i: number) => string) =>
        Array.from({ length: 20 }, (_, i) => [now - 300 + i * 15, f(i)]);
      const answer = {
        status: "success",
        data: {
          resultType: "matrix",
          result: [
            { metric: { __name__: "up", job: "petrel", instance: "a:4000" }, values: values(() => "1") },
            {
              metric: { __name__: "up", job: "petrel", instance: "b:4000" },
              values: values((i) => i < 10 ? "0" : "NaN"),
            },
          ],
        },
      };
      await page.route("**/v1/prometheus/api/v1/query_range*", async (route) => {
        const form = new URLSearchParams(route.request().postData() ?? "");
        assert.equal(route.request().method(), "POST");
        assert.equal(form.get("query"), "up");
        assert.equal(
          Number(form.get("end")) - Number(form.get("start")),
          3600,
          "the default range is an hour",
        );
        assert.equal(form.get("step"), "15");
        await route.fulfill({ json: answer });
      });
      try {
        await page.selectOption("#query-lang", "promql");
        await runQuery(page, "up");
        await page.waitForSelector("#query-results .chart canvas");
        assert.equal(await page.getAttribute("#query-results .chart", "data-series"), "2");
        assert.equal(await page.getAttribute("#query-results .chart", "data-points"), "20");
        const legend = await page.$$eval(
          "#query-results .u-legend .u-series",
          (r) => r.map((x) => x.textContent),
        );
        assert.ok(
          legend.some((l) => l?.includes('up{instance="b:4000", job="petrel"}')),
          legend.join(" | "),
        );
        await screenshot(page, "dashboard-chart");
      } finally {
        await page.unroute("**/v1/prometheus/api/v1/query_range*");
        await page.selectOption("#query-lang", "sql");
      }
    },
  },
];
