/** Functions VRL has that Petrel gained: hashes, flow IDs and small text formats (examples from VRL's docs). */

import { exact, fails, ok, rejects, table } from "./harness.ts";

table("xxhash", [
  exact(`xxhash("foo")`, "3792637401"),
  exact(`xxhash("foo", "XXH32")`, "3792637401"),
  exact(`xxhash("foo", "XXH64")`, "3728699739546630719"),
  exact(`xxhash("foo", "XXH3-64")`, "-6093828362558603894"),
  exact(`xxhash("foo", "XXH3-128")`, '"161745101148472925293886522910304009610"'),
  exact(`xxhash("")`, "46947589"),
  rejects(`xxhash("foo", "XXH16")`, "E610"),
  rejects(`xxhash("foo", .v)`, "E110"),
]);

table("seahash", [
  exact(`seahash("foobar")`, "5348458858952426560"),
  exact(`seahash("bar")`, "-2796170501982571315"),
  exact(`seahash("foo")`, "4413582353838009230"),
  rejects(`seahash!("foo")`, "E620"),
]);

table("community_id", [
  ok(
    `community_id!(source_ip: "1.2.3.4", destination_ip: "5.6.7.8", source_port: 1122, destination_port: 3344, protocol: 6)`,
    "1:wCb3OG7yAFWelaUydu0D+125CLM=",
  ),
  // The flow is the same whichever end is the source.
  ok(
    `community_id!(source_ip: "5.6.7.8", destination_ip: "1.2.3.4", source_port: 3344, destination_port: 1122, protocol: 6)`,
    "1:wCb3OG7yAFWelaUydu0D+125CLM=",
  ),
  fails(`community_id!(source_ip: "nope", destination_ip: "1.2.3.4", protocol: 6)`, "unable to parse IP"),
  fails(`community_id!(source_ip: "::1", destination_ip: "1.2.3.4", protocol: 6)`, "same family"),
  rejects(`community_id(source_ip: "1.2.3.4", destination_ip: "5.6.7.8", protocol: 6)`, "E100"),
]);

table("uuid_from_friendly_id", [
  ok(`uuid_from_friendly_id!("3s87yEvnmkiPBMHsj8bwwc")`, "7f41deed-d5e2-8b5e-7a13-ab4ff93cfad2"),
  ok(`uuid_from_friendly_id!("0")`, "00000000-0000-0000-0000-000000000000"),
  fails(`uuid_from_friendly_id!("not-base62")`, "invalid character"),
]);

table("decode_mime_q", [
  ok(`decode_mime_q!("=?utf-8?b?SGVsbG8sIFdvcmxkIQ==?=")`, "Hello, World!"),
  ok(
    `decode_mime_q!("From: =?utf-8?b?SGVsbG8sIFdvcmxkIQ==?= <=?utf-8?q?hello=5Fworld=40example=2ecom?=>")`,
    "From: Hello, World! <hello_world@example.com>",
  ),
  ok(`decode_mime_q!("?b?SGVsbG8sIFdvcmxkIQ==")`, "Hello, World!"),
  ok(`decode_mime_q!("=?iso-8859-1?q?caf=E9?= =?utf-8?q?_ok?=")`, "café ok"),
  ok(`decode_mime_q!("plain text")`, "plain text"),
]);

table("parse_ruby_hash", [
  ok(
    `parse_ruby_hash!(s'{ "test" => "value", "testNum" => 0.2, "testObj" => { "testBool" => true, "testNull" => nil } }')`,
    { test: "value", testNum: 0.2, testObj: { testBool: true, testNull: null } },
  ),
  ok(`parse_ruby_hash!(s'{ :a => 1, b: [1, "x", :y], "c" => {} }')`, { a: 1, b: [1, "x", "y"], c: {} }),
  ok(`parse_ruby_hash!("{ 'q' => 'it\\\\'s' }")`, { q: "it's" }),
  fails(`parse_ruby_hash!("[1]")`, "expected a hash"),
  fails(`parse_ruby_hash!("{ \\"a\\" => }")`, "unable to parse ruby hash"),
]);

