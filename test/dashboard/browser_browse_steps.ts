/** Browser steps on the other views: tables, logs, traces, pipelines, status. */
import assert from "node:assert/strict";
import { cellTexts, logRows, runSql, screenshot, type Step, TRACE_ID } from "./browser.ts";

/** The browsing views' steps, in order. */
export const BROWSE_STEPS: Step[] = [
  {
    name: "table browser: schema, row count, options and newest rows",
    run: async ({ page, s }) => {
      await page.goto(`${s.url}/dashboard/#/tables/public/app_logs`);
      await page.waitForSelector("#table-title");
      assert.equal(await page.textContent("#table-title"), "public.app_logs");
      assert.equal(await page.textContent("#table-rows"), "3");
      await page.waitForSelector(
        '#tables-tree details[data-db="public"] a:has-text("opentelemetry_traces")',
      );
      const schema = await cellTexts(page, "#table-detail .card:nth-of-type(1)");
      assert.deepEqual(schema.map((r) => r[0]), ["ts", "host", "level", "message"]);
      assert.match(
        await page.textContent("#table-detail pre.ddl") ?? "",
        /CREATE TABLE IF NOT EXISTS "app_logs"/,
      );
      await screenshot(page, "dashboard-tables");
    },
  },
  {
    name: "log view: filter, then follow new rows",
    run: async ({ page, s }) => {
      await page.goto(`${s.url}/dashboard/#/logs/public/app_logs`);
      await logRows(page, 3);
      await page.fill("#logs-filter", "TIMEOUT");
      await logRows(page, 1);
      assert.match((await cellTexts(page, "#logs-results"))[0].join(" "), /upstream timeout after 5 s/);
      await page.check("#logs-follow");
      await runSql(
        s.url,
        "INSERT INTO app_logs VALUES ('2024-05-01T10:00:03Z', 'web-3', 'ERROR', 'db timeout')",
      );
      await logRows(page, 2);
      assert.match((await cellTexts(page, "#logs-results"))[0].join(" "), /db timeout/, "newest first");
      await screenshot(page, "dashboard-logs");
      await page.uncheck("#logs-follow");
    },
  },
  {
    name: "trace view: recent traces, then a span waterfall with details",
    run: async ({ page, s }) => {
      await page.goto(`${s.url}/dashboard/#/traces`);
      await page.waitForSelector(`#traces-results .grid-row:has-text("${TRACE_ID}")`);
      await page.click(`#traces-results .grid-row:has-text("${TRACE_ID}")`);
      await page.waitForSelector("#waterfall .span");
      assert.equal(new URL(page.url()).hash, `#/traces/${TRACE_ID}`);
      const spans = await page.$$eval(
        "#waterfall .span",
        (rows) => rows.map((r) => [r.getAttribute("data-span-id"), r.getAttribute("data-depth")]),
      );
      assert.deepEqual(spans, [["a1", "0"], ["b1", "1"], ["c1", "1"], ["d1", "2"]]);
      assert.equal(
        await page.getAttribute('#waterfall .span[data-span-id="d1"]', "class"),
        "wf-row span span-error",
      );
      await page.click('#waterfall .span[data-span-id="d1"]');
      assert.match(
        await page.textContent("#span-details") ?? "",
        /span_attributes\.db\.statement\s*INSERT INTO payments/,
      );
      await screenshot(page, "dashboard-trace");
    },
  },
  {
    name: "pipelines: dry run the sample lines, report a YAML error verbatim, save",
    run: async ({ page, s }) => {
      await page.goto(`${s.url}/dashboard/#/pipelines`);
      await page.waitForSelector("#pipelines-list li");
      await page.click("#pipeline-dryrun");
      await page.waitForSelector("#pipeline-results .grid");
      assert.equal(await page.textContent("#pipeline-results .summary"), "Table dry_run: 2 rows");
      const rows = await cellTexts(page, "#pipeline-results");
      assert.deepEqual(rows[0].slice(0, 5), ["127.0.0.1", "GET", "/index.html", "alice", "200"]);
      assert.equal(rows[0][5], "2024-10-10 13:55:36.000000000");
      await screenshot(page, "dashboard-pipeline");
      const yaml = await page.inputValue("#pipeline-yaml");
      await page.fill("#pipeline-yaml", "processors: [");
      await page.click("#pipeline-dryrun");
      await page.waitForSelector("#pipeline-results .error");
      assert.match(
        await page.textContent("#pipeline-results .error-message") ?? "",
        /^Failed to build pipeline: /,
      );
      await page.fill("#pipeline-yaml", yaml);
      await page.fill("#pipeline-name", "web_logs");
      await page.click("#pipeline-save");
      await page.waitForSelector('#pipelines-list button:has-text("web_logs")');
    },
  },
  {
    name: "status: health, version and ingest figures",
    run: async ({ page, s }) => {
      await page.goto(`${s.url}/dashboard/#/status`);
      await page.waitForSelector("#status-health");
      assert.equal(await page.textContent("#status-health"), "healthy");
      assert.equal(await page.textContent("#status-version"), s.server.app.build.version);
      await screenshot(page, "dashboard-status");
    },
  },
];
