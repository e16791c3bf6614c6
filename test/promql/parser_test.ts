/** Parser cases: input → printed form, or → Prometheus' error text; plus the parse_query JSON tree. */
import assert from "node:assert/strict";
import { astJson } from "../../src/promql/ast_json.ts";
import { ParseError } from "../../src/promql/parse_error.ts";
import { parseExpr } from "../../src/promql/parser.ts";
import { prettify } from "../../src/promql/prettify.ts";
import { exprString } from "../../src/promql/printer.ts";
import { promErrorType } from "../../src/promql/errors.ts";

/** [input, printed form]. */
const PRINTED: [string, string][] = [
  ["foo/bar", "foo / bar"],
  ["SUM(foo) BY (a)", "sum by (a) (foo)"],
  ["sum without(a,) (foo)", "sum without (a) (foo)"],
  ["sum by () (foo)", "sum(foo)"],
  ["topk(3, foo)", "topk(3, foo)"],
  ['count_values("v", foo)', 'count_values("v", foo)'],
  ["foo{b='2',a=\"1\"}", 'foo{a="1",b="2"}'],
  ['{__name__="foo"}', '{__name__="foo"}'],
  ['{__name__=~"foo|bar"}', '{__name__=~"foo|bar"}'],
  ['{"foo"}', "foo"],
  ['{"foo", a="b"}', 'foo{a="b"}'],
  ["foo offset 5m", "foo offset 5m"],
  ["foo offset -1h30m", "foo offset -1h30m"],
  ["foo @ 100", "foo @ 100.000"],
  ["foo @ -1.5", "foo @ -1.500"],
  ["foo @ start()", "foo @ start()"],
  ["foo offset 1m @ end()", "foo @ end() offset 1m"],
  ["foo[5m] offset 1m", "foo[5m] offset 1m"],
  ["foo[90m]", "foo[1h30m]"],
  ["foo[7d]", "foo[1w]"],
  ["foo[8d]", "foo[8d]"],
  ["foo[365d]", "foo[1y]"],
  ["foo[1500ms]", "foo[1s500ms]"],
  ["foo[5m:]", "foo[5m:]"],
  ["foo[5m:30s] @ 10 offset 1m", "foo[5m:30s] @ 10.000 offset 1m"],
  ["rate(foo[5m])[1h:1m]", "rate(foo[5m])[1h:1m]"],
  ["a + on(x) group_left(y) b", "a + on (x) group_left (y) b"],
  ["a + ignoring(x) group_right b", "a + ignoring (x) group_right () b"],
  ["a == bool b", "a == bool b"],
  ["a > bool on() b", "a > bool on () b"],
  ["a and on(x) b", "a and on (x) b"],
  ["a or b unless c", "a or b unless c"],
  ["-foo", "-foo"],
  ["-(foo)", "-(foo)"],
  ["- 1", "-1"],
  ["+1", "1"],
  ["-2 ^ 2", "-2 ^ 2"],
  ["2 ^ -1", "2 ^ -1"],
  ["0x1F", "31"],
  ["010", "8"],
  ["1e3", "1000"],
  [".5", "0.5"],
  ["5.", "5"],
  ["1e6", "1e+06"],
  ["0.00001", "1e-05"],
  ["inf", "+Inf"],
  ["-Inf", "-Inf"],
  ["nan", "NaN"],
  ['"a\\tb"', '"a\\tb"'],
  ["'it\\'s'", '"it\'s"'],
  ["`raw\\n`", '"raw\\\\n"'],
  ['"\\u00e9\\x41\\101"', '"éAA"'],
  ["foo # a comment", "foo"],
  ["sum(\n  foo\n)", "sum(foo)"],
  ["foo:bar:rate5m", "foo:bar:rate5m"],
  ['on{a="b"}', 'on{a="b"}'],
  ["sum by (on, by) (foo)", "sum by (on, by) (foo)"],
  // Prometheus 3: durations as numbers and numbers as durations.
  ["time() - 1h", "time() - 1h"],
  ["foo offset 5", "foo offset 5s"],
  ["foo[300]", "foo[5m]"],
  ["-5m", "-5m"],
];

