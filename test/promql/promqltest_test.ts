/** Runs every promqltest script in testdata/ against the engine over an in-memory queryable. */
import assert from "node:assert/strict";
import { runScript } from "./promqltest.ts";

const dir = new URL("./testdata/", import.meta.url);
const files = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".test")).map((e) => e.name).sort();

Deno.test("promqltest: testdata/ holds the scripts", () => {
  // An empty or moved directory would otherwise leave no test at all, and nothing would fail.
  assert(files.length > 0, `no .test scripts in ${dir.pathname}`);
});

for (const name of files) {
  Deno.test(`promqltest ${name}`, async () => {
    const { failures, evals } = await runScript(Deno.readTextFileSync(new URL(name, dir)));
    assert(evals > 0, `${name} has no eval`);
    const report = failures.map((f) => `${name}:${f.line}: ${f.message}`).join("\n");
    assert(failures.length === 0, `${failures.length} of ${evals} evals failed:\n${report}`);
  });
}
