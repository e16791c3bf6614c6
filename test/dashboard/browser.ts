/**
 * Debian's chromium driven by playwright-core for the dashboard tests: a fresh profile per launch,
 * the flags that keep it off the network, screenshots under test/artifacts/ (git-ignored), and the
 * seed data the tests browse.
 */
import { type BrowserContext, chromium, type Page } from "playwright-core";
import type { TestServer } from "../helpers/server.ts";
import { ensureDebianBinary } from "../helpers/debian.ts";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * How long any wait for the page (a selector, a navigation, the log view's rows) may take before
 * the step fails. Every wait is for a condition, so this bound only ends a wait for a broken page;
 * it is not a speed target: in CI chromium shares two cores with the whole parallel suite.
 */
export const WAIT_MS = 60_000;

/** Where screenshots go. */
export const ARTIFACTS = new URL("../artifacts/", import.meta.url).pathname;

/** A running browser with its own profile directory. */
export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Page errors and console errors seen so far (failed requests excluded: the tests cause some). */
  errors: string[];
  close(): Promise<void>;
}

/** Launches chromium with a fresh `--user-data-dir`, or returns null (after printing why) when it is missing. */
export async function launchChromium(): Promise<Browser | null> {
  const executablePath = await ensureDebianBinary("chromium", "chromium");
  if (executablePath === null) return null;
  const profile = await Deno.makeTempDir({ prefix: "petrel_chromium_" });
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: FLAGS,
    viewport: { width: 1400, height: 900 },
  });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);
  const page = context.pages()[0] ?? await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) {
      errors.push(`console: ${m.text()}`);
    }
  });
  return {
    context,
    page,
    errors,
    close: async () => {
      await context.close();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}

/** Saves a full-page screenshot as test/artifacts/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
}

/** Runs SQL against the server (for seeding), failing loudly. */
export async function runSql(url: string, sql: string, headers: HeadersInit = {}): Promise<unknown> {
  const res = await fetch(`${url}/v1/sql`, { method: "POST", headers, body: new URLSearchParams({ sql }) });
  const body = await res.json();
  if (!res.ok) throw new Error(`seed SQL failed (${res.status}): ${JSON.stringify(body)}\n${sql}`);
  return body;
}

/** The trace the tests open: four spans over two services, one failed. */
export const TRACE_ID = "5b8efff798038103d269b633813fc60c";

/** Creates `app_logs` and an `opentelemetry_traces` table with GreptimeDB's trace schema (reference §7.4). */
export async function seed(url: string, headers: HeadersInit = {}): Promise<void> {
  await runSql(
    url,
    `CREATE TABLE app_logs (ts TIMESTAMP TIME INDEX, host STRING PRIMARY KEY, level STRING, message STRING)`,
    headers,
  );
  await runSql(
    url,
    `INSERT INTO app_logs VALUES ('2024-05-01T10:00:00Z', 'web-1', 'INFO', 'request served in 12 ms'),
      ('2024-05-01T10:00:01Z', 'web-2', 'WARN', 'upstream timeout after 5 s'),
      ('2024-05-01T10:00:02Z', 'web-1', 'INFO', 'cache warmed')`,
    headers,
  );
  await runSql(
    url,
    `CREATE TABLE opentelemetry_traces ("timestamp" TIMESTAMP(9) NOT NULL, "timestamp_end" TIMESTAMP(9) NULL,
      "duration_nano" BIGINT UNSIGNED NULL, "parent_span_id" STRING NULL SKIPPING INDEX,
      "trace_id" STRING NULL SKIPPING INDEX, "span_id" STRING NULL, "span_kind" STRING NULL,
      "span_name" STRING NULL, "span_status_code" STRING NULL, "span_status_message" STRING NULL,
      "trace_state" STRING NULL, "scope_name" STRING NULL, "scope_version" STRING NULL,
      "service_name" STRING NULL SKIPPING INDEX, "span_attributes.http.method" STRING NULL,
      "span_attributes.db.statement" STRING NULL, "span_events" JSON NULL, "span_links" JSON NULL,
      TIME INDEX ("timestamp"), PRIMARY KEY ("service_name"))
      ENGINE=mito WITH(append_mode = 'true', table_data_model = 'greptime_trace_v1')`,
    headers,
  );
  const t = (ms: number) => `'2024-05-01T10:00:00.${String(ms).padStart(3, "0")}Z'`;
  const span = (
    trace: string,
    id: string,
    parent: string | null,
    service: string,
    name: string,
    start: number,
    end: number,
    status = "STATUS_CODE_OK",
    extra: [string, string] = ["NULL", "NULL"],
  ) =>
    `(${t(start)}, ${t(end)}, ${(end - start) * 1_000_000}, ${
      parent ? `'${parent}'` : "NULL"
    }, '${trace}', ` +
    `'${id}', 'SPAN_KIND_SERVER', '${name}', '${status}', '${service}', ${extra[0]}, ${extra[1]}, '[]')`;
  await runSql(
    url,
    `INSERT INTO opentelemetry_traces ("timestamp", timestamp_end, duration_nano, parent_span_id, trace_id,
      span_id, span_kind, span_name, span_status_code, service_name, "span_attributes.http.method",
      "span_attributes.db.statement", span_events) VALUES
      ${span(TRACE_ID, "a1", null, "frontend", "GET /checkout", 0, 120, "STATUS_CODE_OK", ["'GET'", "NULL"])},
      ${span(TRACE_ID, "b1", "a1", "frontend", "render cart", 5, 25)},
      ${span(TRACE_ID, "c1", "a1", "payments", "charge card", 30, 110)},
      ${
      span(TRACE_ID, "d1", "c1", "payments", "INSERT payments", 40, 60, "STATUS_CODE_ERROR", [
        "NULL",
        "'INSERT INTO payments'",
      ])
    },
      ${span("00000000000000000000000000000abc", "z1", null, "frontend", "GET /health", 500, 501)}`,
    headers,
  );
}

/** One step of the browser walk-through. */
export interface Step {
  name: string;
  run(env: { page: Page; s: TestServer }): Promise<void>;
}

/** Types a query into the editor, runs it and waits until it is done. */
export async function runQuery(page: Page, text: string): Promise<void> {
  await page.fill("#query-editor", text);
  await page.click("#query-run");
  await page.waitForSelector("#query-run:not([disabled])");
}

/** Waits until the log view shows `n` rows (the page's CSP forbids string-evaluated predicates). */
export async function logRows(page: Page, n: number): Promise<void> {
  const rows = page.locator("#logs-results .grid-body .grid-row");
  const deadline = Date.now() + WAIT_MS;
  while ((await rows.count()) !== n) {
    if (Date.now() > deadline) throw new Error(`log view shows ${await rows.count()} rows, not ${n}`);
    await page.waitForTimeout(100);
  }
}

/** The texts of the cells of a grid's rows in view (without the row number). */
export const cellTexts = (page: Page, selector: string) =>
  page.$$eval(
    `${selector} .grid-body .grid-row`,
    (rows) => rows.map((r) => [...r.querySelectorAll(".grid-cell")].slice(1).map((c) => c.textContent)),
  );