/** [input, error message]. */
const ERRORS: [string, string][] = [
  ["", "1:1: parse error: no expression found in input"],
  ["foo +", "1:6: parse error: unexpected end of input"],
  ["sum(", "1:5: parse error: unclosed left parenthesis"],
  ["foo{", "1:5: parse error: unexpected end of input inside braces"],
  [
    "rate(foo)",
    '1:6: parse error: expected type range vector in call to function "rate", got instant vector',
  ],
  [
    "sum by (job) (rate(foo))",
    '1:20: parse error: expected type range vector in call to function "rate", got instant vector',
  ],
  ["rate(foo[5m], 1)", '1:1: parse error: expected 1 argument(s) in call to "rate", got 2'],
  ["round(foo, 1, 2)", '1:1: parse error: expected at most 2 argument(s) in call to "round", got 3'],
  ["label_join(foo)", '1:1: parse error: expected at least 3 argument(s) in call to "label_join", got 1'],
  ["{}", "1:1: parse error: vector selector must contain at least one non-empty matcher"],
  ['{a=""}', "1:1: parse error: vector selector must contain at least one non-empty matcher"],
  ["foo[5m] + 1", "1:1: parse error: binary expression must contain only scalar and instant vector types"],
  ["1 == 1", "1:3: parse error: comparisons between scalars must use BOOL modifier"],
  ["foo offset 1m offset 2m", "1:1: parse error: offset may not be set multiple times"],
  ["foo @ 1 @ 2", "1:1: parse error: @ <timestamp> may not be set multiple times"],
  [
    "sum(foo) offset 1m",
    "1:1: parse error: offset modifier must be preceded by an instant vector selector or range vector selector or a subquery",
  ],
  ["(foo)[5m]", "1:6: parse error: ranges only allowed for vector selectors"],
  ["foo offset 1m [5m]", "1:15: parse error: no offset modifiers allowed before range"],
  ["foo[1m:][5m:]", "1:1: parse error: subquery is only allowed on instant vector, got matrix instead"],
  ['"abc', "1:1: parse error: unterminated quoted string"],
  ["'abc\\q'", "1:1: parse error: unknown escape sequence U+0071 'q'"],
  ["foo bar", '1:5: parse error: unexpected identifier "bar"'],
  ["1 + * 2", "1:5: parse error: unexpected <op:*>"],
  ["foo bool", "1:5: parse error: unexpected <bool>"],
  ["sum(foo) by", '1:12: parse error: unexpected end of input in grouping opts, expected "("'],
  ['foo{a="b" c="d"}', '1:11: parse error: unexpected identifier "c" in label matching, expected "," or "}"'],
  ["foo{a}", '1:6: parse error: unexpected "}" in label matching, expected label matching operator'],
  ["nosuchfn(foo)", '1:1: parse error: unknown function with name "nosuchfn"'],
  [
    "topk(foo)",
    "1:1: parse error: wrong number of arguments for aggregate expression provided, expected 2, got 1",
  ],
  ["abs(foo,)", "1:8: parse error: trailing commas not allowed in function call args"],
  ["foo\n  + bar(", "2:9: parse error: unclosed left parenthesis"],
  ["0x", '1:1: parse error: error parsing number: strconv.ParseFloat: parsing "0x": invalid syntax'],
];

Deno.test("parser: printed forms", () => {
  for (const [input, want] of PRINTED) {
    const e = parseExpr(input);
    assert.equal(exprString(e), want, input);
    // The printed form parses back to the same text.
    assert.equal(exprString(parseExpr(want)), want, `reparse of ${want}`);
  }
});

Deno.test("parser: errors carry Prometheus' text and the bad_data kind", () => {
  for (const [input, want] of ERRORS) {
    assert.throws(() => parseExpr(input), (e: unknown) => {
      assert.ok(e instanceof ParseError, `${input}: ${e}`);
      assert.equal(e.message, want, input);
      assert.equal(promErrorType(e), "bad_data");
      assert.equal(e.code, 1004);
      return true;
    });
  }
});

Deno.test("parser: parse_query JSON as Prometheus' translateAST", () => {
  assert.deepEqual(astJson(parseExpr('http_requests{job="a"} offset 1m')), {
    matchers: [{ name: "job", type: "=", value: "a" }, {
      name: "__name__",
      type: "=",
      value: "http_requests",
    }],
    name: "http_requests",
    offset: 60000,
    startOrEnd: null,
    timestamp: null,
    type: "vectorSelector",
  });
  const tree = astJson(parseExpr("sum by (job) (rate(x[5m] @ end())) > bool on(job) 2 * y"));
  assert.equal(
    JSON.stringify(tree),
    '{"bool":true,"lhs":{"expr":{"args":[{"matchers":[{"name":"__name__","type":"=","value":"x"}],"name":"x",' +
      '"offset":0,"range":300000,"startOrEnd":"end","timestamp":null,"type":"matrixSelector"}],"func":{"argTypes":["matrix"],' +
      '"name":"rate","returnType":"vector","variadic":0},"type":"call"},"grouping":["job"],"op":"sum","param":null,' +
      '"type":"aggregation","without":false},"matching":{"card":"one-to-one","include":[],"labels":["job"],"on":true},' +
      '"op":">","rhs":{"bool":false,"lhs":{"type":"numberLiteral","val":"2"},"matching":null,"op":"*","rhs":{"matchers":' +
      '[{"name":"__name__","type":"=","value":"y"}],"name":"y","offset":0,"startOrEnd":null,"timestamp":null,' +
      '"type":"vectorSelector"},"type":"binaryExpr"},"type":"binaryExpr"}',
  );
  assert.deepEqual(astJson(parseExpr("foo[1h:5m] @ 10")), {
    expr: {
      matchers: [{ name: "__name__", type: "=", value: "foo" }],
      name: "foo",
      offset: 0,
      startOrEnd: null,
      timestamp: null,
      type: "vectorSelector",
    },
    offset: 0,
    range: 3_600_000,
    startOrEnd: null,
    step: 300_000,
    timestamp: 10_000,
    type: "subquery",
  });
});

Deno.test("parser: prettify splits long expressions", () => {
  assert.equal(prettify(parseExpr("foo/bar")), "foo / bar");
  const long =
    'sum by (job) (rate(http_requests_total{job="api-server",instance="a-very-long-instance-name:9090"}[5m]))';
  assert.equal(
    prettify(parseExpr(long)),
    'sum by (job) (\n  rate(http_requests_total{instance="a-very-long-instance-name:9090",job="api-server"}[5m])\n)',
  );
});
