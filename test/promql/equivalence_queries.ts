/**
 * The query corpus of the equivalence test: every function, operator and aggregation Prometheus
 * 2.42 and 3 agree on. What differs between them, or what 2.42 lacks, is listed in
 * {@link NOT_IN_CORPUS} and pinned by the promqltest scripts in testdata/ instead.
 */

/** Functions, operators and behaviours left out of the comparison, and why. */
export const NOT_IN_CORPUS: Record<string, string> = {
  limitk: "not in Prometheus 2.42 (3.0, experimental): aggregators.test",
  limit_ratio: "not in Prometheus 2.42 (3.0, experimental): aggregators.test",
  double_exponential_smoothing: "named holt_winters in 2.42 (compared under that name): range_functions.test",
  sort_by_label: "not in Prometheus 2.42 (2.50): functions.test",
  sort_by_label_desc: "not in Prometheus 2.42 (2.50): functions.test",
  mad_over_time: "not in Prometheus 2.42 (2.51): range_functions.test",
  first_over_time: "not in Prometheus 2.42 (3.x, experimental): range_functions.test",
  "windows and lookback": "2.42 closes them at both ends, 3 opens them at the start: selectors.test",
  "subquery alignment":
    "2.42 includes a step at exactly t - range, 3 does not: selectors.test (corpus uses off-grid times)",
  "rate near zero":
    "3 clamps the zero point after choosing the extrapolation: range_functions.test (corpus counters start high)",
  "durations as numbers": "3 only (`offset 5`, `time() - 1h`): parser_test.ts",
  "atan2 and the metric name":
    "2.42 keeps it, 3 drops it as for other arithmetic: operators.test (corpus compares -(a atan2 b))",
  "ties in topk/bottomk": "which of equal values wins depends on Prometheus' map order: corpus avoids ties",
};

const SELECTORS = [
  "http_requests_total",
  'http_requests_total{job="api"}',
  'http_requests_total{job!="api",method=~"g.*"}',
  'http_requests_total{instance!~"i-[01]"}',
  '{__name__="up"}',
  '{__name__=~"temperature.*|disk_free_bytes"}',
  "temperature_celsius",
  "up",
  "flappy",
  "gone_series",
  "late_series",
  "odd_values",
  "node_info",
  "http_requests_total offset 5m",
  "http_requests_total offset -2m",
  "temperature_celsius @ 1700001000",
  // RE2 spellings JS lacks: POSIX classes, \pL, (?P<name>), \Q…\E, \A and \z.
  'up{instance=~"i-[[:digit:]]",job=~`\\pL+`}',
  "up{job=~`\\A(?P<j>a)\\Qp\\Ei\\z`,instance!~`[^[:alpha:]]-\\p{^Greek}`}",
  // Go's flag groups anywhere, scoped and negated; negated POSIX classes; \x{…}, octal; counts.
  "up{job=~`a(?i)PI|W(?i:E)b`,instance=~`(?-s:i)(?i)\\x{2D}[[:^alpha:]]`}",
  "up{job=~`(?i)API(?-i)|(?U)w.+`,instance=~`\\151\\x2d\\d{1,1000}`}",
  "up{job!~`(?s-i:A).*|w\\PN{2}\\b`,instance=~`i\\b-\\b\\pN`}",
  'label_replace(up, "x", "$1$j", "job", `(?i)(A)(?P<j>\\x{50})?.*`)',
  "up{job=~`(?P<n>a)(?P<n>p)i|w(?i)E*b`}",
];

const RANGE_FUNCS = [
  "rate",
  "increase",
  "delta",
  "irate",
  "idelta",
  "deriv",
  "changes",
  "resets",
  "avg_over_time",
  "sum_over_time",
  "count_over_time",
  "min_over_time",
  "max_over_time",
  "stddev_over_time",
  "stdvar_over_time",
  "last_over_time",
  "present_over_time",
];

/** PromQL's element-wise math functions (the fuzz script picks from them too). */
export const MATH = [
  "abs",
  "ceil",
  "floor",
  "exp",
  "sqrt",
  "ln",
  "log2",
  "log10",
  "sgn",
  "sin",
  "cos",
  "tan",
  "asin",
  "acos",
  "atan",
  "sinh",
  "cosh",
  "tanh",
  "asinh",
  "acosh",
  "atanh",
  "deg",
  "rad",
  "round",
];

