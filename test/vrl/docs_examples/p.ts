/** VRL docs examples, the `parse_*` functions. */

import { type DocsExample, ex, exJson, v } from "./example.ts";

const APACHE_COMMON = {
  host: "127.0.0.1",
  identity: "bob",
  user: "frank",
  timestamp: "2000-10-10T20:55:36Z",
  message: "GET /apache_pb.gif HTTP/1.0",
  method: "GET",
  path: "/apache_pb.gif",
  protocol: "HTTP/1.0",
  status: 200,
  size: 2326,
};
const KAFKA = {
  "@timestamp": "Sun Jan 10 16:47:39 EST 2021",
  level: "info",
  msg: "Stopping all fetchers",
  "tag#production": "stopping_fetchers",
  id: "ConsumerFetcherManager-1382721708341",
  module: "kafka.consumer.ConsumerFetcherManager",
};
const GROK = { timestamp: "2020-10-02T23:22:12.223222Z", level: "info", message: "Hello world" };

/** Examples of the `parse_*` functions. */
export const PARSE: DocsExample[] = [
  ex(
    "parse_apache_log",
    "Parse using Apache log format (common)",
    v`parse_apache_log!("127.0.0.1 bob frank [10/Oct/2000:13:55:36 -0700] \"GET /apache_pb.gif HTTP/1.0\" 200 2326", format: "common")`,
    APACHE_COMMON,
  ),
  ex(
    "parse_apache_log",
    "Parse using Apache log format (combined)",
    v`parse_apache_log!("127.0.0.1 bob frank [10/Oct/2000:13:55:36 -0700] \"GET /apache_pb.gif HTTP/1.0\" 200 2326 \"http://www.seniorinfopoints.com/\" \"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/37.0.2062.120 Safari/537.36\"", "combined")`,
    {
      ...APACHE_COMMON,
      referrer: "http://www.seniorinfopoints.com/",
      agent:
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/37.0.2062.120 Safari/537.36",
    },
  ),
  ex(
    "parse_aws_vpc_flow_log",
    "Parse AWS VPC Flow log (custom format)",
    v`parse_aws_vpc_flow_log!("- eni-1235b8ca123456789 10.0.1.5 10.0.0.220 10.0.1.5 203.0.113.5", "instance_id interface_id srcaddr dstaddr pkt_srcaddr pkt_dstaddr")`,
    {
      instance_id: null,
      interface_id: "eni-1235b8ca123456789",
      srcaddr: "10.0.1.5",
      dstaddr: "10.0.0.220",
      pkt_srcaddr: "10.0.1.5",
      pkt_dstaddr: "203.0.113.5",
    },
  ),
  exJson("parse_bytes", "Parse bytes (kilobytes)", v`parse_bytes!("1024KiB", unit: "MiB")`, "1.0"),
  exJson(
    "parse_bytes",
    "Parse bytes in SI unit (terabytes)",
    v`parse_bytes!("4TB", unit: "MB", base: "10")`,
    "4000000.0",
  ),
  ex(
    "parse_cef",
    "Ignore syslog header",
    v`parse_cef!("Sep 29 08:26:10 host CEF:1|Security|threatmanager|1.0|100|worm successfully stopped|10|src=10.0.0.1 dst=2.1.2.2 spt=1232")`,
    {
      cefVersion: "1",
      deviceVendor: "Security",
      deviceProduct: "threatmanager",
      deviceVersion: "1.0",
      deviceEventClassId: "100",
      name: "worm successfully stopped",
      severity: "10",
      src: "10.0.0.1",
      dst: "2.1.2.2",
      spt: "1232",
    },
  ),
  ex(
    "parse_cef",
    "Translate custom fields",
    v`parse_cef!("CEF:0|Dev|firewall|2.2|1|Connection denied|5|c6a1=2345:0425:2CA1:0000:0000:0567:5673:23b5 c6a1Label=Device IPv6 Address", translate_custom_fields: true)`,
    {
      cefVersion: "0",
      deviceVendor: "Dev",
      deviceProduct: "firewall",
      deviceVersion: "2.2",
      deviceEventClassId: "1",
      name: "Connection denied",
      severity: "5",
      "Device IPv6 Address": "2345:0425:2CA1:0000:0000:0567:5673:23b5",
    },
  ),
  ex(
    "parse_common_log",
    "Parse using Common Log Format (with custom timestamp format)",
    v`parse_common_log!("127.0.0.1 bob frank [2000-10-10T20:55:36Z] \"GET /apache_pb.gif HTTP/1.0\" 200 2326", "%+")`,
    APACHE_COMMON,
  ),
  exJson("parse_float", "Parse negative integer", v`parse_float!("-42")`, "-42.0"),
  exJson("parse_float", "Parse float", v`parse_float!("42.38")`, "42.38"),
  exJson("parse_float", "Scientific notation", v`parse_float!("2.5e3")`, "2500.0"),
  ex(
    "parse_groks",
    "Parse using multiple Grok patterns",
    v`parse_groks!(
  "2020-10-02T23:22:12.223222Z info Hello world",
  patterns: [
    "%{common_prefix} %{_status} %{_message}",
    "%{common_prefix} %{_message}",
  ],
  aliases: {
    "common_prefix": "%{_timestamp} %{_loglevel}",
    "_timestamp": "%{TIMESTAMP_ISO8601:timestamp}",
    "_loglevel": "%{LOGLEVEL:level}",
    "_status": "%{POSINT:status}",
    "_message": "%{GREEDYDATA:message}"
  }
)`,
    GROK,
  ),
  ex("parse_int", "Parse binary", v`parse_int!("0b1001")`, 9),
  ex("parse_int", "Parse octal", v`parse_int!("0o42")`, 34),
  ex("parse_int", "Parse hexadecimal", v`parse_int!("0xcafe")`, 51966),
  ex("parse_int", "Parse explicit base", v`parse_int!("0744", 8)`, 484),
  ex("parse_int", "Parse explicit base (hexadecimal)", v`parse_int!("abcd", 16)`, 43981),
  ex("parse_json", "Parse JSON", v`parse_json!("{\"key\": \"val\"}")`, { key: "val" }),
  ex(
    "parse_key_value",
    "Parse comma delimited log with standalone keys",
    v`parse_key_value!("env:prod,service:backend,region:eu-east1,beta", field_delimiter: ",", key_value_delimiter: ":")`,
    { env: "prod", service: "backend", region: "eu-east1", beta: true },
  ),
  ex(
    "parse_key_value",
    "Parse duplicate keys",
    v`parse_key_value!("at=info,method=GET,path=\"/index\",status=200,tags=dev,tags=dummy", field_delimiter: ",", key_value_delimiter: "=")`,
    { at: "info", method: "GET", path: "/index", status: "200", tags: ["dev", "dummy"] },
  ),
  ex(
    "parse_key_value",
    "Parse key value pairs with strict whitespace",
    v`parse_key_value!(s'app=my-app ip=1.2.3.4 user= msg=hello-world', whitespace: "strict")`,
    { app: "my-app", ip: "1.2.3.4", user: "", msg: "hello-world" },
  ),
  ex(
    "parse_key_value",
    "Parse key value pairs with lenient whitespace",
    v`parse_key_value!(s'app=my-app ip=1.2.3.4 user= msg=hello-world')`,
    { app: "my-app", ip: "1.2.3.4", user: "msg=hello-world" },
  ),
  ex(
    "parse_logfmt",
    "Parse logfmt log",
    v`parse_logfmt!("@timestamp=\"Sun Jan 10 16:47:39 EST 2021\" level=info msg=\"Stopping all fetchers\" tag#production=stopping_fetchers id=ConsumerFetcherManager-1382721708341 module=kafka.consumer.ConsumerFetcherManager")`,
    KAFKA,
  ),
  ex(
    "parse_regex",
    "Parse using Regex (with capture groups)",
    v`parse_regex!("first group and second group.", r'(?P<number>\w+) group')`,
    { number: "first" },
  ),
  ex(
    "parse_regex",
    "Parse using Regex (without capture groups)",
    v`parse_regex!("first group and second group.", r'(\w+) group', numeric_groups: true)`,
    { "0": "first group", "1": "first" },
  ),
  ex(
    "parse_regex_all",
    "Parse using Regex (all matches)",
    v`parse_regex_all!("first group and second group.", r'(?P<number>\w+) group', numeric_groups: true)`,
    [{ number: "first", "0": "first group", "1": "first" }, {
      number: "second",
      "0": "second group",
      "1": "second",
    }],
  ),
  ex(
    "parse_timestamp",
    "Parse timestamp",
    v`parse_timestamp!("10-Oct-2020 16:00+00:00", format: "%v %R %:z")`,
    "2020-10-10T16:00:00Z",
  ),
  ex("parse_tokens", "Parse tokens", v`parse_tokens("A sentence \"with a \\\"quoted\\\" section\"")`, [
    "A",
    "sentence",
    v`with a \"quoted\" section`,
  ]),
  ex("parse_url", "Parse URL with internationalized domain name", v`parse_url!("https://www.café.com")`, {
    scheme: "https",
    username: "",
    password: "",
    host: "www.xn--caf-dma.com",
    port: null,
    path: "/",
    query: {},
    fragment: null,
  }),
  ex(
    "parse_url",
    "Parse URL with mixed case internationalized domain name",
    v`parse_url!("https://www.CAFé.com")`,
    {
      scheme: "https",
      username: "",
      password: "",
      host: "www.xn--caf-dma.com",
      port: null,
      path: "/",
      query: {},
      fragment: null,
    },
  ),
  ex(
    "parse_user_agent",
    "Reliable mode",
    v`parse_user_agent("Mozilla/4.0 (compatible; MSIE 7.66; Windows NT 5.1; SV1; .NET CLR 1.1.4322)", mode: "reliable")`,
    {
      browser: { family: "Internet Explorer", version: "7.66" },
      device: { category: "pc" },
      os: { family: "Windows XP", version: "NT 5.1" },
    },
  ),
  ex(
    "parse_user_agent",
    "Fast mode",
    v`parse_user_agent("Mozilla Firefox 1.0.1 Mozilla/5.0 (X11; U; Linux i686; de-DE; rv:1.7.6) Gecko/20050223 Firefox/1.0.1")`,
    {
      browser: { family: "Firefox", version: "1.0.1" },
      device: { category: "pc" },
      os: { family: "Linux", version: null },
    },
  ),
];
