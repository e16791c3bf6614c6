/** Data-driven cases for the parsing processors: csv, date, dissect, json_path (reference §4.2, §4.3, §4.6, §4.12). */
import { Timestamp } from "../../engine/value.ts";
import { type ProcessorCase, runProcessorCase } from "./helpers.ts";

const CASES: ProcessorCase[] = [
  // ---- csv (§4.2)
  {
    name: "csv basic with target_fields",
    yaml: "  - csv:\n      field: d\n      target_fields: a, b ,c",
    input: { d: '1,"x,""y""",3\n4,5,6' },
    output: { d: '1,"x,""y""",3\n4,5,6', a: "1", b: 'x,"y"', c: "3" },
  },
  {
    name: "csv more targets than values: null, or empty_value",
    yaml: "  - csv:\n      field: d\n      target_fields: a,b,c\n      empty_value: E",
    input: { d: "1,,2" },
    output: { d: "1,,2", a: "1", b: "", c: "2" },
  },
  {
    name: "csv missing values get empty_value",
    yaml: "  - csv:\n      field: d\n      target_fields: a,b,c\n      empty_value: E",
    input: { d: "1" },
    output: { d: "1", a: "1", b: "E", c: "E" },
  },
  {
    name: "csv missing values are null without empty_value",
    yaml: "  - csv:\n      field: d\n      target_fields: a,b",
    input: { d: "1" },
    output: { d: "1", a: "1", b: null },
  },
  {
    name: "csv separator, quote and trim",
    yaml:
      "  - csv:\n      field: d\n      target_fields: a,b\n      separator: ';'\n      quote: \"'\"\n      trim: true",
    input: { d: "'x;y' ; z " },
    output: { d: "'x;y' ; z ", a: "x;y", b: "z" },
  },
  {
    name: "csv separator must be one byte",
    yaml: "  - csv:\n      field: d\n      separator: ';;'",
    input: {},
    compileError: "Separator 'separator' must be a single character, but got ';;'",
  },
  {
    name: "csv quote must be one byte",
    yaml: "  - csv:\n      field: d\n      quote: 'ab'",
    input: {},
    compileError: "Quote 'quote' must be a single character, but got 'ab'",
  },
  {
    name: "csv empty input",
    yaml: "  - csv:\n      field: d\n      target_fields: a",
    input: { d: "" },
    runError: "Expected at least one record from csv format, but got none",
  },

  // ---- date (§4.3)
  {
    name: "date with builtin formats",
    yaml: "  - date:\n      field: t",
    input: { t: "2024-05-25T20:16:37+08:00" },
    output: { t: "ts:2024-05-25T12:16:37Z" },
  },
  {
    name: "date repeated text reuses the parsed instant",
    yaml: "  - date:\n      fields: [a, b, c]\n      formats: ['%Y-%m-%d %H:%M']",
    input: { a: "2024-05-25 10:00", b: "2024-05-25 10:00", c: "2024-05-25 10:01" },
    output: { a: "ts:2024-05-25T10:00:00Z", b: "ts:2024-05-25T10:00:00Z", c: "ts:2024-05-25T10:01:00Z" },
  },
  {
    name: "date builtin naive with fraction",
    yaml: "  - date:\n      field: t",
    input: { t: "2024-05-25T20:16:37.217" },
    output: { t: "ts:2024-05-25T20:16:37.217Z" },
  },
  {
    name: "date custom format with rename and timezone",
    yaml:
      "  - date:\n      field: t, ts\n      formats: ['%Y-%m-%d %H:%M:%S']\n      timezone: Asia/Shanghai\n      locale: en_US",
    input: { t: "2024-05-25 20:16:37" },
    output: { t: "2024-05-25 20:16:37", ts: "ts:2024-05-25T12:16:37Z" },
  },
  {
    name: "date literal Z is local time in timezone",
    yaml:
      "  - date:\n      field: t\n      formats: ['%Y-%m-%dT%H:%M:%S%.3fZ']\n      timezone: Asia/Shanghai",
    input: { t: "2024-06-27T06:13:36.991Z" },
    output: { t: "ts:2024-06-26T22:13:36.991Z" },
  },
  {
    name: "date nginx format with offset and month name",
    yaml: "  - date:\n      field: t\n      formats: ['%d/%b/%Y:%H:%M:%S %z']",
    input: { t: "25/may/2024:20:16:37 -0130" },
    output: { t: "ts:2024-05-25T21:46:37Z" },
  },
  {
    name: "date short numbers and compact format",
    yaml: "  - date:\n      fields: [a, b]\n      formats: ['%Y-%m-%d %H:%M', '%Y%m%d%H%M%S']",
    input: { a: "2014-5-7 3:04", b: "20240525201637" },
    output: { a: "ts:2014-05-07T03:04:00Z", b: "ts:2024-05-25T20:16:37Z" },
  },
  {
    name: "date epoch seconds %s and 12-hour clock",
    yaml: "  - date:\n      fields: [a, b]\n      formats: ['%s', '%Y-%m-%d %I:%M %p']",
    input: { a: "1716668197", b: "2024-05-25 08:16 PM" },
    output: { a: "ts:2024-05-25T20:16:37Z", b: "ts:2024-05-25T20:16:00Z" },
  },
  {
    name: "date without time fails",
    yaml: "  - date:\n      field: t\n      formats: ['%Y-%m-%d']",
    input: { t: "2024-05-25" },
    runError: "Processor date: failed to parse 2024-05-25",
  },
  {
    name: "date trailing input fails",
    yaml: "  - date:\n      field: t\n      formats: ['%Y-%m-%d %H:%M']",
    input: { t: "2024-05-25 10:00x" },
    runError: "Processor date: failed to parse 2024-05-25 10:00x",
  },
  {
    name: "date bad timezone fails lazily",
    yaml: "  - date:\n      field: t\n      formats: ['%Y-%m-%d %H:%M']\n      timezone: Mars/Base",
    input: { t: "2024-05-25 10:00" },
    runError: "Parse date timezone error Mars/Base",
  },
  {
    // GreptimeDB resolves the zone before trying any format: a zoned value does not bypass it.
    name: "date bad timezone fails for a value with its own offset too",
    yaml: "  - date:\n      field: t\n      formats: ['%Y-%m-%d %H:%M%z']\n      timezone: Mars/Base",
    input: { t: "2024-05-25 10:00+0800" },
    runError: "Parse date timezone error Mars/Base",
  },
  {
    name: "date bad timezone is named before a value no format parses",
    yaml: "  - date:\n      field: t\n      formats: ['%Y-%m-%d %H:%M']\n      timezone: Mars/Base",
    input: { t: "not a date" },
    runError: "Parse date timezone error Mars/Base",
  },
  {
    name: "date fixed-offset timezone is not a zone name",
    yaml: "  - date:\n      field: t\n      formats: ['%Y-%m-%d %H:%M']\n      timezone: '+08:00'",
    input: { t: "2024-05-25 10:00" },
    runError: "Parse date timezone error +08:00",
  },
  {
    name: "date non-existent local time (DST gap) fails",
    yaml: "  - date:\n      field: t\n      formats: ['%Y-%m-%d %H:%M']\n      timezone: America/New_York",
    input: { t: "2024-03-10 02:30" },
    runError: "Processor date: failed to parse",
  },
  {
    name: "date user formats sorted: first sorted match wins",
    yaml: "  - date:\n      field: t\n      formats: ['%Y-%m-%d %H:%M:%S%.f', '%Y-%m-%d %H:%M:%S']",
    input: { t: "2024-05-25 20:16:37" },
    output: { t: "ts:2024-05-25T20:16:37Z" },
  },
  {
    name: "date non-string",
    yaml: "  - date:\n      field: t",
    input: { t: 1 },
    runError: "Processor date: expect string value, but got Integer(1)",
  },

  // ---- dissect (§4.6)
  {
    name: "dissect reference example with append, order, padding and skip",
    yaml:
      "  - dissect:\n      field: m\n      pattern: '%{key1} %{key2} %{+key3} %{+key3/2} %{key5->} %{?key6}'",
    input: { m: "key1 key2 key3 key4 key5       key6" },
    output: {
      m: "key1 key2 key3 key4 key5       key6",
      key1: "key1",
      key2: "key2",
      key3: "key3 key4",
      key5: "key5",
    },
  },
  {
    name: "dissect append order and custom separator",
    yaml: "  - dissect:\n      field: m\n      pattern: '%{+a/2} %{+a/1} %{b}'\n      append_separator: '-'",
    input: { m: "x y z" },
    output: { m: "x y z", a: "y-x", b: "z" },
  },
  {
    name: "dissect patterns: first match wins, rename ignored",
    yaml: "  - dissect:\n      field: m, ignored\n      patterns: ['%{a}|%{b}', '%{c} %{d}']",
    input: { m: "1 2" },
    output: { m: "1 2", c: "1", d: "2" },
  },
  {
    name: "dissect trailing input ignored; reference keys dropped",
    yaml: "  - dissect:\n      field: m\n      pattern: '[%{ts}] %{*k}=%{&k}'",
    input: { m: "[x] a=b" },
    output: { m: "[x] a=b", ts: "x" },
  },
  {
    name: "dissect empty last name emits empty key",
    yaml: "  - dissect:\n      field: m\n      pattern: '%{a} %{}'",
    input: { m: "x rest of it" },
    output: { m: "x rest of it", a: "x", "": "rest of it" },
  },
  {
    name: "dissect no match",
    yaml: "  - dissect:\n      field: m\n      pattern: '%{a}|%{b}'",
    input: { m: "no pipe" },
    runError: "No matching pattern found",
  },
  {
    name: "dissect empty pattern",
    yaml: "  - dissect:\n      field: m\n      pattern: ''",
    input: {},
    compileError: "Empty pattern is not allowed",
  },
  {
    name: "dissect consecutive names",
    yaml: "  - dissect:\n      field: m\n      pattern: '%{a}%{b}'",
    input: {},
    compileError: "Invalid Pattern: '%{a}%{b}'. consecutive names are not allowed: 'a' 'b'",
  },
  {
    name: "dissect unclosed",
    yaml: "  - dissect:\n      field: m\n      pattern: '%{a'",
    input: {},
    compileError: "'ident' is not closed",
  },
  {
    name: "dissect bad padding",
    yaml: "  - dissect:\n      field: m\n      pattern: '%{a-} x'",
    input: {},
    compileError: "Expected '->' but only '-'",
  },
  {
    name: "dissect order without append",
    yaml: "  - dissect:\n      field: m\n      pattern: '%{clientip/1} x'",
    input: {},
    compileError: "Invalid '/' in 'clientip'",
  },
  {
    name: "dissect only modifier",
    yaml: "  - dissect:\n      field: m\n      pattern: '%{+} x'",
    input: {},
    compileError: "only '+' modifier is invalid",
  },
  {
    name: "dissect two start modifiers",
    yaml: "  - dissect:\n      field: m\n      pattern: '%{+?x} y'",
    input: {},
    compileError: "Invalid '?'",
  },
  {
    name: "dissect digit order required",
    yaml: "  - dissect:\n      field: m\n      pattern: '%{+x/} y'",
    input: {},
    compileError: "Digit order must be set after '/'",
  },
  {
    name: "dissect unmatched reference key",
    yaml: "  - dissect:\n      field: m\n      pattern: '%{*ip1} %{*ip2}'",
    input: {},
    compileError: "key and value not matched: 'ip1,ip2'",
  },

  // ---- json_path (§4.12)
  {
    name: "json_path filter",
    yaml: "  - json_path:\n      field: o, ids\n      json_path: '$.shop.orders[?(@.active)].id'",
    input: {
      o: { shop: { orders: [{ id: 1, active: true }, { id: 2 }, { id: 3 }, { id: 4, active: true }] } },
    },
    output: {
      o: { shop: { orders: [{ id: 1, active: true }, { id: 2 }, { id: 3 }, { id: 4, active: true }] } },
      ids: [1, 4],
    },
  },
  {
    name: "json_path result_index",
    yaml:
      "  - json_path:\n      field: o, id\n      json_path: '$.shop.orders[?(@.active)].id'\n      result_index: 1",
    input: { o: { shop: { orders: [{ id: 1, active: true }, { id: 4, active: true }] } } },
    output: { o: { shop: { orders: [{ id: 1, active: true }, { id: 4, active: true }] } }, id: 4 },
  },
  {
    name: "json_path comparisons, slices, recursive descent, index out of range",
    yaml: [
      "  - json_path:\n      field: o, a\n      json_path: \"$.items[?(@.n > 1 && @.t == 'x')].n\"",
      "  - json_path:\n      field: o, b\n      json_path: '$.items[0:2].n'",
      "  - json_path:\n      field: o, c\n      json_path: '$..n'",
      "  - json_path:\n      field: o, d\n      json_path: '$.items[*].n'\n      result_index: 9",
    ].join("\n"),
    input: { o: { items: [{ n: 1, t: "x" }, { n: 2, t: "x" }, { n: 3, t: "y" }] } },
    output: {
      o: { items: [{ n: 1, t: "x" }, { n: 2, t: "x" }, { n: 3, t: "y" }] },
      a: [2],
      b: [1, 2],
      c: [1, 2, 3],
      d: null,
    },
  },
  {
    name: "json_path required",
    yaml: "  - json_path:\n      field: o",
    input: {},
    compileError: "Processor json_path: missing field: json_path",
  },
  {
    name: "json_path parse error",
    yaml: "  - json_path:\n      field: o\n      json_path: 'x.y'",
    input: {},
    compileError: "Parse json path error",
  },
  {
    name: "json_path index not number",
    yaml: "  - json_path:\n      field: o\n      json_path: '$.a'\n      result_index: x",
    input: {},
    compileError: "Json path result index not number",
  },
];

for (const c of CASES) Deno.test(`processor: ${c.name}`, () => runProcessorCase(c));

Deno.test("epoch: fast and exact paths agree at every resolution", () => {
  for (
    const [res, n] of [["s", 1716668197], ["ms", -1716668197217], ["us", 1716668197217001], [
      "ns",
      1716668197217000,
    ]]
  ) {
    const big = BigInt(n) *
      ({ s: 1_000_000_000n, ms: 1_000_000n, us: 1000n, ns: 1n } as Record<string, bigint>)[res as string];
    runProcessorCase({
      name: `epoch ${res}`,
      yaml: `  - epoch:\n      fields: [a, b]\n      resolution: ${res}`,
      input: { a: n, b: String(n) },
      output: { a: "ts:" + Timestamp.fromNs(big).toRfc3339(), b: "ts:" + Timestamp.fromNs(big).toRfc3339() },
    });
  }
});
