/** Stdlib details from VRL's documentation: case options, entropy segmentation, redactors, `find`. */

import { exact, fails, ok, rejects, table } from "./harness.ts";

table("case functions: convert_case boundaries, original_case, excluded_boundaries", [
  ok(`camelcase("input-string")`, "inputString"),
  ok(`camelcase("input-string", "kebab-case")`, "inputString"),
  ok(`camelcase("input_string", original_case: "kebab-case")`, "input_string"),
  ok(`pascalcase("input-string")`, "InputString"),
  ok(`pascalcase("input_string", "snake_case")`, "InputString"),
  ok(`snakecase("input-string")`, "input_string"),
  ok(`snakecase("s3BucketDetails")`, "s_3_bucket_details"),
  ok(
    `snakecase("s3BucketDetails", excluded_boundaries: ["digit_lower", "lower_digit", "upper_digit"])`,
    "s3_bucket_details",
  ),
  ok(`kebabcase("InputString", "PascalCase")`, "input-string"),
  ok(`kebabcase("input_string")`, "input-string"),
  ok(`screamingsnakecase("input-string")`, "INPUT_STRING"),
  ok(`screamingsnakecase("inputString", original_case: "camelCase")`, "INPUT_STRING"),
  // Acronyms split before their last capital; characters that are not boundaries stay in words.
  ok(`snakecase("HTTPRequest foo.bar")`, "http_request_foo.bar"),
  ok(`camelcase("  many   spaces__here ")`, "manySpacesHere"),
  rejects(`snakecase("x", original_case: "Title Case")`, "E610"),
  rejects(`snakecase("x", excluded_boundaries: ["nope"])`, "E610"),
]);

table("shannon_entropy segmentation", [
  ok(`shannon_entropy("vector.dev")`, 2.9219280948873623),
  ok(`shannon_entropy("test123%456.فوائد.net.", segmentation: "byte")`, 4.078418520441602),
  ok(`shannon_entropy("test123%456.فوائد.net.", segmentation: "codepoint")`, 3.9362600275315263),
  ok(`shannon_entropy("test123%456.فوائد.net.", segmentation: "grapheme")`, 3.9362600275315263),
  // A combining mark is its own code point but part of one grapheme.
  ok(`shannon_entropy("e\u0301e\u0301", segmentation: "codepoint") == 1.0`, true),
  ok(`shannon_entropy("e\u0301e\u0301", segmentation: "grapheme") == 0.0`, true),
  exact(`shannon_entropy("")`, "0.0"),
  rejects(`shannon_entropy("x", segmentation: "word")`, "E610"),
]);

table("redact redactors", [
  ok(`redact("my id is 123456", filters: [r'\\d+'])`, "my id is [REDACTED]"),
  ok(`redact({"name": "John Doe", "ssn": "123-12-1234"}, filters: ["us_social_security_number"])`, {
    name: "John Doe",
    ssn: "[REDACTED]",
  }),
  ok(
    `redact("my id is 123456", filters: [r'\\d+'], redactor: {"type": "text", "replacement": "***"})`,
    "my id is ***",
  ),
  ok(`redact("my id is 123456", filters: [r'\\d+'], redactor: "full")`, "my id is [REDACTED]"),
  ok(
    `redact("my id is 123456", filters: [r'\\d+'], redactor: "sha2")`,
    "my id is GEtTedW1p6tC094dDKH+3B8P+xSnZz69AmpjaXRd63I=",
  ),
  ok(
    `redact("my id is 123456", filters: [r'\\d+'], redactor: {"type": "sha2", "variant": "SHA-256", "encoding": "base16"})`,
    "my id is 8d969eef6ecad3c29a3a629280e686cf0c3f5d5a86aff3ca12020c923adc6c92",
  ),
  ok(
    `redact("my id is 123456", filters: [r'\\d+'], redactor: "sha3")`,
    "my id is ZNCdmTDI7PeeUTFnpYjLdUObdizo+bIupZdl8yqnTKGdLx6X3JIqPUlUWUoFBikX+yTR+OcvLtAqWO11NPlNJw==",
  ),
  ok(
    `redact("my id is 123456", filters: [r'\\d+'], redactor: {"type": "sha3", "variant": "SHA3-224", "encoding": "base16"})`,
    "my id is 6be790258b73da9441099c4cb6aeec1f0c883152dd74e7581b70a648",
  ),
  ok(
    `redact("ab12 cd", filters: [{"type": "pattern", "patterns": [r'\\d+', "cd"]}])`,
    "ab[REDACTED] [REDACTED]",
  ),
  ok(`redact(["x 123-12-1234"], filters: [{"type": "us_social_security_number"}])`, ["x [REDACTED]"]),
  rejects(`redact("x", filters: [r'x'], redactor: "*")`, "E610"),
  rejects(`redact("x", filters: [r'x'], redactor: {"type": "sha2", "variant": "SHA-1"})`, "E610"),
  rejects(`redact("x", filters: ["credit_card"])`, "E610"),
  fails(`redact!("x", filters: [r'x'], redactor: .r)`, "unknown redactor type", { r: { type: "rot13" } }),
]);