const tags = { host: "A", region: "us-west" };
const ts = "2020-05-26T10:26:13.254420Z";
table("parse_influxdb", [
  ok(
    `parse_influxdb!("cpu,host=A,region=us-west usage_system=64i,usage_user=10u,temperature=50.5,on=true,sleep=false 1590488773254420000")`,
    [
      ["usage_system", 64],
      ["usage_user", 10],
      ["temperature", 50.5],
      ["on", 1],
      ["sleep", 0],
    ].map(([f, v]) => ({ name: `cpu_${f}`, tags, timestamp: ts, kind: "absolute", gauge: { value: v } })),
  ),
  exact(`parse_influxdb!("m v=1i")[0].gauge.value`, "1.0"),
  ok(`parse_influxdb!("m,t=a\\\\ b s=\\"text\\",v=2")`, [
    { name: "m_v", tags: { t: "a b" }, kind: "absolute", gauge: { value: 2 } },
  ]),
  fails(`parse_influxdb!("m v=x")`, "invalid field value"),
  fails(`parse_influxdb!("just-a-name")`, "invalid line protocol"),
]);

table("parse_aws_cloudwatch_log_subscription_message", [
  ok(
    `parse_aws_cloudwatch_log_subscription_message!(s'{"messageType":"DATA_MESSAGE","owner":"111111111111","logGroup":"test","logStream":"test","subscriptionFilters":["Destination"],"logEvents":[{"id":"35683658089614582423604394983260738922885519999578275840","timestamp":1600110569039,"message":"{\\"bytes\\":26780}"}]}')`,
    {
      owner: "111111111111",
      message_type: "DATA_MESSAGE",
      log_group: "test",
      log_stream: "test",
      subscription_filters: ["Destination"],
      log_events: [{
        id: "35683658089614582423604394983260738922885519999578275840",
        message: '{"bytes":26780}',
        timestamp: "2020-09-14T19:09:29.039Z",
      }],
    },
  ),
  fails(`parse_aws_cloudwatch_log_subscription_message!("{}")`, "logEvents"),
  fails(`parse_aws_cloudwatch_log_subscription_message!("nope")`, "unable to parse"),
]);