const AGGS = ["sum", "avg", "min", "max", "count", "group", "stddev", "stdvar"];

/** Queries evaluated at {@link INSTANTS} and over {@link RANGES}. */
export function corpus(): string[] {
  const q: string[] = [...SELECTORS];
  for (const f of RANGE_FUNCS) {
    for (
      const sel of [
        "http_requests_total[5m]",
        "temperature_celsius[10m]",
        "odd_values[3m]",
        "flappy[5m] offset 1m",
      ]
    ) {
      q.push(`${f}(${sel})`);
    }
  }
  q.push(
    "rate(http_requests_total[1m])",
    "rate(http_requests_total[30s])",
    "rate(late_series[10m])",
    "rate(gone_series[10m])",
    "increase(http_requests_total[1h])",
    "rate(http_requests_total[5m] @ 1700001000)",
    "quantile_over_time(0.9, temperature_celsius[10m])",
    "quantile_over_time(0, temperature_celsius[10m])",
    "quantile_over_time(1.5, temperature_celsius[10m])",
    "quantile_over_time(0.5, odd_values[5m])",
    "predict_linear(disk_free_bytes[15m], 3600)",
    "predict_linear(temperature_celsius[10m], 600)",
    "holt_winters(temperature_celsius[10m], 0.3, 0.6)",
    "holt_winters(disk_free_bytes[10m], 0.5, 0.5)",
    "absent_over_time(nonexistent[5m])",
    'absent_over_time(nonexistent{job="x",a=~"b"}[5m])',
    "absent_over_time(gone_series[5m])",
    "absent_over_time(up[5m])",
  );
  for (const f of MATH) q.push(`${f}(temperature_celsius / 30)`, `${f}(odd_values)`);
  q.push(
    "round(temperature_celsius, 0.5)",
    "round(temperature_celsius, 3)",
    "clamp(temperature_celsius, 15, 25)",
    "clamp(temperature_celsius, 25, 15)",
    "clamp_min(temperature_celsius, 20)",
    "clamp_max(temperature_celsius, 20)",
    "clamp_max(odd_values, 0)",
    // Go's math.Min/Max: an infinity wins over NaN.
    "clamp(odd_values, 25, NaN)",
    "clamp(odd_values, NaN, -1)",
    "clamp_min(odd_values, NaN)",
    "clamp_max(odd_values, NaN)",
    "exp(temperature_celsius)",
    "ln(disk_free_bytes)",
  );
  for (
    const f of [
      "day_of_month",
      "day_of_week",
      "day_of_year",
      "days_in_month",
      "hour",
      "minute",
      "month",
      "year",
    ]
  ) {
    q.push(`${f}()`, `${f}(late_series)`, `${f}(vector(1709211600))`);
  }
  q.push(
    "time()",
    "vector(time())",
    "pi()",
    "vector(1)",
    "scalar(up)",
    'scalar(up{instance="i-0",job="api"})',
    "scalar(sum(up))",
    "timestamp(http_requests_total)",
    "timestamp(flappy)",
    "timestamp(rate(http_requests_total[5m]))",
    "timestamp(sum(up))",
    "absent(nonexistent)",
    'absent(nonexistent{job="a",instance=~"x"})',
    "absent(up)",
    "absent(sum(nonexistent))",
    // An empty value is no label; a later matcher drops a label, an earlier one does not.
    'absent(nonexistent{job="x",mode=""})',
    'absent(nonexistent{a!="y",a="z",b="1",b="1",c="2",d="",d="3"})',
    'absent_over_time(nonexistent{job=""}[5m])',
    "sort(temperature_celsius)",
    "sort_desc(temperature_celsius)",
    "sort(rate(http_requests_total[5m]))",
    "sort_desc(sum by (job) (rate(http_requests_total[5m])))",
    'label_replace(up, "host", "$1", "instance", "i-(.*)")',
    'label_replace(up, "instance", "", "instance", ".*")',
    'label_replace(temperature_celsius, "x", "$1-$2", "instance", "(i)-(.)")',
    'label_replace(up, "new", "$0", "job", "nomatch")',
    'label_replace(up, "host", "${n}", "instance", `(?P<n>[[:alpha:]])-\\d`)',
    'label_join(up, "combined", "/", "job", "instance")',
    'label_join(up, "job", "", "instance")',
    'label_join(temperature_celsius, "x", ",", "room", "missing", "instance")',
  );
  for (const le of ["0.5", "0.9", "0.99", "0", "1", "-0.5", "1.5"]) {
    q.push(`histogram_quantile(${le}, rate(request_duration_seconds_bucket[5m]))`);
  }
  q.push(
    "histogram_quantile(0.9, sum by (le) (rate(request_duration_seconds_bucket[5m])))",
    "histogram_quantile(0.9, sum by (job, le) (rate(request_duration_seconds_bucket[10m])))",
    "histogram_quantile(0.5, request_duration_seconds_bucket)",
  );
  // `le` read by Go's strconv.ParseFloat: hex needs a `p` exponent, underscores only between digits,
  // out of range is an error, `nan` takes no sign; a bucket it refuses is left out. The 0.1 bucket
  // bounds the answers' bucket from below, so each spelling of it (or its loss) shows.
  const leSpellings = ["0x1.999999999999ap-4", "0X1.999999999999AP-4", "0x1", "1e400", "-1e400", "1e-400"];
  leSpellings.push("+nan", "0_.1", "0.1_", "0.1__0", "0.1_0", "1e-0_1", "+infinity", "inf_");
  for (const le of leSpellings) {
    const buckets = `label_replace(rate(request_duration_seconds_bucket[5m]), "le", "${le}", "le", "0.1")`;
    q.push(`histogram_quantile(0.4, ${buckets})`);
  }
  for (const a of AGGS) {
    q.push(
      `${a}(temperature_celsius)`,
      `${a} by (job) (rate(http_requests_total[5m]))`,
      `${a} without (method) (http_requests_total)`,
      `${a}(odd_values)`,
    );
  }
  q.push(
    "sum by (job) (rate(http_requests_total[5m]))",
    "sum by (job, method) (increase(http_requests_total[10m]))",
    "sum(rate(http_requests_total[5m])) by (instance)",
    "sum without (instance, method) (http_requests_total)",
    'sum by (__name__) ({__name__=~"up|node_info"})',
    "count by (version) (node_info)",
    "avg by (instance) (temperature_celsius)",
    "max by (room) (temperature_celsius)",
    "topk(3, temperature_celsius)",
    "bottomk(2, temperature_celsius)",
    "topk by (room) (1, temperature_celsius)",
    "bottomk by (job) (1, rate(http_requests_total[5m]))",
    "topk(2, avg by (instance) (temperature_celsius))",
    "topk(scalar(count(node_info)), temperature_celsius)",
    // scalar() of no series is NaN, which k may not be: an error from T0+30m back (late_series starts after).
    "topk(scalar(late_series), temperature_celsius)",
    "quantile(0.5, temperature_celsius)",
    "quantile by (room) (0.9, temperature_celsius)",
    "quantile(0.25, rate(http_requests_total[5m]))",
    "quantile(2, temperature_celsius)",
    'count_values("value", up)',
    'count_values("version", node_info)',
    'count_values by (job) ("v", up)',
    'count_values("t", round(temperature_celsius))',
    "stddev by (job) (rate(http_requests_total[5m]))",
    "group by (instance) (node_cpu_seconds_total)",
  );
  for (const op of ["+", "-", "*", "/", "%", "^", "atan2"]) {
    // 2.42 keeps the metric name for atan2, 3 drops it: compare atan2 results without names.
    const wrap = (e: string) => (op === "atan2" ? `-(${e})` : e);
    q.push(
      wrap(`temperature_celsius ${op} 3`),
      wrap(`2 ${op} temperature_celsius`),
      `rate(node_cpu_seconds_total[5m]) ${op} on(instance) group_left sum by (instance) (rate(node_cpu_seconds_total[5m]))`,
      wrap(`temperature_celsius ${op} on(instance) group_left(version) node_info`),
      wrap(`http_requests_total{method="get"} ${op} ignoring(method) http_requests_total{method="post"}`),
    );
  }
  for (const op of ["==", "!=", ">", "<", ">=", "<="]) {
    q.push(
      `temperature_celsius ${op} 20`,
      `temperature_celsius ${op} bool 20`,
      `20 ${op} temperature_celsius`,
      `up ${op} on(instance, job) group_left up`,
      `temperature_celsius ${op} on(instance, room) (temperature_celsius offset 5m)`,
      `3 ${op} bool 4`,
    );
  }
  q.push(
    "http_requests_total / on(instance, job) group_left sum by (instance, job) (http_requests_total)",
    "sum by (instance, job) (http_requests_total) / on(instance, job) group_right http_requests_total",
    'http_requests_total{method="get"} - ignoring(method) http_requests_total{method="post"}',
    'http_requests_total{method="get"} / on(job, instance) http_requests_total{method="post"}',
    "node_cpu_seconds_total * on(instance) group_left(version) node_info",
    "node_info * on(instance) group_right(version) node_cpu_seconds_total",
    // An empty side matches nothing: no many-to-many error over the other side's duplicates.
    "(up > 1) * on(job) up",
    "up * on(job) group_right () (temperature_celsius > 100)",
    "up and on(instance) (temperature_celsius > 25)",
    "up or temperature_celsius",
    "up unless on(instance) (temperature_celsius > 25)",
    "temperature_celsius > 20 and temperature_celsius < 30",
    "(temperature_celsius > 25) or (temperature_celsius < 15)",
    "up and ignoring(job) node_info",
    "up unless up",
    "flappy or gone_series",
    "gone_series and flappy",
    "rate(http_requests_total[5m]) > bool 0.3",
    "-temperature_celsius",
    "-(rate(http_requests_total[5m]))",
    // Both lose their names: one series {instance="i-0"} from gone_series, later another from late_series
    // (a range query fails, as two series of one label set; an instant holds only one of them).
    "-(gone_series or late_series)",
    "+temperature_celsius",
    "1 + 2 * 3 - 4 / 2 ^ 2",
    "2 ^ 3 ^ 2",
    "-2 ^ 2",
    "(1 + 2) % 2",
    "time() - 1699999200",
    'scalar(up{instance="i-0",job="api"}) * temperature_celsius',
    "sum(up) / count(up)",
    "avg_over_time(up[10m]) * 100",
    "count(count by (version) (node_info))",
    "max_over_time(rate(http_requests_total[1m])[5m:1m])",
    "sum_over_time(temperature_celsius[10m:1m])",
    "avg_over_time(temperature_celsius[10m:2m])",
    "min_over_time(sum by (job) (rate(http_requests_total[2m]))[10m:1m])",
    "count_over_time(up[5m:])",
    "rate(http_requests_total[5m:1m])",
    "max_over_time(temperature_celsius[10m:1m] offset 5m)",
    "deriv(sum(http_requests_total)[10m:1m])",
    "quantile_over_time(0.5, temperature_celsius[10m:30s])",
    "last_over_time(temperature_celsius[5m:1m] @ 1700001000)",
    "max_over_time(max_over_time(temperature_celsius[2m])[10m:1m])",
  );
  return q;
}