table("find", [
  exact(`find("foobar", "bar")`, "3"),
  exact(`find("foobar", "baz")`, "null"),
  exact(`find("foobar", r'b.r')`, "3"),
  exact(`find("foobar", r'z')`, "null"),
  exact(`find("abcabc", "a", from: 1)`, "3"),
]);

const MAIN =
  `172.24.0.3 - alice [31/Dec/2024:17:32:06 +0000] "GET / HTTP/1.1" 200 615 "https://domain.tld/path" "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36" "-"`;
const INGRESS =
  `0.0.0.0 - bob [18/Mar/2023:15:00:00 +0000] "GET /some/path HTTP/2.0" 200 12312 "https://10.0.0.1/some/referer" "SomeUserAgent" 690 0.184 [default-frontend-8080] [] 10.0.50.80:50000 12312 0.184 200 a2d5a5d0b0e1e1e1e1e1e1e1e1e1e1e1`;

table("parse_nginx_log formats main and ingress_upstreaminfo", [
  ok(`parse_nginx_log!(s'${MAIN}', "main")`, {
    agent:
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    client: "172.24.0.3",
    method: "GET",
    path: "/",
    protocol: "HTTP/1.1",
    referer: "https://domain.tld/path",
    request: "GET / HTTP/1.1",
    size: 615,
    status: 200,
    timestamp: "2024-12-31T17:32:06Z",
    user: "alice",
  }),
  ok(`parse_nginx_log!(s'${MAIN.replace('"-"', '"10.0.0.9"')}', "main").http_x_forwarded_for`, "10.0.0.9"),
  fails(`parse_nginx_log!(s'${MAIN.slice(0, -4)}', "main")`, "failed parsing main log line"),
  ok(`parse_nginx_log!(s'${INGRESS}', "ingress_upstreaminfo")`, {
    body_bytes_size: 12312,
    http_referer: "https://10.0.0.1/some/referer",
    http_user_agent: "SomeUserAgent",
    proxy_upstream_name: "default-frontend-8080",
    remote_addr: "0.0.0.0",
    remote_user: "bob",
    req_id: "a2d5a5d0b0e1e1e1e1e1e1e1e1e1e1e1",
    request: "GET /some/path HTTP/2.0",
    request_length: 690,
    request_time: 0.184,
    status: 200,
    timestamp: "2023-03-18T15:00:00Z",
    upstream_addr: "10.0.50.80:50000",
    upstream_response_length: 12312,
    upstream_response_time: 0.184,
    upstream_status: 200,
  }),
  // No upstream answered: the upstream fields are `-` and left out.
  ok(
    `x = parse_nginx_log!(s'${
      INGRESS.replace("10.0.50.80:50000 12312 0.184 200", "- - - -")
    }', "ingress_upstreaminfo")
     [exists(x.upstream_addr), exists(x.upstream_status), x.req_id]`,
    [false, false, "a2d5a5d0b0e1e1e1e1e1e1e1e1e1e1e1"],
  ),
  fails(
    `parse_nginx_log!(s'${MAIN}', "ingress_upstreaminfo")`,
    "failed parsing ingress_upstreaminfo log line",
  ),
  rejects(`parse_nginx_log!("x", "upstream")`, "E610"),
]);

const CEF =
  "CEF:0|Dev|firewall|2.2|1|Connection denied|5|c6a1=2345:0425:2CA1:0000:0000:0567:5673:23b5 c6a1Label=Device IPv6 Address";

table("parse_cef translate_custom_fields and malformed extensions", [
  ok(
    `parse_cef!("Sep 29 08:26:10 host CEF:1|Security|threatmanager|1.0|100|worm successfully stopped|10|src=10.0.0.1 dst=2.2.2.2 spt=1232")`,
    {
      cefVersion: "1",
      deviceEventClassId: "100",
      deviceProduct: "threatmanager",
      deviceVendor: "Security",
      deviceVersion: "1.0",
      dst: "2.2.2.2",
      name: "worm successfully stopped",
      severity: "10",
      spt: "1232",
      src: "10.0.0.1",
    },
  ),
  fails(`parse_cef!("CEF:0|V|P|1|2|N|3|foo")`, "Could not parse whole line successfully"),
  fails(`parse_cef!("CEF:0|V|P|1|2|N|3|foo a=1")`, "Could not parse whole line successfully"),
  ok(`parse_cef!("CEF:0|V|P|1|2|N|3|").severity`, "3"),
  ok(`parse_cef!("${CEF}", translate_custom_fields: true)`, {
    "Device IPv6 Address": "2345:0425:2CA1:0000:0000:0567:5673:23b5",
    cefVersion: "0",
    deviceEventClassId: "1",
    deviceProduct: "firewall",
    deviceVendor: "Dev",
    deviceVersion: "2.2",
    name: "Connection denied",
    severity: "5",
  }),
  ok(`x = parse_cef!("${CEF}"); [x.c6a1Label, x.c6a1]`, [
    "Device IPv6 Address",
    "2345:0425:2CA1:0000:0000:0567:5673:23b5",
  ]),
  ok(
    `x = parse_cef!("CEF:0|V|P|1|2|N|3|cs1Label=EventID cs1=52b0 cn1=7 flexString1Label=Extra", translate_custom_fields: true)
     [x.EventID, x.cn1, x.flexString1Label, exists(x.cs1)]`,
    ["52b0", "7", "Extra", false],
  ),
]);

