// The dashboard in a real browser (Debian's chromium) against a real Petrel: query, chart, tables,
// logs, traces, pipelines and status, with screenshots in test/artifacts/.
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { BROWSE_STEPS } from "./browser_browse_steps.ts";
import { QUERY_STEPS } from "./browser_query_steps.ts";
import { type Browser, cellTexts, launchChromium, runQuery, screenshot, seed } from "./browser.ts";

const RUN = { sanitizeOps: false, sanitizeResources: false };

Deno.test(
  { name: "dashboard in chromium: query, chart, tables, logs, traces, pipelines, status", ...RUN },
  async (t) => {
    const started = performance.now();
    const browser = await launchChromium();
    if (browser === null) return; // launchChromium printed why
    const s = await startTestServer();
    const { page } = browser;
    try {
      await seed(s.url);
      for (const step of [...QUERY_STEPS, ...BROWSE_STEPS]) {
        await t.step(step.name, () => step.run({ page, s }));
      }
      assert.deepEqual(browser.errors, [], "no script errors in the page");
    } finally {
      await browser.close();
      await s.stop();
    }
    console.log(`  dashboard browser test took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  },
);

Deno.test(
  { name: "dashboard in chromium: asks for credentials when a user provider is set", ...RUN },
  async () => {
    const browser: Browser | null = await launchChromium();
    if (browser === null) return;
    const s = await startTestServer({ user_provider: "static_user_provider:cmd:alice=s3cret" });
    const { page } = browser;
    try {
      await page.goto(`${s.url}/dashboard/`);
      await page.waitForSelector("dialog#login[open]");
      assert.match(await page.textContent(".login-reason") ?? "", /authorization header/);
      await screenshot(page, "dashboard-login");
      await page.fill('dialog#login input[name="username"]', "alice");
      await page.fill('dialog#login input[name="password"]', "wrong");
      await page.click('dialog#login button[type="submit"]');
      await page.waitForSelector("dialog#login[open] >> text=Username and password does not match");
      await page.fill('dialog#login input[name="password"]', "s3cret");
      await page.click('dialog#login button[type="submit"]');
      await page.waitForSelector("dialog#login", { state: "detached" });
      assert.match(await page.textContent("#user-box") ?? "", /Signed in as alice/);
      await runQuery(page, "SELECT 1 AS one");
      assert.deepEqual(await cellTexts(page, "#query-results"), [["1"]]);
      const sent = await page.evaluate(() => sessionStorage.getItem("petrel.auth"));
      assert.equal(sent, btoa("alice:s3cret"), "Basic credentials kept for the tab only");
      await page.click("#sign-out");
      await page.fill("#query-editor", "SELECT 2");
      await page.click("#query-run");
      await page.waitForSelector("dialog#login[open]");
      await page.click('dialog#login button:has-text("Cancel")');
      await page.waitForSelector("#query-results .error");
      assert.equal(await page.getAttribute("#query-results .error", "data-status"), "401");
      assert.deepEqual(browser.errors, []);
    } finally {
      await browser.close();
      await s.stop();
    }
  },
);
