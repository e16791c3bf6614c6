/** Data-driven cases for every processor and option (reference §4); parsers are in processors_parsing_test.ts. */
import { type ProcessorCase, runProcessorCase } from "./helpers.ts";

const CASES: ProcessorCase[] = [
  // ---- shared field / fields handling (§3.3, §4.0)
  {
    name: "field rename with 'in, out'",
    yaml: "  - letter:\n      field: a, b\n      method: upper",
    input: { a: "x" },
    output: { a: "x", b: "X" },
  },
  {
    name: "fields map form key/rename_to",
    yaml: "  - letter:\n      fields:\n        - {key: a, rename_to: c}\n      method: upper",
    input: { a: "x" },
    output: { a: "x", c: "X" },
  },
  {
    name: "later of field/fields wins",
    yaml: "  - letter:\n      fields: [a]\n      field: b\n      method: upper",
    input: { a: "x", b: "y" },
    output: { a: "x", b: "Y" },
  },
  {
    name: "empty input field",
    yaml: "  - letter:\n      field: ' , x'",
    input: {},
    compileError: "Empty input field",
  },
  {
    name: "bad rename map",
    yaml: "  - letter:\n      fields:\n        - {key: a}",
    input: {},
    compileError: "Field renaming must be a string pair of 'key' and 'rename_to', got:",
  },
  {
    name: "field must be a string or map",
    yaml: "  - letter:\n      field: [1]",
    input: {},
    compileError: "Field field must be a string or key-rename_to map",
  },
  {
    name: "missing field fails",
    yaml: "  - letter:\n      field: a",
    input: {},
    runError: "Processor letter: missing field: a",
  },
  {
    name: "null field counts as missing",
    yaml: "  - letter:\n      field: a",
    input: { a: null },
    runError: "Processor letter: missing field: a",
  },
  {
    name: "ignore_missing skips absent field",
    yaml: "  - letter:\n      field: a\n      ignore_missing: true",
    input: { b: 1 },
    output: { b: 1 },
  },
  {
    name: "ignore_missing must be a boolean",
    yaml: "  - letter:\n      field: a\n      ignore_missing: 'yes'",
    input: {},
    compileError: "Field ignore_missing must be a boolean",
  },
  {
    name: "expect string value",
    yaml: "  - letter:\n      field: a",
    input: { a: 5 },
    runError: "Processor letter: expect string value, but got Integer(5)",
  },
  {
    name: "unknown processor",
    yaml: "  - grok:\n      field: a",
    input: {},
    compileError: "Unsupported grok processor",
  },
  {
    name: "processor body must be a map",
    yaml: "  - decolorize:",
    input: {},
    compileError: "Processor must be a map",
  },
  {
    name: "option keys must be strings",
    yaml: "  - letter:\n      field: a\n      1: x",
    input: {},
    compileError: "Key must be a string, but got 1",
  },
  {
    name: "processor item must be a map",
    yaml: "  - decolorize",
    input: {},
    compileError: "Processor must be a map",
  },
  {
    name: "compile errors name processor, key and line",
    yaml: "  - letter:\n      field: a\n      method: title",
    input: {},
    compileError: "Invalid method: title (processor letter, key method, line 4)",
  },

  // ---- cmcd (§4.1)
  {
    name: "cmcd example",
    yaml: "  - cmcd:\n      field: x, prefix",
    input: { x: 'br=3200,bs,d=4004,ot=v,sid="6e2f"' },
    output: {
      x: 'br=3200,bs,d=4004,ot=v,sid="6e2f"',
      prefix_br: 3200,
      prefix_bs: true,
      prefix_d: 4004,
      prefix_ot: "v",
      prefix_sid: '"6e2f"',
    },
  },
  {
    name: "cmcd nor decoded, pr float, su bool, v string, unknown keys ignored",
    yaml: "  - cmcd:\n      field: c",
    input: { c: "nor=%2Fa%20b,pr=1.5,su=0,v=1,com.example-x=1,tb=10" },
    output: {
      c: "nor=%2Fa%20b,pr=1.5,su=0,v=1,com.example-x=1,tb=10",
      c_nor: "/a b",
      c_pr: 1.5,
      c_su: true,
      c_v: "1",
      c_tb: 10,
    },
  },
  {
    // The urlencoding crate decodes what it can: a malformed `%` stays, invalid UTF-8 keeps the raw value.
    name: "cmcd nor: malformed percent sequences kept, the rest decoded; invalid UTF-8 kept raw",
    yaml: "  - cmcd:\n      field: c\n  - cmcd:\n      field: d",
    input: { c: "nor=a%2Fb%ZZ%4", d: "nor=a%2F%FF" },
    output: { c: "nor=a%2Fb%ZZ%4", c_nor: "a/b%ZZ%4", d: "nor=a%2F%FF", d_nor: "a%2F%FF" },
  },
  {
    name: "cmcd bad int",
    yaml: "  - cmcd:\n      field: c",
    input: { c: "br=x" },
    runError: "Failed to parse br as int: x",
  },
  {
    name: "cmcd bad float",
    yaml: "  - cmcd:\n      field: c",
    input: { c: "pr=x" },
    runError: "Failed to parse pr as float: x",
  },
  {
    name: "cmcd missing value",
    yaml: "  - cmcd:\n      field: c",
    input: { c: "br" },
    runError: "Cmcd br missing value in br",
  },

  // ---- decolorize (§4.4)
  {
    name: "decolorize",
    yaml: "  - decolorize:\n      field: m",
    input: { m: "\x1b[32mSuccess\x1b[0m and \x1b[31mError\x1b[0m" },
    output: { m: "Success and Error" },
  },

  // ---- digest (§4.5)
  {
    name: "digest ip preset",
    yaml: "  - digest:\n      field: m, renamed\n      presets: [ip]",
    input: { m: "hello 192.168.1.1 world" },
    output: { m: "hello 192.168.1.1 world", m_digest: "hello  world" },
  },
  {
    name: "digest presets in order plus regex",
    yaml:
      "  - digest:\n      field: m\n      presets: [quoted, bracketed, uuid, numbers]\n      regex: ['user=\\w+']",
    input: { m: 'id 123e4567-e89b-12d3-a456-426614174000 "q" [content} n=42 user=bob' },
    output: {
      m: 'id 123e4567-e89b-12d3-a456-426614174000 "q" [content} n=42 user=bob',
      m_digest: "id    n= ",
    },
  },
  {
    name: "digest unknown preset",
    yaml: "  - digest:\n      field: m\n      presets: [emails]",
    input: {},
    compileError: "Wrong digest pattern: emails",
  },
  {
    name: "digest presets not a list",
    yaml: "  - digest:\n      field: m\n      presets: ip",
    input: {},
    compileError: "Wrong digest pattern: presets",
  },
  {
    name: "digest invalid custom regex rejected at compile",
    yaml: "  - digest:\n      field: m\n      regex: ['(']",
    input: {},
    compileError: "Invalid regex pattern: (",
  },

  // ---- epoch (§4.7)
  {
    name: "epoch default millisecond from string, int and float",
    yaml: "  - epoch:\n      fields: [a, b, c]",
    input: { a: "1716668197217", b: 1716668197217, c: 1716668197217.9 },
    output: {
      a: "ts:2024-05-25T20:16:37.217Z",
      b: "ts:2024-05-25T20:16:37.217Z",
      c: "ts:2024-05-25T20:16:37.217Z",
    },
  },
  {
    name: "epoch resolution s with rename",
    yaml: "  - epoch:\n      field: a, t\n      resolution: s",
    input: { a: 1716668197 },
    output: { a: 1716668197, t: "ts:2024-05-25T20:16:37Z" },
  },
  {
    name: "epoch ns and us",
    yaml:
      "  - epoch:\n      field: a\n      resolution: nano\n  - epoch:\n      field: b\n      resolution: us",
    input: { a: "1716668197217000001", b: 1716668197217001 },
    output: { a: "ts:2024-05-25T20:16:37.217000001Z", b: "ts:2024-05-25T20:16:37.217001Z" },
  },
  {
    name: "epoch bad resolution",
    yaml: "  - epoch:\n      field: a\n      resolution: minute",
    input: {},
    compileError: "Invalid resolution: minute",
  },
  {
    name: "epoch decimal string fails",
    yaml: "  - epoch:\n      field: a",
    input: { a: "1573840000.000" },
    runError: "Failed to parse 1573840000.000 to int",
  },
  {
    name: "epoch out of range",
    yaml: "  - epoch:\n      field: a\n      resolution: s",
    input: { a: "9223372037" },
    runError: "Invalid epoch value '9223372037' for resolution 'second'",
  },
  {
    name: "epoch unsupported type",
    yaml: "  - epoch:\n      field: a",
    input: { a: true },
    runError: "Processor epoch: unsupported value",
  },

  // ---- filter (§4.8)
  {
    name: "filter in drops (case-insensitive by default)",
    yaml: "  - filter:\n      field: level\n      targets: [DEBUG, '']",
    input: { level: "debug" },
    output: null,
  },
  {
    name: "filter in keeps others",
    yaml: "  - filter:\n      field: level\n      targets: [debug]",
    input: { level: "info" },
    output: { level: "info" },
  },
  {
    name: "filter case sensitive",
    yaml: "  - filter:\n      field: level\n      targets: [debug]\n      case_insensitive: false",
    input: { level: "DEBUG" },
    output: { level: "DEBUG" },
  },
  {
    name: "filter not_in drops non-members; absent field skipped",
    yaml:
      "  - filter:\n      fields: [level, gone]\n      targets: [info]\n      match_op: not_in\n      mode: simple",
    input: { level: "warn" },
    output: null,
  },
  {
    name: "filter requires targets",
    yaml: "  - filter:\n      field: a",
    input: {},
    compileError: "Processor filter: missing field: targets",
  },
  {
    name: "filter null value errors",
    yaml: "  - filter:\n      field: a\n      targets: [x]",
    input: { a: null },
    runError: "Processor filter: expect string value, but got Null",
  },

  // ---- gsub (§4.9)
  {
    name: "gsub with groups and rename",
    yaml:
      "  - gsub:\n      field: m, out\n      pattern: '(?P<k>\\w+)=(\\d+)'\n      replacement: '${k}:$2 $$'",
    input: { m: "a=1 b=2" },
    output: { m: "a=1 b=2", out: "a:1 $ b:2 $" },
  },
  {
    name: "gsub $1a is group '1a' (empty)",
    yaml: "  - gsub:\n      field: m\n      pattern: '(x)'\n      replacement: '$1a'",
    input: { m: "x" },
    output: { m: "" },
  },
  {
    name: "gsub requires pattern",
    yaml: "  - gsub:\n      field: m\n      replacement: x",
    input: {},
    compileError: "Pattern is required",
  },
  {
    name: "gsub requires replacement",
    yaml: "  - gsub:\n      field: m\n      pattern: x",
    input: {},
    compileError: "Replacement is required",
  },
  {
    name: "gsub invalid regex",
    yaml: "  - gsub:\n      field: m\n      pattern: '('\n      replacement: ''",
    input: {},
    compileError: "Invalid regex pattern: (",
  },

  {
    name: "gsub look-around is refused at upload, as Rust's regex crate does",
    yaml: "  - gsub:\n      field: a\n      pattern: 'x(?=y)'\n      replacement: ''",
    input: {},
    compileError:
      "Invalid regex pattern: x(?=y): look-around, including look-ahead and look-behind, is not supported",
  },
  // ---- join (§4.10)
  {
    name: "join stringifies elements",
    yaml: "  - join:\n      field: a, s\n      separator: '-'",
    input: { a: [1, true, "a", 1.1, null, [2], { k: 1 }] },
    output: { a: [1, true, "a", 1.1, null, [2], { k: 1 }], s: '1-true-a-1.1-<null>-[2]-{"k":1}' },
  },
  {
    name: "join requires separator",
    yaml: "  - join:\n      field: a",
    input: {},
    compileError: "Separator is required",
  },
  {
    name: "join needs array",
    yaml: "  - join:\n      field: a\n      separator: ','",
    input: { a: "x" },
    runError: "Processor join: expect string value",
  },

  // ---- json_parse (§4.11)
  {
    name: "json_parse object into target",
    yaml: "  - json_parse:\n      field: j, o",
    input: { j: '{"a":[1,2]}' },
    output: { j: '{"a":[1,2]}', o: { a: [1, 2] } },
  },
  {
    name: "json_parse scalar unsupported",
    yaml: "  - json_parse:\n      field: j",
    input: { j: "1" },
    runError: "Processor json_parse: unsupported value",
  },
  {
    name: "json_parse syntax error",
    yaml: "  - json_parse:\n      field: j",
    input: { j: "{" },
    runError: "Failed to parse json",
  },
  {
    name: "json_parse null is present (not missing)",
    yaml: "  - json_parse:\n      field: j",
    input: { j: null },
    runError: "Field <null> must be a string",
  },
  {
    name: "json_parse ignore_missing only for absent key",
    yaml: "  - json_parse:\n      field: j\n      ignore_missing: true",
    input: {},
    output: {},
  },

  // ---- letter (§4.13)
  {
    name: "letter upper/lower ascii only, capital",
    yaml: [
      "  - letter:\n      field: a, up\n      method: UPPER",
      "  - letter:\n      field: a, low",
      "  - letter:\n      field: b\n      method: capital",
    ].join("\n"),
    input: { a: "Héllo", b: "ßaa" },
    output: { a: "Héllo", up: "HéLLO", low: "héllo", b: "SSaa" },
  },
  {
    name: "letter invalid method",
    yaml: "  - letter:\n      field: a\n      method: title",
    input: {},
    compileError: "Invalid method: title",
  },

  // ---- regex (§4.14)
  {
    name: "regex reference example: prefix from rename, all patterns applied",
    yaml:
      "  - regex:\n      field: breadcrumbs_edge, edge\n      patterns:\n        - 'a=(?<ip>[^,\\]]+)'\n        - 'l=(?<turn_around_time>[^,\\]]+)'",
    input: { breadcrumbs_edge: "[a=12.34.567.89,b=x,l=1]" },
    output: {
      breadcrumbs_edge: "[a=12.34.567.89,b=x,l=1]",
      edge_ip: "12.34.567.89",
      edge_turn_around_time: "1",
    },
  },
  {
    name: "regex pattern and patterns accumulate; (?P<>) and inline flags",
    yaml:
      "  - regex:\n      field: m\n      pattern: '(?i)LEVEL=(?P<level>\\w+)'\n      patterns: ['(?<num>\\d+)|(?<never>zzz)']",
    input: { m: "level=warn 42" },
    output: { m: "level=warn 42", m_level: "warn", m_num: "42" },
  },
  {
    name: "regex needs named group",
    yaml: "  - regex:\n      field: m\n      pattern: '(\\d+)'",
    input: {},
    compileError: "No named group found in regex (\\d+)",
  },
  {
    name: "regex needs field",
    yaml: "  - regex:\n      pattern: '(?<a>x)'",
    input: {},
    compileError: "No valid field found in regex processor",
  },
  {
    name: "regex needs pattern",
    yaml: "  - regex:\n      field: m",
    input: {},
    compileError: "No valid pattern found in regex processor",
  },

  // ---- select (§4.15)
  {
    name: "select include with rename",
    yaml: "  - select:\n      fields: [a, 'b, c']",
    input: { a: 1, b: 2, d: 3 },
    output: { a: 1, c: 2 },
  },
  {
    name: "select exclude",
    yaml: "  - select:\n      fields: [a, 'b, c', missing]\n      type: exclude",
    input: { a: 1, b: 2, d: 3 },
    output: { d: 3 },
  },
  {
    name: "select bad type",
    yaml: "  - select:\n      fields: [a]\n      type: keep",
    input: {},
    compileError: "Processor select: unsupported value 'keep', expect 'include' or 'exclude'",
  },

  // ---- simple_extract (§4.16)
  {
    name: "simple_extract path, missing step gives null",
    yaml:
      "  - simple_extract:\n      field: o, v\n      key: a.b\n  - simple_extract:\n      field: o, w\n      key: a.x.y",
    input: { o: { a: { b: 5 } } },
    output: { o: { a: { b: 5 } }, v: 5, w: null },
  },

  // ---- urlencoding (§4.17)
  {
    name: "urlencoding encode and decode",
    yaml: "  - urlencoding:\n      field: a, e\n      method: encode\n  - urlencoding:\n      field: b",
    input: { a: "a b/ü~", b: "%2Fx+y%zz%e4%B8%ad" },
    output: { a: "a b/ü~", e: "a%20b%2F%C3%BC~", b: "/x+y%zz中" },
  },
  {
    name: "urlencoding bad method",
    yaml: "  - urlencoding:\n      field: a\n      method: Encode",
    input: {},
    compileError: "Invalid method: Encode",
  },

  // ---- vrl (§4.18)
  {
    name: "vrl without a source",
    yaml: "  - vrl:\n      field: x",
    input: {},
    compileError: "Failed to compile VRL, source is required",
  },
  {
    name: "vrl result becomes the entry",
    yaml: "  - vrl:\n      source: '.n = 1\n\n        .'",
    input: { a: "x" },
    output: { a: "x", n: 1 },
  },
];