table("secrets and semantic meaning", [
  ok(`set_secret("datadog_api_key", "secret-key"); get_secret("datadog_api_key")`, "secret-key"),
  ok(`get_secret("datadog_api_key")`, null),
  ok(`set_secret("a", "b"); remove_secret("a"); get_secret("a")`, null),
  ok(`set_semantic_meaning(.foo, "message")`, null, { foo: "x" }),
  rejects(`set_secret("a")`, "E107"),
]);

const cid = (src: string, dst: string, proto: number, sp: number, dp: number) =>
  `community_id!(source_ip: "${src}", destination_ip: "${dst}", protocol: ${proto}, source_port: ${sp}, destination_port: ${dp})`;

// The Community ID specification's baseline values; ICMP type/code act as ports, request and reply pair up.
table("community_id ICMP port equivalents", [
  ok(cid("1.2.3.4", "5.6.7.8", 6, 1122, 3344), "1:wCb3OG7yAFWelaUydu0D+125CLM="),
  ok(cid("128.232.110.120", "66.35.250.204", 6, 34855, 80), "1:LQU9qZlK+B5F3KDmev6m5PMibrg="),
  ok(cid("192.168.0.89", "192.168.0.1", 1, 8, 0), "1:X0snYXpgwiv9TZtqg64sgzUn6Dk="),
  ok(cid("192.168.0.1", "192.168.0.89", 1, 0, 0), "1:X0snYXpgwiv9TZtqg64sgzUn6Dk="),
  ok(`${cid("fe80::1", "fe80::2", 58, 128, 0)} == ${cid("fe80::2", "fe80::1", 58, 129, 0)}`, true),
  // Destination unreachable (type 3) is one-way: the direction is kept.
  ok(`${cid("5.6.7.8", "1.2.3.4", 1, 3, 1)} != ${cid("1.2.3.4", "5.6.7.8", 1, 3, 1)}`, true),
]);

table("ip_subnet IPv6", [
  ok(`ip_subnet!("2404:6800:4003:c02::64", "/32")`, "2404:6800::"),
  ok(`ip_subnet!("2404:6800:4003:c02::64", "/61")`, "2404:6800:4003:c00::"),
  ok(`ip_subnet!("2404:6800:4003:c02::64", "ffff:ffff:ffff::")`, "2404:6800:4003::"),
  ok(`ip_subnet!("192.168.10.32", "255.255.255.0")`, "192.168.10.0"),
  fails(`ip_subnet!("2404:6800::1", "/129")`, "unable to parse subnet"),
]);

table("strip_ansi_escape_codes with the \\e escape", [
  ok(`strip_ansi_escape_codes("\\e[46mfoo\\e[0m bar")`, "foo bar"),
  ok(`strlen("\\e")`, 1),
]);

table("punycode without validation", [
  ok(`encode_punycode!("www.CAFé.com", validate: false)`, "www.xn--CAF-dma.com"),
  ok(`encode_punycode!("www.CAFé.com")`, "www.xn--caf-dma.com"),
  ok(`decode_punycode!("xn--8hbb.xn--fiba.xn--8hbf.xn--eib.", validate: false)`, "١٠.٦٦.٣٠.٥."),
  ok(`decode_punycode!("www.xn--caf-dma.com", validate: false)`, "www.café.com"),
]);

table("parse_json max_depth", [
  ok(`parse_json!("{\\"key\\": \\"val\\"}", max_depth: 1)`, { key: "val" }),
  ok(`parse_json!("{\\"top_level\\":{\\"key\\": \\"val\\"}}", max_depth: 1)`, {
    top_level: '{"key": "val"}',
  }),
  exact(
    `parse_json!(s'{"a": [1, {"b": "x]}"}], "c": 3.0, "d": {}}', max_depth: 2)`,
    `{"a":[1,"{\\"b\\": \\"x]}\\"}"],"c":3.0,"d":{}}`,
  ),
  ok(`parse_json!("[1, [2, [3]]]", max_depth: 2)`, [1, [2, "[3]"]]),
  ok(`parse_json!("5", max_depth: 1)`, 5),
  fails(`parse_json!("{\\"a\\": 1", max_depth: 2)`, "unable to parse json"),
  rejects(`parse_json!("{}", max_depth: 0)`, "E610"),
]);
