/**
 * Processor claims of pipelines.md §4 checked line by line (the conformance audit): one row per claim
 * not already pinned in processors_test.ts. Rows are `[claim, processor YAML (flow map), input, expected]`;
 * expected is what the processor changes in the entry, the whole entry (`{exact}`), null when dropped,
 * or `{run}`/`{compile}` error substrings.
 */
import { type ProcessorCase, runProcessorCase } from "./helpers.ts";

/** Keys merged over the input, `{exact}` for the whole entry, null for dropped, or an error substring. */
type Expected = Record<string, unknown> | null | { exact: Record<string, unknown> } | { run: string } | {
  compile: string;
};
type Row = [string, string, Record<string, unknown>, Expected];

const ROWS: Row[] = [
  // §3.1 processor items
  ["an empty processor map has no name", "{}", {}, { compile: "Processor must have a string key" }],
  // §4.1 cmcd
  ["cmcd: a boolean key is true whatever its value", "cmcd: {field: c}", { c: "bs=false" }, { c_bs: true }],
  ["cmcd: parts after a second = are ignored", "cmcd: {field: c}", { c: "sid=a=b" }, { c_sid: "a" }],
  ["cmcd: duplicate keys, last wins", "cmcd: {field: c}", { c: "br=1,br=2" }, { c_br: 2 }],
  ["cmcd: keys are case-sensitive", "cmcd: {field: c}", { c: "BR=1" }, {}],
  ["cmcd: an int may carry a + sign", "cmcd: {field: c}", { c: "br=+5" }, { c_br: 5 }],
  ["cmcd: pr uses Rust float syntax (1.)", "cmcd: {field: c}", { c: "pr=1." }, { c_pr: 1 }],
  ["cmcd: a string key needs a value", "cmcd: {field: c}", { c: "sid" }, {
    run: "Cmcd sid missing value in sid",
  }],
  ["cmcd: input must be a string", "cmcd: {field: c}", { c: 1 }, {
    run: "Processor cmcd: expect string value, but got Integer(1)",
  }],
  // §4.2 csv
  ["csv: extra values ignored", "csv: {field: c, target_fields: 'a,b'}", { c: "1,2,3" }, { a: "1", b: "2" }],
  [
    "csv: an empty inner field is '' not empty_value",
    "csv: {field: c, target_fields: 'a,b,d', empty_value: E}",
    {
      c: "1,,3",
    },
    { a: "1", b: "", d: "3" },
  ],
  ["csv: without target_fields nothing is written", "csv: {field: c}", { c: "1,2" }, {}],
  ["csv: target names trimmed, empty ones dropped", "csv: {field: c, target_fields: ' a , ,b '}", {
    c: "1,2",
  }, {
    a: "1",
    b: "2",
  }],
  ['csv: "" inside quotes is a quote', "csv: {field: c, target_fields: 'a,b'}", { c: '"x""y",z' }, {
    a: 'x"y',
    b: "z",
  }],
  ["csv: only the first record", "csv: {field: c, target_fields: 'a,b'}", { c: "1,2\n3,4" }, {
    a: "1",
    b: "2",
  }],
  ["csv: the field rename is ignored", "csv: {field: 'c, d', target_fields: a}", { c: "1" }, { a: "1" }],
  ["csv: no backslash escapes", "csv: {field: c, target_fields: 'a,b'}", { c: "a\\,b" }, {
    a: "a\\",
    b: "b",
  }],
  ["csv: input must be a string", "csv: {field: c, target_fields: a}", { c: 1 }, {
    run: "Processor csv: expect string value",
  }],
  // §4.4 decolorize
  ["decolorize: rename; only SGR sequences removed", "decolorize: {field: 'a, b'}", {
    a: "\x1b[1;31mX\x1b[K",
  }, {
    b: "X\x1b[K",
  }],
  ["decolorize: input must be a string", "decolorize: {field: a}", { a: 1 }, {
    run: "Processor decolorize: expect string value",
  }],
  // §4.5 digest
  ["digest: numbers preset is Unicode \\d", "digest: {field: a, presets: [numbers]}", { a: "x١٢y3" }, {
    a_digest: "xy",
  }],
  ["digest: brackets need not correspond", "digest: {field: a, presets: [bracketed]}", {
    a: "a [content} b 【x】",
  }, { a_digest: "a  b " }],
  ["digest: quoted preset with typographic quotes", "digest: {field: a, presets: [quoted]}", {
    a: "say “hi” and 'x'",
  }, { a_digest: "say  and " }],
  ["digest: uuid preset", "digest: {field: a, presets: [uuid]}", {
    a: "id 123e4567-e89b-12d3-a456-426614174000.",
  }, {
    a_digest: "id .",
  }],
  ["digest: ip preset with a bracketed IPv6 and port", "digest: {field: a, presets: [ip]}", {
    a: "h [::1]:80 x",
  }, {
    a_digest: "h  x",
  }],
  // §4.6 dissect
  ["dissect: % not followed by { is literal", "dissect: {field: a, pattern: '%{x}%%{y}'}", { a: "1%2" }, {
    x: "1",
    y: "2",
  }],
  ["dissect: names cannot contain '.'", "dissect: {field: a, pattern: '%{a.b}'}", {}, {
    compile: "Invalid Pattern",
  }],
  [
    "dissect: a value stops at the first char of the next split",
    "dissect: {field: a, pattern: '%{x}, %{y}'}",
    {
      a: "a,b, c",
    },
    { run: "No matching pattern found" },
  ],
  [
    "dissect: an appended value overrides a normal capture",
    "dissect: {field: a, pattern: '%{x} %{+x} %{x}'}",
    {
      a: "1 2 3",
    },
    { x: "2" },
  ],
  [
    "dissect: %{->} skips with padding",
    "dissect: {field: a, pattern: '%{x} %{->} %{y}'}",
    { a: "1 s    2" },
    {
      x: "1",
      y: "2",
    },
  ],
  ["dissect: ?name is matched, not emitted", "dissect: {field: a, pattern: '%{?x} %{y}'}", { a: "1 2" }, {
    y: "2",
  }],
  ["dissect: append separator defaults to a space", "dissect: {field: a, pattern: '%{+x} %{+x}'}", {
    a: "1 2",
  }, {
    x: "1 2",
  }],
  ["dissect: order set twice", "dissect: {field: a, pattern: '%{+x/1/2}'}", {}, {
    compile: "Append Order modifier is already set to '1', cannot be set to 2",
  }],
  ["dissect: pattern after patterns wins", "dissect: {field: a, patterns: ['%{x}-%{y}'], pattern: '%{z}'}", {
    a: "1-2",
  }, { z: "1-2" }],
  ["dissect: Unicode names", "dissect: {field: a, pattern: '%{名前} %{x}'}", { a: "1 2" }, {
    "名前": "1",
    x: "2",
  }],
  ["dissect: a split beyond the input fails", "dissect: {field: a, pattern: '[%{x}]'}", { a: "[1" }, {
    run: "No matching pattern found",
  }],
  // §4.7 epoch
  ["epoch: a Timestamp passes through", "date: {field: d}\n  - epoch: {field: d}", {
    d: "2024-05-25T20:16:37Z",
  }, {
    d: "ts:2024-05-25T20:16:37Z",
  }],
  ["epoch: floats truncate toward zero", "epoch: {field: e, resolution: s}", { e: -1.9 }, {
    e: "ts:1969-12-31T23:59:59Z",
  }],
  ["epoch: a string may carry a + sign", "epoch: {field: e, resolution: s}", { e: "+5" }, {
    e: "ts:1970-01-01T00:00:05Z",
  }],
  ["epoch: resolution names are case-sensitive", "epoch: {field: e, resolution: MS}", {}, {
    compile: "Invalid resolution: MS",
  }],
  ["epoch: booleans are unsupported", "epoch: {field: e}", { e: true }, {
    run: "Processor epoch: unsupported value Boolean(true)",
  }],
  ["epoch: no spaces in a string", "epoch: {field: e}", { e: " 5" }, { run: "Failed to parse  5 to int" }],
  ["epoch: micro resolution", "epoch: {field: e, resolution: micro}", { e: 1716668197217123 }, {
    e: "ts:2024-05-25T20:16:37.217123Z",
  }],
  // §4.8 filter
  [
    "filter: unknown mode and match_op are ignored",
    "filter: {field: l, targets: [x], mode: re, match_op: no}",
    {
      l: "X",
    },
    null,
  ],
  ["filter: empty targets are dropped", "filter: {field: l, targets: ['']}", {}, {
    compile: "Processor filter: missing field: targets",
  }],
  ["filter: Unicode lower-casing", "filter: {field: l, targets: [ÉRROR]}", { l: "érror" }, null],
  ["filter: any field triggers", "filter: {fields: [a, b], targets: [x]}", { a: "y", b: "x" }, null],
  ["filter: not_in with several fields", "filter: {fields: [a, b], targets: [x], match_op: not_in}", {
    a: "x",
    b: "y",
  }, null],
  ["filter: a non-string value errors", "filter: {field: a, targets: [x]}", { a: 1 }, {
    run: "Processor filter: expect string value, but got Integer(1)",
  }],
  // §4.9 gsub
  [
    "gsub: ${name} and $$",
    "gsub: {field: a, pattern: '(?P<n>\\d+)', replacement: '${n}$$'}",
    { a: "x12y3" },
    {
      a: "x12$y3$",
    },
  ],
  ["gsub: \\d is Unicode", "gsub: {field: a, pattern: '\\d', replacement: N}", { a: "1٣" }, { a: "NN" }],
  ["gsub: inline (?i)", "gsub: {field: a, pattern: '(?i)abc', replacement: '-'}", { a: "xABCy" }, {
    a: "x-y",
  }],
  ["gsub: input must be a string", "gsub: {field: a, pattern: x, replacement: y}", { a: 1 }, {
    run: "Processor gsub: expect string value",
  }],
  // §4.10 join
  ["join: null, nested arrays and objects", "join: {field: a, separator: '|'}", {
    a: [null, [1, 2], { b: 1, a: 2 }],
  }, { a: '<null>|[1,2]|{"a":2,"b":1}' }],
  // §4.11 json_parse
  ["json_parse: an array result", "json_parse: {field: 'a, b'}", { a: "[1,2]" }, { b: [1, 2] }],
  ["json_parse: a number input", "json_parse: {field: a}", { a: 5 }, { run: "Field 5 must be a string" }],
  // §4.12 json_path
  ["json_path: a filter matching nothing gives []", "json_path: {field: 'o, r', json_path: '$.a[?(@.x)]'}", {
    o: { a: [{ y: 1 }] },
  }, { r: [] }],
  [
    "json_path: strings are not parsed (nothing addressed: null)",
    "json_path: {field: 'o, r', json_path: '$.a'}",
    {
      o: '{"a":1}',
    },
    { r: null },
  ],
  ["json_path: a null value is processed", "json_path: {field: 'o, r', json_path: '$'}", { o: null }, {
    r: [null],
  }],
  ["json_path: key unions", "json_path: {field: 'o, r', json_path: \"$['a','b']\"}", { o: { a: 1, b: 2 } }, {
    r: [1, 2],
  }],
  ["json_path: length()", "json_path: {field: 'o, r', json_path: '$.a.length()'}", { o: { a: [1, 2, 3] } }, {
    r: [3],
  }],
  ["json_path: in", "json_path: {field: 'o, r', json_path: \"$.a[?(@.x in ['p','q'])].x\"}", {
    o: { a: [{ x: "p" }, { x: "z" }] },
  }, { r: ["p"] }],
  ["json_path: ~= regex", "json_path: {field: 'o, r', json_path: \"$.a[?(@.x ~= 'p.*')].x\"}", {
    o: { a: [{ x: "pz" }, { x: "z" }] },
  }, { r: ["pz"] }],
  ["json_path: '-' in a dot key", "json_path: {field: 'o, r', json_path: '$.a-b'}", { o: { "a-b": 1 } }, {
    r: [1],
  }],
  ["json_path: $.[1]", "json_path: {field: 'o, r', json_path: '$.[1]'}", { o: [5, 6] }, { r: [6] }],
  ["json_path: non-ASCII dot keys do not parse", "json_path: {field: o, json_path: '$.é'}", {}, {
    compile: "Parse json path error",
  }],
  // §4.13 letter
  ["letter: method is case-insensitive; ASCII only", "letter: {field: a, method: UPPER}", { a: "aé" }, {
    a: "Aé",
  }],
  ["letter: lower is the default", "letter: {field: a}", { a: "ÉA" }, { a: "Éa" }],
  ["letter: capital may expand (ß → SS)", "letter: {field: a, method: capital}", { a: "ßa" }, { a: "SSa" }],
  // §4.14 regex
  [
    "regex: later patterns overwrite; a group not taking part is absent",
    "regex: {field: a, patterns: " +
    "['(?<x>\\d+)(?<y>z)?', 'b(?<x>\\d)']}",
    { a: "12 b3" },
    { a_x: "3" },
  ],
  ["regex: the first match only", "regex: {field: a, pattern: '(?<x>\\d+)'}", { a: "1 2" }, { a_x: "1" }],
  ["regex: no match writes nothing", "regex: {field: a, pattern: '(?<x>\\d+)'}", { a: "z" }, {}],
  ["regex: an empty named group is not a named group", "regex: {field: a, pattern: '(?<x>)'}", {}, {
    compile: "No named group found in regex (?<x>)",
  }],
  ["regex: POSIX classes", "regex: {field: a, pattern: '(?<x>[[:alpha:]]+)'}", { a: "12ab3" }, { a_x: "ab" }],
  ["regex: look-ahead is refused", "regex: {field: a, pattern: '(?<x>a(?=b))'}", {}, {
    compile: "Invalid regex pattern",
  }],
  // §4.15 select
  ["select: include without fields removes every key", "select: {type: include}", { a: 1 }, { exact: {} }],
  ["select: exclude ignores renames", "select: {type: exclude, fields: ['a, b']}", { a: 1, b: 2, c: 3 }, {
    exact: { b: 2, c: 3 },
  }],
  // §4.16 simple_extract
  ["simple_extract: no key copies the value", "simple_extract: {field: 'a, b'}", { a: { x: 1 } }, {
    b: { x: 1 },
  }],
  ["simple_extract: no array indexing", "simple_extract: {field: 'a, b', key: x.0}", { a: { x: [1] } }, {
    b: null,
  }],
  ["simple_extract: a null value is processed", "simple_extract: {field: 'a, b', key: x}", { a: null }, {
    b: null,
  }],
  // §4.17 urlencoding
  ["urlencoding: encode keeps only alnum and -._~", "urlencoding: {field: a, method: encode}", {
    a: "a b/é~-._*",
  }, {
    a: "a%20b%2F%C3%A9~-._%2A",
  }],
  ["urlencoding: decode keeps +, malformed %, lower-case hex", "urlencoding: {field: a}", {
    a: "a+b%2f%zz%4",
  }, {
    a: "a+b/%zz%4",
  }],
  ["urlencoding: method is case-sensitive", "urlencoding: {field: a, method: Encode}", {}, {
    compile: "Invalid method: Encode",
  }],
];

function toCase([name, yaml, input, expected]: Row): ProcessorCase {
  const c: ProcessorCase = { name, yaml: `  - ${yaml}`, input };
  if (expected === null) c.output = null;
  else if ("run" in expected) c.runError = expected.run as string;
  else if ("compile" in expected) c.compileError = expected.compile as string;
  else if ("exact" in expected) c.output = expected.exact;
  else c.output = { ...input, ...expected };
  return c;
}

for (const row of ROWS) Deno.test(`conformance §4 ${row[0]}`, () => runProcessorCase(toCase(row)));