/** Queries Prometheus rejects, whose messages 2.42 and 3 share. */
export const ERROR_QUERIES = [
  "foo +",
  "sum(",
  "foo{",
  'foo{a="b"',
  "rate(foo)",
  "rate(foo[5m], 1)",
  "sum by (job) (rate(foo))",
  "foo[5m] + 1",
  "{}",
  '{a=""}',
  ")",
  "(foo",
  '"abc',
  "sum(foo) by",
  "nosuchfn(foo)",
  "topk(foo)",
  "foo and 1",
  "1 == 1",
  "foo and on(a) group_left bar",
  "foo @ 1 @ 2",
  "foo offset 1m offset 2m",
  "sum(foo) offset 1m",
  "abs()",
  "round(foo, 1, 2)",
  "1 +",
  'foo{__name__="bar"}',
  'foo{a="b" c="d"}',
  "foo[5m][1m]",
  "foo[1m:][5m:]",
  "foo[0s]",
  "foo offset 0s",
  "foo[5m:0s]",
  "rate(foo[0m] offset -0s)",
  "topk(NaN, foo)",
  "bottomk(-1e20, foo)",
  "# comment",
  "histogram_quantile(foo, bar)",
  "count_values(1, foo)",
  'quantile("a", foo)',
  '-"a"',
  "time(1)",
  'vector("a")',
  "sum(1, 2)",
  "(foo)[5m]",
  "foo[5m",
  "1 + * 2",
  "foo bar",
  'label_replace(foo, "a", "b", "c")',
  // JS has lookaround and back-references, RE2 has not: Prometheus refuses them
  'foo{a=~"x(?=y)"}',
  'foo{a!~"(?<!x)y"}',
  'foo{a=~"(a)\\\\1"}',
  'label_replace(foo, "a", "$1", "b", "(?!x).*")',
  // Go's own refusals, with its messages (some show the pattern wrapped in ^(?:…)$)
  "foo{a=~`(?z)`}",
  "foo{a=~`(?i-)`}",
  "foo{a=~`a{1001}`}",
  "foo{a=~`\\C|\\Z`}",
  "foo{a=~`[\\b]`}",
  "foo{a=~`\\x{110000}`}",
  "foo{a=~`a(`}",
  "foo{a=~`a)`}",
  "foo{a=~`a)|(b`}",
  "foo{a=~`[a`}",
  "foo{a=~`[z-a]`}",
  "foo{a=~`[[:foo:]]`}",
  "foo{a=~`\\p{Cn}`}",
  "foo{a=~`*a`}",
  "foo{a=~`x{2}{3}`}",
  "foo{a=~`(a{500}){3}`}",
  "foo{a=~`(?P<a-b>x)`}",
];