table("parse_xml", [
  ok(
    `parse_xml!(s'<book category="CHILDREN"><title lang="en">Harry Potter</title><author>J K. Rowling</author><year>2005</year></book>', text_key: "value", parse_number: false)`,
    {
      book: {
        "@category": "CHILDREN",
        author: "J K. Rowling",
        title: { "@lang": "en", value: "Harry Potter" },
        year: "2005",
      },
    },
  ),
  ok(`parse_xml!(s'<a><b>1</b><b>true</b><c/><d x="1"/></a>')`, {
    a: { b: [1, true], c: {}, d: { "@x": "1" } },
  }),
  // VRL's own cases (mixed_types, untrimmed, header_inside_element): an element without children is
  // `{}`, every text node is one `text` value, comments and PIs count as children.
  ok(
    `parse_xml!(s'<data><item>true</item><item>false</item><item>string!</item><!-- Empty object --><item /><item>null</item><item>1</item><item>1.0</item></data>')`,
    { data: { item: [true, false, "string!", {}, null, 1, 1.0] } },
  ),
  ok(`parse_xml!("<root>  <a>test</a>  </root>", trim: false)`, { root: { a: "test", text: ["  ", "  "] } }),
  ok(`parse_xml!(s'<p><?xml?>text123</p>')`, { p: { text: "text123" } }),
  ok(`parse_xml!(s'<a>x<b>1</b>y</a>')`, { a: { b: 1, text: ["x", "y"] } }),
  ok(`parse_xml!(s'<a><!--c-->x</a>')`, { a: { text: "x" } }),
  ok(`parse_xml!(s'<a></a>')`, { a: {} }),
  // roxmltree decodes character references and names elements and attributes without their prefix;
  // namespace declarations are not attributes.
  ok(`parse_xml!(s'<a k="&#65;&#x42;&amp;">&lt;&#65;<![CDATA[&lt;]]></a>')`, {
    a: { "@k": "AB&", text: "<A&lt;" },
  }),
  ok(`parse_xml!(s'<ns:a xmlns:ns="urn:x" ns:k="v"><ns:b>1</ns:b></ns:a>')`, { a: { "@k": "v", b: 1 } }),
  // Entities an internal DTD declares are expanded, within a budget (no "billion laughs").
  ok(`parse_xml!(s'<!DOCTYPE a [<!ENTITY e "h&#105;">]><a k="&e;">&e;!</a>')`, {
    a: { "@k": "hi", text: "hi!" },
  }),
  fails(
    `parse_xml!(s'${
      '<!DOCTYPE a [<!ENTITY l0 "lol">' +
      Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join("") +
      "]><a>&l9;</a>"
    }')`,
    "unable to parse xml: a possible entity reference loop is detected",
  ),
  // An entity nobody declared is an error (not kept as text); inside CDATA it is just text. Positions
  // are in the text roxmltree reads: after `trim`.
  fails(
    `parse_xml!(s'<a>\n<b k="x">&nbsp;</b></a>', trim: false)`,
    "unable to parse xml: unknown entity reference 'nbsp' at 2:10",
  ),
  fails(
    `parse_xml!(s'<a>\n<b k="x">&nbsp;</b></a>')`,
    "unable to parse xml: unknown entity reference 'nbsp' at 1:13",
  ),
  ok(`parse_xml!(s'<a><![CDATA[&nbsp;]]><!-- &c; --></a>')`, { a: { text: "&nbsp;" } }),
  // Rust's `i64` parsing takes a plus sign.
  exact(`parse_xml!(s'<a>+5</a>')`, '{"a":5}'),
  // Attribute values stay text in VRL: parse_bool/parse_null/parse_number apply to element text only.
  exact(
    `parse_xml!(s'<a n="-2" f="1.5" b="true" z="null" e="">3</a>')`,
    '{"a":{"@b":"true","@e":"","@f":"1.5","@n":"-2","@z":"null","text":3}}',
  ),
  exact(`parse_xml!(s'<a><f>1.5</f><n>null</n></a>')`, '{"a":{"f":1.5,"n":null}}'),
  ok(`parse_xml!(s'<a>true</a>', parse_bool: false)`, { a: "true" }),
  ok(`parse_xml!(s'<a>null</a>', parse_null: false)`, { a: "null" }),
  ok(`parse_xml!(s'<a>hi</a>', always_use_text_key: true)`, { a: { text: "hi" } }),
  ok(`parse_xml!(s'<a k="v">x</a>', include_attr: false)`, { a: "x" }),
  ok(`parse_xml!(s'<a k="v">x</a>', attr_prefix: "_")`, { a: { _k: "v", text: "x" } }),
  ok(`parse_xml!(s'<a>  x  </a>', trim: false)`, { a: "  x  " }),
  // `trim` removes white space between tags (VRL's `>\s+?<` → `><`), not around other text.
  ok(`parse_xml!(s'<a>  x  </a>')`, { a: "  x  " }),
  ok(`parse_xml!("<root>\n  <a> b </a>\n  <c>1</c>\n</root>")`, { root: { a: " b ", c: 1 } }),
  ok(`parse_xml!(s'<?xml version="1.0"?><a>x</a>')`, { a: "x" }),
  fails(`parse_xml!("<a>")`, "unable to parse xml"),
  // roxmltree's error for a document that does not start with markup (a case of VRL's own tests).
  ok(
    `_, err = parse_xml("true"); err`,
    `function call error for "parse_xml" at (9:26): unable to parse xml: unknown token at 1:1`,
  ),
  ok(
    `_, err = parse_xml("\n  x<a/>"); err`,
    `function call error for "parse_xml" at (9:30): unable to parse xml: unknown token at 2:3`,
  ),
  rejects(`parse_xml("<a/>")`, "E100"),
]);
