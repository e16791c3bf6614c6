/** `petrel vrl` as a spawned process. */

import assert from "node:assert/strict";
import { benchVrl } from "../../engine/vrl/bench.ts";

const CLI = new URL("../../engine/vrl/cli.ts", import.meta.url).pathname;

async function runCli(
  args: string[],
  stdin?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const cmd = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  });
  const child = cmd.spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

async function files(program: string, events: string): Promise<{ dir: string; prog: string; input: string }> {
  const dir = await Deno.makeTempDir({ prefix: "vrl_cli_" });
  await Deno.writeTextFile(`${dir}/p.vrl`, program);
  await Deno.writeTextFile(`${dir}/e.ndjson`, events);
  return { dir, prog: `${dir}/p.vrl`, input: `${dir}/e.ndjson` };
}

Deno.test("cli: one JSON line per event, error lines for runtime errors", async () => {
  const f = await files(
    `.up = upcase!(.msg)\n.n = 1.0\n{"up": .up, "n": .n}`,
    `{"msg":"a"}\n{"msg":1}\n\n{"msg":"b"}\n`,
  );
  try {
    const r = await runCli(["--program", f.prog, "--input", f.input]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trimEnd().split("\n"), [
      '{"n":1.0,"up":"A"}',
      'error: function call error for "upcase" at (6:19): expected string, got integer',
      '{"n":1.0,"up":"B"}',
    ]);
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("cli: --print-object prints the resulting event", async () => {
  const f = await files(`.b = 2\n"ignored result"`, `{"a":1}\n`);
  try {
    const r = await runCli(["--program", f.prog, "--input", f.input, "--print-object"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '{"a":1,"b":2}\n');
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("cli: compile error exits non-zero with the diagnostic", async () => {
  const f = await files(`.a = 1\n.b = parse_json(.x)\n`, `{}\n`);
  try {
    const r = await runCli(["--program", f.prog, "--input", f.input]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /error\[E103\]: unhandled fallible assignment/);
    assert.match(r.stderr, /:2:6/);
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("cli: reads events from stdin and reports bad JSON per line", async () => {
  const f = await files(`.`, "");
  try {
    const r = await runCli(["--program", f.prog], `{"x":1}\nnot json\n`);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines[0], '{"x":1}');
    assert.match(lines[1], /^error: invalid JSON input/);
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("cli: usage errors exit 2", async () => {
  assert.equal((await runCli([])).code, 2);
  assert.equal((await runCli(["--program", "/nonexistent/p.vrl"])).code, 2);
  assert.equal((await runCli(["--bogus"])).code, 2);
  const help = await runCli(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /usage: petrel vrl/);
});

Deno.test("cli: a positional program runs as VRL's own CLI does, on {} when there is no input", async () => {
  const once = await runCli(['.a = 1 + 2; upcase("x")'], "");
  assert.equal(once.code, 0, once.stderr);
  assert.equal(once.stdout, '"X"\n');
  const obj = await runCli(["--print-object", ".b = int!(.a) * 2"], '{"a":2}\n{"a":5}\n');
  assert.equal(obj.code, 0, obj.stderr);
  assert.equal(obj.stdout, '{"a":2,"b":4}\n{"a":5,"b":10}\n');
  const two = await runCli([".", "."]);
  assert.equal(two.code, 2);
  assert.match(two.stderr, /unknown argument: \./);
});

Deno.test("bench: benchVrl runs the 10-statement program", () => {
  const { eventsPerSec } = benchVrl(5_000);
  assert.ok(eventsPerSec > 0);
});
