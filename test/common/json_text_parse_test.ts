/** `parseJsonText`: serde_json's integers (i64 exact, beyond it a float), whatever the text's shape. */
import assert from "node:assert/strict";
import { JSON_MAX_DEPTH, parseJsonBody, parseJsonText } from "../../src/common/json_text.ts";

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

Deno.test("parseJsonText refuses nesting past serde_json's recursion limit, and fast", () => {
  const nest = (depth: number, inner = "1") => "[".repeat(depth) + inner + "]".repeat(depth);
  assert.equal(JSON_MAX_DEPTH, 127);
  assert.ok(Array.isArray(parseJsonText(nest(127))));
  assert.throws(() => parseJsonText(nest(128)), {
    name: "SyntaxError",
    message: "recursion limit exceeded at line 1 column 128",
  });
  assert.throws(() => parseJsonText(`{"a":\n${'{"b":'.repeat(130)}`), /at line 2 column 631$/);
  // brackets in strings, escaped quotes among them, are text
  const brackets = `"${"[{".repeat(200)}\\\"${"[".repeat(200)}\\\\"`;
  assert.equal((parseJsonText(`[${brackets}]`) as string[])[0].length, 602);
  // many brackets, none deep: the opener count passes the limit, the scan finds depth 3
  assert.equal((parseJsonText(`[${'{"a":[1]},'.repeat(300)}1]`) as unknown[]).length, 301);
  // JSON.parse spent ~100 ms on a body nested 100 000 deep; the scan stops at the 128th level
  const deep = nest(1_000_000);
  const started = performance.now();
  assert.throws(() => parseJsonText(deep), /recursion limit exceeded/);
  assert.ok(performance.now() - started < 100, `${performance.now() - started} ms`);
});

Deno.test("parseJsonBody: JSON.parse behind the same depth limit", () => {
  assert.deepEqual(parseJsonBody('{"a":[{"b":null}]}'), { a: [{ b: null }] });
  assert.throws(() => parseJsonBody("[".repeat(128)), /recursion limit exceeded at line 1 column 128/);
  assert.throws(() => parseJsonBody('{"a":'), SyntaxError);
});
