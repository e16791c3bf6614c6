import { httpStatusOf } from "../../src/http/render_error.ts";
/** What the pipeline relies on: result shapes, hint variables, fan-out, result checks, value conversions. */

import assert from "node:assert/strict";
import { PetrelError } from "../../src/common/errors.ts";
import { compileProcessors, FanOut, oneToManyEntry, runProcessors } from "../../engine/pipeline.ts";
import { loadYaml, mapGet } from "../../engine/yaml_doc.ts";
import {
  checkPipelineResult,
  compileVrl,
  encodeJson,
  fromJson,
  kindOf,
  parseJsonText,
  resultHasRegex,
  toJson,
  VrlRuntimeError,
  VrlTimestamp,
} from "../../engine/vrl/mod.ts";

const cases: { name: string; program: string; input: unknown; want: unknown }[] = [
  {
    name: "svc_table_suffix and svc_ttl assigned from fields",
    program:
      `.greptime_table_suffix = "_" + string!(.service)\n.greptime_ttl = string!(.retention)\ndel(.retention)\n.`,
    input: { service: "api", retention: "7d", msg: "hi" },
    want: { greptime_table_suffix: "_api", greptime_ttl: "7d", msg: "hi", service: "api" },
  },
  {
    name: "one-to-many fan-out (reference example)",
    program:
      `events = del(.events)\nbase_host = del(.host)\nmap_values(array!(events)) -> |event| { {"host": base_host, "event_type": event.type} }`,
    input: { host: "h1", events: [{ type: "click" }, { type: "view" }] },
    want: [{ event_type: "click", host: "h1" }, { event_type: "view", host: "h1" }],
  },
  {
    name: "per-element hints in fan-out",
    program:
      `map_values(array!(.items)) -> |i| { {"v": i.v, "greptime_ttl": if i.v == 1 { "1d" } else { "2d" }} }`,
    input: { items: [{ v: 1 }, { v: 2 }] },
    want: [{ greptime_ttl: "1d", v: 1 }, { greptime_ttl: "2d", v: 2 }],
  },
  {
    name: "null result drops the record",
    program: `if .level == "debug" { null } else { . }`,
    input: { level: "debug" },
    want: null,
  },
  {
    name: "object result keeps the record",
    program: `if .level == "debug" { null } else { . }`,
    input: { level: "info" },
    want: { level: "info" },
  },
  {
    name: "result is the last value, not the event",
    program: `.a = 1\n{"only": "this"}`,
    input: {},
    want: { only: "this" },
  },
];

for (const c of cases) {
  Deno.test(`pipeline: ${c.name}`, () => {
    const p = compileVrl(c.program);
    assert.equal(checkPipelineResult(p), null);
    assert.deepEqual(toJson(p.run(fromJson(c.input))), c.want);
  });
}

const resultChecks: [string, string | null][] = [
  [`.`, null],
  [`[.]`, null],
  [`parse_json!(.x)`, null],
  [`"text"`, "Vrl script should return object or array in the end, got `string`"],
  [`1`, "Vrl script should return object or array in the end, got `integer`"],
  [`.x = r'a+'\n.`, "Please don't use regex in Vrl script"],
  [`{"re": r'a+'}`, "Please don't use regex in Vrl script"],
  [`r'a+'`, "Vrl script should return object or array in the end, got `regex`"],
  // A field assigned in one branch only is data or null on the join, not "any" (which may be a regex).
  [`if .a == 1 { .service = "x" }\n.`, null],
  [`if .a == 1 { .r = r'x' }\n.`, "Please don't use regex in Vrl script"],
];

for (const [src, want] of resultChecks) {
  Deno.test(`pipeline result check: ${JSON.stringify(src)}`, () => {
    assert.equal(checkPipelineResult(compileVrl(src)), want);
  });
}

Deno.test("resultHasRegex only flags reachable regexes", () => {
  assert.equal(resultHasRegex(compileVrl(`.r = r'x'; .`)), true);
  assert.equal(resultHasRegex(compileVrl(`x = r'x'; .m = match("a", x); .`)), false);
});

Deno.test("runtime errors are VrlRuntimeError and leave later runs unaffected", () => {
  const p = compileVrl(`.n = to_int!(.s)\n.`);
  assert.throws(() => p.run(fromJson({ s: "x" })), VrlRuntimeError);
  assert.deepEqual(toJson(p.run(fromJson({ s: "5" }))), { n: 5, s: "5" });
});

Deno.test("variables do not leak between runs", () => {
  const p = compileVrl(`x = null\nif exists(.set) { x = 1 }\n.seen = x\n.`);
  assert.deepEqual(toJson(p.run(fromJson({ set: true }))), { seen: 1, set: true });
  assert.deepEqual(toJson(p.run(fromJson({}))), { seen: null });
});

Deno.test("metadata is separate from the event", () => {
  const p = compileVrl(`%tenant = "t1"\n.t = %tenant\n.`);
  const meta = new Map();
  assert.deepEqual(toJson(p.run(fromJson({}), meta)), { t: "t1" });
  assert.equal(meta.get("tenant"), "t1");
});

Deno.test("literal containers are not shared between runs", () => {
  const p = compileVrl(`x = {"n": []}\nx.n = push(x.n, 1)\nx`);
  p.run(new Map());
  assert.deepEqual(toJson(p.run(new Map())), { n: [1] });
});

