import { httpStatusOf } from "../../src/http/render_error.ts";
/** Ingest bodies by content type (reference §12.7), as a table of (type, body, flags) → entries or error. */
import assert from "node:assert/strict";
import { parsePayload } from "../../engine/payload.ts";
import { PetrelError } from "../../src/common/errors.ts";

interface PayloadCase {
  name: string;
  type: string;
  body: string;
  ignoreErrors?: boolean;
  entries?: unknown[];
  /** Start of the error message. */
  error?: string;
}

const CASES: PayloadCase[] = [
  { name: "json: one object", type: "application/json", body: ' {"a":1} ', entries: [{ a: 1 }] },
  {
    name: "json: an array's elements",
    type: "application/json",
    body: '[{"a":1},{"a":2}]',
    entries: [{ a: 1 }, { a: 2 }],
  },
  {
    name: "json: one value per line (NDJSON sent as JSON), CRLF and blank lines",
    type: "application/json",
    body: '{"a":1}\r\n\n[{"a":2}, {"a":3}]\n  \n{"a":4}\n',
    entries: [{ a: 1 }, { a: 2 }, { a: 3 }, { a: 4 }],
  },
  {
    name: "json: values on one line and a value across lines",
    type: "application/json",
    body: '{"a":1}{"a":2} [{"a":3}]\n{\n  "a": "x y"\n}',
    entries: [{ a: 1 }, { a: 2 }, { a: 3 }, { a: "x y" }],
  },
  {
    name: "json: strings with braces and escaped quotes",
    type: "application/json",
    body: '{"a":"}{\\"["} {"b":"\\\\"}',
    entries: [{ a: '}{"[' }, { b: "\\" }],
  },
  {
    name: "json: array elements are not checked here",
    type: "application/json",
    body: "[1, {}]",
    entries: [1, {}],
  },
  { name: "json: empty body", type: "application/json", body: " \n", entries: [] },
  {
    name: "json: a scalar",
    type: "application/json",
    body: '{"a":1}\n7',
    error: "Invalid request parameter: json format error, please check the date is valid JSON.",
  },
  {
    name: "json: ignore_errors skips scalars",
    type: "application/json",
    body: '{"a":1}\n7\n{"a":2}',
    ignoreErrors: true,
    entries: [{ a: 1 }, { a: 2 }],
  },
  {
    name: "json: a syntax error",
    type: "application/json",
    body: '{"a":1} {"a":',
    error: "Failed to parse payload as json",
  },
  {
    name: "json: ignore_errors stops at the first syntax error, keeping what was read",
    type: "application/json",
    body: '{"a":1} {"a": nope} {"a":3}',
    ignoreErrors: true,
    entries: [{ a: 1 }],
  },
  {
    name: "json: media type is case-insensitive and may carry parameters",
    type: "Application/JSON; charset=utf-8",
    body: '{"a":1}',
    entries: [{ a: 1 }],
  },
  {
    name: "ndjson: values taken as-is (no array expansion), blank lines and CRLF",
    type: "application/x-ndjson",
    body: '{"a":1}\r\n\n   \n[1,2]\n"s"\n',
    entries: [{ a: 1 }, [1, 2], "s"],
  },
  {
    name: "ndjson: the bad line is named",
    type: "application/x-ndjson",
    body: '{"a":1}\n{"a":\n',
    error: "Invalid request parameter: invalid JSON at index: 1 (line 2:",
  },
  {
    name: "ndjson: ignore_errors drops bad lines",
    type: "application/x-ndjson",
    body: '{"a":1}\nbad\n{"a":2}',
    ignoreErrors: true,
    entries: [{ a: 1 }, { a: 2 }],
  },
  {
    name: "text: each non-empty line is a message, trailing CR removed",
    type: "text/plain",
    body: "first line\r\n\nsecond  line \n",
    entries: [{ message: "first line" }, { message: "second  line " }],
  },
  {
    name: "other types are refused",
    type: "application/yaml",
    body: "a: 1",
    error:
      "Invalid request parameter: invalid content type: application/yaml, expected: one of application/json, application/x-ndjson, text/plain",
  },
];

for (const c of CASES) {
  Deno.test(`payload: ${c.name}`, () => {
    if (c.error !== undefined) {
      assert.throws(() => parsePayload(c.body, c.type, c.ignoreErrors), (e: unknown) => {
        assert.ok(e instanceof PetrelError);
        assert.equal(httpStatusOf(e), 400);
        assert.ok(e.message.startsWith(c.error!), e.message);
        return true;
      });
    } else {
      assert.deepEqual(parsePayload(c.body, c.type, c.ignoreErrors), c.entries);
    }
  });
}
