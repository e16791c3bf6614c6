/** `parse_aws_alb_log` and `match_datadog_query`, from VRL's documentation examples plus the syntax's corners. */

import { exact, fails, ok, rejects, table } from "./harness.ts";

const ALB =
  `http 2018-11-30T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 - 0.000 0.001 0.000 200 200 34 366 "GET http://www.example.com:80/ HTTP/1.1" "curl/7.46.0" - - arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337364-23a8c76965a2ef7629b185e3" "-" "-" 0 2018-11-30T22:22:48.364000Z "forward" "-" "-" "-" "-" "-" "-"`;
const H2 =
  `h2 2018-11-30T22:23:00.186641Z app/lb/50dc 10.0.1.252:48160 10.0.0.66:9000 0.000 0.002 -1 502 - 5 257 "GET https://10.0.2.105:773/ HTTP/2.0" "curl/7.46.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:tg "Root=1-58337327-72bd00b0343d75b906739c42" "example.com" "arn:aws:cert" 1 2018-11-30T22:22:48.364000Z "redirect" "https://example.com:443/" "LambdaInvalidResponse" "10.0.0.66:9000 10.0.0.67:9000" "502 200" "Ambiguous" "UndefinedContentLengthSemantics" "TID_1234"`;

table("parse_aws_alb_log", [
  ok(`parse_aws_alb_log!(s'${ALB}')`, {
    actions_executed: "forward",
    chosen_cert_arn: null,
    classification: null,
    classification_reason: null,
    client_host: "192.168.131.39:2817",
    domain_name: null,
    elb: "app/my-loadbalancer/50dc6c495c0c9188",
    elb_status_code: "200",
    error_reason: null,
    matched_rule_priority: "0",
    received_bytes: 34,
    redirect_url: null,
    request_creation_time: "2018-11-30T22:22:48.364000Z",
    request_method: "GET",
    request_processing_time: 0.0,
    request_protocol: "HTTP/1.1",
    request_url: "http://www.example.com:80/",
    response_processing_time: 0.0,
    sent_bytes: 366,
    ssl_cipher: null,
    ssl_protocol: null,
    target_group_arn:
      "arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067",
    target_host: null,
    target_port_list: [],
    target_processing_time: 0.001,
    target_status_code: "200",
    target_status_code_list: [],
    timestamp: "2018-11-30T22:23:00.186641Z",
    trace_id: "Root=1-58337364-23a8c76965a2ef7629b185e3",
    traceability_id: null,
    type: "http",
    user_agent: "curl/7.46.0",
  }),
  exact(`x = parse_aws_alb_log!(s'${ALB}'); [x.request_processing_time, x.received_bytes]`, "[0.0,34]"),
  ok(
    `x = parse_aws_alb_log!(s'${H2}')
     [x.target_host, x.response_processing_time, x.target_status_code, x.ssl_protocol, x.domain_name,
      x.redirect_url, x.error_reason, x.target_port_list, x.target_status_code_list, x.classification,
      x.traceability_id]`,
    [
      "10.0.0.66:9000",
      -1,
      "-",
      "TLSv1.2",
      "example.com",
      "https://example.com:443/",
      "LambdaInvalidResponse",
      ["10.0.0.66:9000", "10.0.0.67:9000"],
      ["502", "200"],
      "Ambiguous",
      "TID_1234",
    ],
  ),
  fails(`parse_aws_alb_log!(s'${ALB} "extra" field')`, "could not parse whole line"),
  ok(`parse_aws_alb_log!(s'${ALB} "extra" field', strict_mode: false).type`, "http"),
  fails(`parse_aws_alb_log!("http 2018-11-30T22:23:00.186641Z")`, "failed to get field `elb`"),
  fails(`parse_aws_alb_log!(s'${ALB.replace(" 34 ", " x ")}')`, "failed to get field `received_bytes`"),
  rejects(`parse_aws_alb_log("x")`, "E100"),
]);

const q = (event: string, query: string) => `match_datadog_query(${event}, s'${query}')`;

table("match_datadog_query (VRL docs examples)", [
  ok(q(`{"message": "contains this and that"}`, "this OR that"), true),
  ok(q(`{"message": "contains only this"}`, "this AND that"), false),
  ok(q(`{"name": "foobar"}`, "@name:foo*"), true),
  ok(q(`{"tags": ["a:x", "b:y", "c:z"]}`, `b:["x" TO "z"]`), true),
]);

table("match_datadog_query (syntax)", [
  // Free text matches whole words of `message`; phrases match word sequences.
  ok(q(`{"message": "contains this"}`, "contain"), false),
  ok(q(`{"message": "a quick brown fox"}`, `"quick brown"`), true),
  ok(q(`{"message": "a quick brown fox"}`, `"brown quick"`), false),
  ok(q(`{"message": "a quick brown fox"}`, "qu*"), true),
  ok(q(`{"message": "a quick brown fox"}`, "quick fox"), true),
  ok(q(`{"message": "a quick brown fox"}`, "quick -fox"), false),
  ok(q(`{"message": "a quick brown fox"}`, "NOT dog"), true),
  ok(q(`{"message": "a quick brown fox"}`, "dog OR (quick AND fox)"), true),
  // Attributes: equality by value, numeric comparisons and ranges, exists/missing, arrays.
  ok(q(`{"a": {"b": 200}}`, "@a.b:200"), true),
  ok(q(`{"a": {"b": 200}}`, "@a.b:>100"), true),
  ok(q(`{"a": {"b": 200}}`, "@a.b:<=100"), false),
  ok(q(`{"a": {"b": 200}}`, "@a.b:[100 TO 200]"), true),
  ok(q(`{"a": {"b": 200}}`, "@a.b:{100 TO 200}"), false),
  ok(q(`{"a": {"b": 200}}`, "@a.b:[300 TO *]"), false),
  // Strings order lexically, as Vector compares them; only numeric values compare numerically.
  ok(q(`{"a": "10"}`, "@a:>9"), false),
  ok(q(`{"a": 10}`, "@a:>9"), true),
  ok(q(`{"a": 10}`, "@a:>abc"), false),
  ok(q(`{"tags": ["version:10"]}`, "version:>5"), false),
  ok(q(`{"tags": ["version:7"]}`, "version:[5 TO 8]"), true),
  ok(q(`{"a": 1}`, "@a:*"), true),
  ok(q(`{"a": 1}`, "_exists_:@b"), false),
  ok(q(`{"a": 1}`, "_missing_:@b"), true),
  ok(q(`{"list": ["x", "y"]}`, "@list:y"), true),
  ok(q(`{"name": "foobar"}`, "@name:(bar OR foobar)"), true),
  ok(q(`{"name": "f*o"}`, `@name:f\\*o`), true),
  ok(q(`{"name": "fxo"}`, `@name:f\\*o`), false),
  // Reserved fields are top-level; other bare fields are tags.
  ok(q(`{"host": "web-1", "status": "error"}`, "host:web-* status:error"), true),
  ok(q(`{"service": "api"}`, "service:web"), false),
  ok(q(`{"tags": ["env:prod", "team"]}`, "env:prod team:*"), true),
  ok(q(`{"tags": ["env:prod"]}`, "env:staging"), false),
  ok(q(`{"ddtags": ["env:prod"]}`, "env:prod"), true),
  ok(q(`{"tags": ["env:prod"]}`, "-region:*"), true),
  ok(q(`{}`, ""), true),
  rejects(`match_datadog_query({}, "(unclosed")`, "E610"),
]);
