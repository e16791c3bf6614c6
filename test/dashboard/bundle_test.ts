import assert from "node:assert/strict";

Deno.test("the committed dashboard bundle (src/dashboard/assets.gen.ts) matches its sources", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../src/dashboard/build.ts", import.meta.url).pathname, "--check"],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, `stale bundle: run \`deno task dashboard:build\` and commit it\n${text}`);
  assert.match(text, /is up to date/);
});