const conversions: [unknown, string, string][] = [
  [3, "integer", "3"],
  [3.5, "float", "3.5"],
  [1e300, "float", "1e300"],
  ["s", "string", '"s"'],
  [true, "boolean", "true"],
  [null, "null", "null"],
  [[1, "a"], "array", '[1,"a"]'],
  [{ b: 1, a: 2 }, "object", '{"a":2,"b":1}'],
];

for (const [js, kind, json] of conversions) {
  Deno.test(`fromJson(${JSON.stringify(js)}) is ${kind}`, () => {
    const v = fromJson(js);
    assert.equal(kindOf(v), kind);
    assert.equal(encodeJson(v), json);
  });
}

Deno.test("toJson renders timestamps as RFC 3339 and sorts keys", () => {
  const v = fromJson({ z: 1, a: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)) });
  assert.deepEqual(Object.keys(toJson(v) as object), ["a", "z"]);
  assert.equal((toJson(v) as { a: string }).a, "2024-01-02T03:04:05.006Z");
  assert.equal(toJson(new VrlTimestamp(1n)), "1970-01-01T00:00:00.000000001Z");
});

Deno.test("parseJsonText keeps float-ness and big integers", () => {
  const v = parseJsonText('{"f": 3.0, "e": 1e2, "i": 3, "big": 9223372036854775807, "huge": 1e400}');
  assert.ok(v instanceof Map);
  assert.equal(kindOf(v.get("f")!), "float");
  assert.equal(kindOf(v.get("e")!), "float");
  assert.equal(v.get("i"), 3n);
  assert.equal(v.get("big"), 9223372036854775807n);
  assert.equal(kindOf(v.get("huge")!), "float");
});

const pipelineRuns: {
  program: string;
  input: Record<string, unknown>;
  rows?: unknown[];
  error?: [number, string];
}[] = [
  { program: `.a = 1\n.`, input: {}, rows: [{ a: 1 }] },
  { program: `if .drop == true { null } else { . }`, input: { drop: true }, rows: [] },
  { program: `[{"x": 1}, {"x": 2}]`, input: {}, rows: [{ x: 1 }, { x: 2 }] },
  { program: `[]`, input: {}, rows: [] },
  {
    program: `[{"x": 1}, 2]`,
    input: {},
    error: [400, "Array element at index 1 must be an object for one-to-many transformation, got integer"],
  },
  {
    program: `[{"x": 1}, {"y": {}}, {}, .obj]`,
    input: { obj: { a: 1 } },
    rows: [{ x: 1 }, { y: {} }, {}, { a: 1 }],
  },
  {
    program: `parse_json!(.m)`,
    input: { m: '"scalar"' },
    error: [400, "Array element at index 0 must be an object for one-to-many transformation, got string"],
  },
  {
    program: `[parse_json!(.m)]`,
    input: { m: "{}" },
    rows: [{}],
  },
  {
    program: `[.]`,
    input: { a: [] },
    rows: [{ a: [] }],
  },
  { program: `parse_json!(.m)`, input: { m: "[{}, []]" }, error: [400, "got array"] },
  {
    program: `parse_json!(.m)`,
    input: { m: "{" },
    error: [400, "Failed to execute VRL, function call error"],
  },
  {
    program: `if .x == 1 { abort "nope" }
.`,
    input: { x: 1 },
    error: [400, "Failed to execute VRL, nope"],
  },
];

/** The production path: the pipeline's `vrl` processor, then its one-to-many expansion. */
function runVrlStep(program: string, input: Record<string, unknown>): unknown[] {
  const out = runProcessors(compileVrlStep(program), input);
  if (out === null) return [];
  return out instanceof FanOut ? out.elements.map(oneToManyEntry) : [out];
}

function compileVrlStep(program: string) {
  const yaml = `processors:\n  - vrl:\n      source: ${JSON.stringify(program)}\n`;
  return compileProcessors(mapGet(loadYaml(yaml), "processors"));
}

for (const c of pipelineRuns) {
  Deno.test(`vrl processor: ${c.program.replaceAll("\n", "⏎")}`, () => {
    if (c.error) {
      assert.throws(() => runVrlStep(c.program, c.input), (e: unknown) => {
        assert.ok(e instanceof PetrelError);
        assert.equal(httpStatusOf(e), c.error![0]);
        assert.ok(e.message.includes(c.error![1]), e.message);
        return true;
      });
      return;
    }
    assert.deepEqual(runVrlStep(c.program, c.input), c.rows);
  });
}

const uploadErrors: [string, string][] = [
  [`.a = parse_json(.x)\n.`, "Failed to compile VRL, error[E103]: unhandled fallible assignment"],
  [`"s"`, "Vrl script should return object or array in the end, got `string`"],
  [`.r = r'x'\n.`, "Please don't use regex in Vrl script"],
];

for (const [src, msg] of uploadErrors) {
  Deno.test(`vrl processor rejects ${JSON.stringify(src)} at upload`, () => {
    assert.throws(() => compileVrlStep(src), (e: unknown) => {
      assert.ok(e instanceof PetrelError);
      assert.equal(e.code, 1004);
      assert.ok(e.message.startsWith(msg), e.message);
      return true;
    });
  });
}