for (const c of CASES) Deno.test(`processor: ${c.name}`, () => runProcessorCase(c));

/** Minimal options per field processor, for the shared `ignore_missing` / null rules (§4.0). */
const FIELD_PROCESSORS: [string, string, boolean][] = [
  // [name, extra options, null counts as present]
  ["cmcd", "", false],
  ["csv", "\n      target_fields: a", false],
  ["date", "", false],
  ["decolorize", "", false],
  ["digest", "\n      presets: [numbers]", false],
  ["dissect", "\n      pattern: '%{a}'", false],
  ["epoch", "", false],
  ["gsub", "\n      pattern: x\n      replacement: y", false],
  ["join", "\n      separator: ','", false],
  ["json_parse", "", true],
  ["json_path", "\n      json_path: '$.a'", true],
  ["letter", "", false],
  ["regex", "\n      pattern: '(?<a>x)'", false],
  ["simple_extract", "\n      key: a", true],
  ["urlencoding", "", false],
];

for (const [name, extra, nullPresent] of FIELD_PROCESSORS) {
  Deno.test(`processor ${name}: absent field fails unless ignore_missing`, () => {
    runProcessorCase({
      name,
      yaml: `  - ${name}:\n      field: f${extra}`,
      input: { other: 1 },
      runError: `Processor ${name}: missing field: f`,
    });
    runProcessorCase({
      name,
      yaml: `  - ${name}:\n      field: f${extra}\n      ignore_missing: true`,
      input: { other: 1 },
      output: { other: 1 },
    });
  });
  Deno.test(`processor ${name}: null field is ${nullPresent ? "processed" : "missing"}`, () => {
    const yaml = `  - ${name}:\n      field: f${extra}\n      ignore_missing: true`;
    if (!nullPresent) return runProcessorCase({ name, yaml, input: { f: null }, output: { f: null } });
    // json_parse rejects null as a non-string; json_path and simple_extract write a null result.
    if (name === "json_parse") {
      return runProcessorCase({ name, yaml, input: { f: null }, runError: "must be a string" });
    }
    const out = { f: null };
    runProcessorCase({ name, yaml, input: { f: null }, output: out });
  });
}

Deno.test("processor: field names of Object.prototype members are ordinary missing fields", () => {
  runProcessorCase({
    name: "toString",
    yaml: "  - letter:\n      field: toString",
    input: {},
    runError: "Processor letter: missing field: toString",
  });
  runProcessorCase({
    name: "constructor",
    yaml:
      "  - filter:\n      field: constructor\n      targets: [x]\n  - simple_extract:\n      field: o, v\n      key: toString",
    input: { o: {} },
    output: { o: {}, v: null },
  });
});
