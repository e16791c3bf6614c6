/** Runs every promqltest script in testdata/ against the engine over an in-memory queryable. */
import assert from "node:assert/strict";
import { runScript } from "./promqltest.ts";

const dir = new URL("./testdata/", import.meta.url);
const files = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".test")).map((e) => e.name).sort();

for (const name of files) {
  Deno.test(`promqltest ${name}`, async () => {
    const { failures, evals } = await runScript(Deno.readTextFileSync(new URL(name, dir)));
    assert(evals > 0, `${name} has no eval`);
    const report = failures.map((f) => `${name}:${f.line}: ${f.message}`).join("\n");
    assert(failures.length === 0, `${failures.length} of ${evals} evals failed:\n${report}`);
  });
}
