/**
 * The examples of VRL's function reference (vector.dev/docs/reference/vrl/functions/), one table grouped by
 * function, each case under the docs' title. Examples already pinned in a family's table are not repeated here;
 * examples whose result depends on the host, the clock or randomness are left out.
 */

import assert from "node:assert/strict";
import { check } from "./harness.ts";
import type { DocsExample } from "./docs_examples/example.ts";
import { A_TO_E } from "./docs_examples/a_e.ts";
import { F_TO_O } from "./docs_examples/f_o.ts";
import { PARSE } from "./docs_examples/p.ts";
import { Q_TO_Z } from "./docs_examples/q_z.ts";
import { EXPRESSIONS } from "./docs_examples/expressions.ts";

const EXAMPLES: DocsExample[] = [...A_TO_E, ...F_TO_O, ...PARSE, ...Q_TO_Z];

Deno.test("docs examples: the table is grouped by function, alphabetically", () => {
  const fns = EXAMPLES.map((e) => e.fn);
  const order = [...new Set(fns)];
  assert.deepEqual(order, [...order].sort(), "functions out of order");
  assert.equal(
    order.length,
    new Set(fns.filter((f, i) => f !== fns[i - 1])).size,
    "a function's examples are split",
  );
});

for (const e of EXAMPLES) {
  Deno.test(`docs ${e.fn}: ${e.title}`, () => check(e));
}
for (const e of EXPRESSIONS) {
  Deno.test(`docs expressions, ${e.fn}: ${e.title}`, () => check(e));
}

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** Docs examples as `petrel vrl 'PROGRAM'` prints them: one JSON line, or the docs' error line. */
const CLI_EXAMPLES: [program: string, stdout: string][] = [
  [`upcase("Hello, World!")`, `"HELLO, WORLD!"`],
  [`ceil(4.345)`, `5.0`],
  [`parse_json!("{\\"key\\": \\"val\\"}")`, `{"key":"val"}`],
  [
    `parse_key_value!("env:prod,service:backend,region:eu-east1,beta", field_delimiter: ",", key_value_delimiter: ":")`,
    `{"beta":true,"env":"prod","region":"eu-east1","service":"backend"}`,
  ],
  [`to_unix_timestamp(t'2021-01-01T00:00:00Z', unit: "nanoseconds")`, `1609459200000000000`],
  [`parse_timestamp!("10-Oct-2020 16:00+00:00", format: "%v %R %:z")`, `"2020-10-10T16:00:00Z"`],
  [
    `assert!("foo" == "bar", message: "\\"foo\\" must be \\"foo\\"!")`,
    `error: function call error for "assert" at (0:60): "foo" must be "foo"!`,
  ],
  [
    `assert_eq!(127, [1, 2, 3])`,
    `error: function call error for "assert_eq" at (0:26): assertion failed: 127 == [1, 2, 3]`,
  ],
];

Deno.test("docs examples through `petrel vrl 'PROGRAM'`", async () => {
  for (const [program, stdout] of CLI_EXAMPLES) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "vrl", program],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.equal(text, stdout + "\n", program);
  }
});
