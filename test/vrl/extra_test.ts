/** Functions beyond the required list: syslog codes, glog/klog, auth logs, VPC flow logs, CEF, YAML, redaction, unnest… */

import { exact, fails, ok, rejects, table } from "./harness.ts";

table("syslog codes", [
  ok(`to_syslog_facility!(4)`, "auth"),
  fails(`to_syslog_facility!(500)`, "not valid"),
  exact(`to_syslog_facility_code!("local7")`, "23"),
  fails(`to_syslog_facility_code!("nope")`, "not valid"),
  ok(`to_syslog_level!(5)`, "notice"),
  fails(`to_syslog_level!(9)`, "not valid"),
  exact(`to_syslog_severity!("alert")`, "1"),
  exact(`to_syslog_severity!("warn")`, "4"),
  fails(`to_syslog_severity!("loud")`, "not valid"),
]);

table("glog/klog/linux authorization", [
  ok(`parse_glog!("I20210131 14:48:54.411655 15520 main.c++:9] Hello world!")`, {
    file: "main.c++",
    id: 15520,
    level: "info",
    line: 9,
    message: "Hello world!",
    timestamp: "2021-01-31T14:48:54.411655Z",
  }),
  fails(`parse_glog!("nope")`, "failed parsing glog message"),
  ok(`x = parse_klog!("I0505 17:59:40.692994   28133 klog.go:70] hello from klog"); del(x.timestamp); x`, {
    file: "klog.go",
    id: 28133,
    level: "info",
    line: 70,
    message: "hello from klog",
  }),
  fails(`parse_klog!("nope")`, "failed parsing klog message"),
  ok(
    `x = parse_linux_authorization!("Mar 23 01:49:58 localhost sshd[1111]: Accepted publickey for eng from 10.1.1.1 port 8745 ssh2: RSA SHA256:foobar"); del(x.timestamp); x`,
    {
      appname: "sshd",
      hostname: "localhost",
      message: "Accepted publickey for eng from 10.1.1.1 port 8745 ssh2: RSA SHA256:foobar",
      procid: 1111,
    },
  ),
  fails(`parse_linux_authorization!("x")`, "unable to parse"),
]);

table("aws vpc flow log / cef", [
  ok(
    `parse_aws_vpc_flow_log!("2 123456789010 eni-1235b8ca123456789 - - - - - - - 1431280876 1431280934 - NODATA")`,
    {
      account_id: "123456789010",
      action: null,
      bytes: null,
      dstaddr: null,
      dstport: null,
      end: 1431280934,
      interface_id: "eni-1235b8ca123456789",
      log_status: "NODATA",
      packets: null,
      protocol: null,
      srcaddr: null,
      srcport: null,
      start: 1431280876,
      version: 2,
    },
  ),
  ok(`parse_aws_vpc_flow_log!("- eni-1 10.0.0.1 80", format: "instance_id interface_id srcaddr srcport")`, {
    instance_id: null,
    interface_id: "eni-1",
    srcaddr: "10.0.0.1",
    srcport: 80,
  }),
  fails(`parse_aws_vpc_flow_log!("1 2")`, "Log should have 14 fields"),
  ok(
    `parse_cef!("CEF:0|CyberArk|PTA|12.6|1|Suspected credentials theft|8|suser=mike2@prod1.domain.com shost=prod1.domain.com src=1.1.1.1 duid=5 msg=a b c")`,
    {
      cefVersion: "0",
      deviceVendor: "CyberArk",
      deviceProduct: "PTA",
      deviceVersion: "12.6",
      deviceEventClassId: "1",
      name: "Suspected credentials theft",
      severity: "8",
      suser: "mike2@prod1.domain.com",
      shost: "prod1.domain.com",
      src: "1.1.1.1",
      duid: "5",
      msg: "a b c",
    },
  ),
  ok(`parse_cef!("CEF:0|a\\\\|b|p|1|2|n|3|").deviceVendor`, "a|b"),
  fails(`parse_cef!("not cef")`, "Could not parse"),
]);

table("parse_yaml", [
  exact(`parse_yaml!("a: 1\\nb: [x, 2.0]\\nc: null")`, '{"a":1,"b":["x",2.0],"c":null}'),
  ok(`parse_yaml!("- 1\\n- two")`, [1, "two"]),
  fails(`parse_yaml!("a: [")`, "unable to parse yaml"),
]);

table("redact/replace_with", [
  ok(`redact("my id is 123456", filters: [r'\\d+'])`, "my id is [REDACTED]"),
  ok(`redact({"ssn": "123-12-1234", "n": 1}, filters: ["us_social_security_number"])`, {
    ssn: "[REDACTED]",
    n: 1,
  }),
  ok(`redact(["abc"], [r'b'], redactor: {"type": "text", "replacement": "*"})`, ["a*c"]),
  ok(`replace_with("foo bar", r'\\w+') -> |m| { upcase(m.string) }`, "FOO BAR"),
  ok(
    `replace_with("a1 b2", r'(?P<l>[a-z])(?P<d>\\d)', count: 1) -> |m| { string!(m.d) + string!(m.l) }`,
    "1a b2",
  ),
  ok(`replace_with("none", r'\\d') -> |m| { "x" }`, "none"),
  rejects(`replace_with("a", r'a') -> |m| { m.start }`, "E122"),
]);

table("unnest", [
  ok(`unnest!(.events)`, [{ events: 1, host: "h" }, { events: 2, host: "h" }], { events: [1, 2], host: "h" }),
  ok(`. = unnest!(.a.b); length(.)`, 2, { a: { b: ["x", "y"] } }),
  ok(`x = {"l": ["p", "q"]}; unnest(x.l)`, [{ l: "p" }, { l: "q" }]),
  ok(`unnest!(.events)`, [], { events: [] }),
  fails(`unnest!(.events)`, "expected array, got string", { events: "x" }),
  rejects(`unnest(.events)`, "E100"),
  rejects(`unnest!(.)`, "E110"),
]);

table("geo, punycode, ip forms, tagging", [
  ok(`haversine(0.0, 0.0, 10.0, 10.0)`, { bearing: 44.561, distance: 1568.5227233 }),
  ok(`haversine(0.0, 0.0, 10.0, 10.0, measurement_unit: "miles").distance > 974`, true),
  ok(`encode_punycode!("www.café.com")`, "www.xn--caf-dma.com"),
  ok(`encode_punycode!("www.CAFE.com")`, "www.cafe.com"),
  ok(`decode_punycode!("www.xn--caf-dma.com")`, "www.café.com"),
  ok(`ip_to_ipv6!("192.168.10.32")`, "::ffff:192.168.10.32"),
  fails(`ip_to_ipv6!("x")`, "unable to parse IP address"),
  ok(`ipv6_to_ipv4!("::ffff:192.168.0.1")`, "192.168.0.1"),
  fails(`ipv6_to_ipv4!("2001::1")`, "not compatible with IPV4"),
  ok(`tag_types_externally({"a": 1, "b": "s", "c": [true], "d": null})`, {
    a: { integer: 1 },
    b: { string: "s" },
    c: [{ boolean: true }],
    d: null,
  }),
]);