/** Queries for `/format_query` (printer and prettifier) beyond the corpus: long ones get split. */
export const FORMAT_QUERIES = [
  "foo/bar",
  "a+b*c",
  'sum by (job) (rate(http_requests_total{a="b",c=~"x"}[5m] offset 1m)) / on(job) group_left(x) foo',
  'sum by (job, instance, method) (rate(http_requests_total{job="api-server",instance=~"i-.*",method!="post"}[5m])) / on (job, instance) group_left (version) max by (job, instance, version) (build_info{job="api-server"})',
  'histogram_quantile(0.99, sum by (le, job, instance) (rate(request_duration_seconds_bucket{job="api-server",handler="/api/v1/query"}[5m])))',
  'topk(5, sort_desc(max_over_time(rate(http_requests_total{job="api-server",instance="some-very-long-instance-name:9090"}[5m])[1h:1m])))',
  'label_replace(rate(http_requests_total{job="api-server",instance="some-very-long-instance-name:9090"}[5m]), "dst", "$1", "src", "(.*)")',
  '-(sum(rate(http_requests_total{job="api-server",instance="some-very-long-instance-name:9090",method="get"}[5m])))',
  '(sum(rate(http_requests_total{job="api-server",instance="some-very-long-instance-name:9090",method="get"}[5m])))',
  'count_values("value", http_requests_total{job="api-server",instance="some-very-long-instance-name:9090",method="get"})',
  'a{x="1"} and on(x) b{x="1"} or ignoring(y) c{x="2"} unless d{y="3"} > bool 4 * 2 ^ 3 ^ 4 + -5 % 6 - 7 / 8',
  "foo @ 1700000000.123 offset 5m",
  "foo[5m] @ start() offset -1h",
  "foo[1h:5m] @ end() offset 90d",
  "rate(foo[1y2w]) + rate(foo[90d]) + rate(foo[1w]) + rate(foo[1d12h]) + rate(foo[1500ms])",
  "1e6 + 0.000001 + 1.5e-9 + 0x1F + Inf + -Inf + NaN",
  'label_join(foo, "dst", "\\t\\n\\\\", \'src\', `raw\\n`)',
  'foo:bar:baz{a="\\"quoted\\""}',
  "sum without (instance) (x) + count by () (y) + group(z) + quantile(0.9, w) + bottomk(2, v) + stdvar(u)",
];
