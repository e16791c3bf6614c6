/** `parseJsonText`: serde_json's integers (i64 exact, beyond it a float), whatever the text's shape. */
import assert from "node:assert/strict";
import { parseJsonText } from "../../src/common/json_text.ts";

Deno.test("parseJsonText keeps i64 integers exact wherever they are, and nothing else changes", () => {
  const cases: [string, unknown][] = [
    ["9007199254740991", 9007199254740991],
    ["9007199254740992", 9007199254740992n],
    ["-9007199254740993", -9007199254740993n],
    ['{"a":{"b":[1,1716668197217123457]}}', { a: { b: [1, 1716668197217123457n] } }],
    ["[9223372036854775807,-9223372036854775808]", [9223372036854775807n, -9223372036854775808n]],
    // beyond i64, and float literals, stay floats
    ["18446744073709551616", 18446744073709551616],
    ["[1e300,9007199254740993.0,-2e16]", [1e300, 9007199254740992, -2e16]],
    // a 16-digit run in a string is only text
    ['{"s":"12345678901234567890","n":5}', { s: "12345678901234567890", n: 5 }],
    ['{"__proto__":1}', JSON.parse('{"__proto__":1}')],
  ];
  for (const [text, want] of cases) assert.deepEqual(parseJsonText(text), want, text);
  assert.throws(() => parseJsonText("{"), SyntaxError);
});

Deno.test("parseJsonText: nesting too deep to walk parses as JSON.parse does", () => {
  const depth = 200_000;
  const text = "[".repeat(depth) + "12345" + "]".repeat(depth);
  let v = parseJsonText(text);
  for (let i = 0; i < depth; i++) v = (v as unknown[])[0];
  assert.equal(v, 12345);
  // with a long integer inside, the exact parse's reviver runs out of stack, as it always did
  assert.throws(() => parseJsonText(text.replace("12345", "1716668197217123457")), RangeError);
});
