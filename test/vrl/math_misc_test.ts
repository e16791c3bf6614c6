/** Math, UUID, logging, assertion and IP functions. */

import { assertMatch } from "./assert_match.ts";
import { compileVrl, jsonVrlLogSink, setVrlLogSink } from "../../engine/vrl/mod.ts";
import { LogFilter, setLogFilter, setLogSink } from "../../src/common/log.ts";
import { exact, fails, ok, rejects, table } from "./harness.ts";
import assert from "node:assert/strict";

table("math", [
  exact(`abs(-5)`, "5"),
  exact(`abs(-5.5)`, "5.5"),
  exact(`abs(0)`, "0"),
  exact(`ceil(4.345)`, "5.0"),
  exact(`ceil(4.345, precision: 2)`, "4.35"),
  exact(`ceil(4)`, "4"),
  exact(`floor(4.345)`, "4.0"),
  exact(`floor(-4.345)`, "-5.0"),
  exact(`floor(4.345, precision: 2)`, "4.34"),
  exact(`round(4.5)`, "5.0"),
  exact(`round(-4.5)`, "-5.0"),
  exact(`round(4.345, precision: 2)`, "4.35"),
  exact(`round(7)`, "7"),
  exact(`mod(5, 2)`, "1"),
  exact(`mod(-5, 2)`, "-1"),
  exact(`mod(5.5, 2)`, "1.5"),
  fails(`mod!(5, 0)`, "can't calculate remainder by zero"),
  rejects(`abs("1")`, "E110"),
  rejects(`x = 0; mod(5, x)`, "E100"),
  ok(`x = random_int(1, 3); x >= 1 && x < 3`, true),
  ok(`x = random_float(0.0, 1.0); x >= 0.0 && x < 1.0`, true),
  fails(`random_int!(3, 1)`, "max must be greater than min"),
  ok(`is_boolean(random_bool())`, true),
]);

table("uuid", [
  ok(`match(uuid_v4(), r'^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$')`, true),
  ok(`uuid_v4() != uuid_v4()`, true),
  ok(`match(uuid_v7(), r'^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$')`, true),
  ok(`slice!(uuid_v7(t'2020-01-01T00:00:00Z'), 0, 13)`, "016f5e66-e800"),
  rejects(`uuid_v7("2020")`, "E110"),
]);

table("assert", [
  ok(`assert!(1 == 1)`, true),
  fails(`assert!(1 == 2)`, "assertion failed"),
  fails(`assert!(1 == 2, message: "custom")`, "custom"),
  ok(`assert_eq!(1, 1)`, true),
  fails(`assert_eq!(1, 2)`, "assertion failed: 1 == 2"),
  fails(`assert_eq!("a", "b", "they differ")`, "they differ"),
  ok(`ok, err = assert(false); [ok, is_string(err)]`, [false, true]),
  rejects(`assert(1)`, "E110"),
]);

Deno.env.set("VRL_TEST_VAR", "set");

table("ip and host", [
  ok(`[is_ipv4("10.0.0.1"), is_ipv4("::1"), is_ipv6("::1"), is_ipv6("x")]`, [true, false, true, false]),
  ok(`ip_cidr_contains!("192.168.0.0/16", "192.168.10.32")`, true),
  ok(`ip_cidr_contains!("192.168.0.0/16", "10.0.0.1")`, false),
  ok(`ip_cidr_contains!(["10.0.0.0/8", "2001:4f8:3:ba::/64"], "2001:4f8:3:ba:2e0:81ff:fe22:d1f1")`, true),
  fails(`ip_cidr_contains!("nonsense", "10.0.0.1")`, "unable to parse CIDR"),
  exact(`ip_aton!("1.2.3.4")`, "16909060"),
  ok(`ip_ntoa!(16909060)`, "1.2.3.4"),
  fails(`ip_aton!("1.2.3")`, "unable to parse IP address"),
  ok(`ip_subnet!("192.168.10.32", "255.255.255.0")`, "192.168.10.0"),
  ok(`ip_subnet!("192.168.10.32", "/16")`, "192.168.0.0"),
  ok(`is_string(get_hostname!())`, true),
  ok(`get_env_var!("VRL_TEST_VAR")`, "set"),
  fails(`get_env_var!("VRL_TEST_UNSET_VAR")`, "environment variable not found"),
]);

table("log", [
  ok(`log("hello", level: "debug", rate_limit_secs: 0)`, null),
  rejects(`log("x", level: "loud")`, "E610"),
]);

Deno.test("log: writes through the sink and rate-limits by message", () => {
  const seen: string[] = [];
  setVrlLogSink((level, msg) => seen.push(`${level}:${msg}`));
  try {
    const p = compileVrl(`log(.m, level: "warn")`);
    p.run(new Map([["m", "once"]]));
    p.run(new Map([["m", "once"]]));
    compileVrl(`log({"a": 1}, rate_limit_secs: 0)`).run(new Map());
    assert.deepEqual(seen, ["warn:once", 'info:{"a":1}']);
  } finally {
    setVrlLogSink(() => {});
  }
});

/** [program, log filter, expected JSON records as {level, target, msg}]: `log()` goes through the JSON logger. */
const LOG_RECORDS: [string, string, { level: string; target: string; msg: string }[]][] = [
  [`log("boom", level: "error", rate_limit_secs: 0)`, "info", [{
    level: "error",
    target: "petrel::vrl",
    msg: "boom",
  }]],
  [`log(.m, rate_limit_secs: 0)`, "info", [{ level: "info", target: "petrel::vrl", msg: "hi" }]],
  [`log({"a": [1]}, level: "warn", rate_limit_secs: 0)`, "info", [{
    level: "warn",
    target: "petrel::vrl",
    msg: '{"a":[1]}',
  }]],
  [`log("quiet", level: "debug", rate_limit_secs: 0)`, "info", []],
  [`log("loud", level: "trace", rate_limit_secs: 0)`, "info,petrel::vrl=trace", [{
    level: "trace",
    target: "petrel::vrl",
    msg: "loud",
  }]],
  [`log("x", level: "info", rate_limit_secs: 0)`, "warn", []],
  [
    `log("twice", level: "error", rate_limit_secs: 60); log("twice", level: "error", rate_limit_secs: 60)`,
    "info",
    [{ level: "error", target: "petrel::vrl", msg: "twice" }],
  ],
];

for (const [program, filter, expected] of LOG_RECORDS) {
  Deno.test(`log → JSON logger: ${program} (filter ${filter})`, () => {
    const lines: string[] = [];
    const oldVrl = setVrlLogSink(jsonVrlLogSink);
    const oldSink = setLogSink((l) => lines.push(l));
    const oldFilter = setLogFilter(LogFilter.parse(filter));
    try {
      compileVrl(program).run(new Map([["m", "hi"]]));
    } finally {
      setLogFilter(LogFilter.parse(oldFilter));
      setLogSink(oldSink);
      setVrlLogSink(oldVrl);
    }
    const records = lines.map((l) => JSON.parse(l));
    for (const r of records) assert.match(r.ts, /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual(records.map(({ level, target, msg }) => ({ level, target, msg })), expected);
  });
}

Deno.test("uuid_v7 is time-ordered", () => {
  const p = compileVrl(`uuid_v7(from_unix_timestamp!(int!(.s)))`);
  const a = p.run(new Map([["s", 1000n]])) as string;
  const b = p.run(new Map([["s", 2000n]])) as string;
  assert.ok(a < b);
  assertMatch(a, /^[0-9a-f-]{36}$/);
});
