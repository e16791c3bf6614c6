/** Encoding and hashing functions. */

import { fails, ok, rejects, table } from "./harness.ts";

table("encode_json", [
  ok(`encode_json({"b": 1, "a": [true, null, 1.5, 2.0]})`, '{"a":[true,null,1.5,2.0],"b":1}'),
  ok(`encode_json("s\\"q")`, '"s\\"q"'),
  ok(`encode_json(t'2020-01-01T00:00:00Z')`, '"2020-01-01T00:00:00Z"'),
  ok(`encode_json({"a": 1}, pretty: true)`, '{\n  "a": 1\n}'),
  ok(`encode_json({})`, "{}"),
  ok(`encode_json([1e21, 1.5e-7, 1e15, 0.0])`, "[1e21,1.5e-7,1000000000000000.0,0.0]"),
  ok(`parse_json!(encode_json({"x": [1, "y"]}))`, { x: [1, "y"] }),
]);

table("base64/base16", [
  ok(`encode_base64("please encode me")`, "cGxlYXNlIGVuY29kZSBtZQ=="),
  ok(
    `encode_base64("please encode me, no padding though", padding: false)`,
    "cGxlYXNlIGVuY29kZSBtZSwgbm8gcGFkZGluZyB0aG91Z2g",
  ),
  ok(`encode_base64("?>?>", charset: "url_safe")`, "Pz4_Pg=="),
  ok(`encode_base64("")`, ""),
  ok(`encode_base64("héllo")`, "aMOpbGxv"),
  ok(`decode_base64!("eW91IGhhdmUgc3VjY2Vzc2Z1bGx5IGRlY29kZWQgbWU=")`, "you have successfully decoded me"),
  ok(`decode_base64!("Pz4_Pg==", charset: "url_safe")`, "?>?>"),
  ok(`decode_base64!("aMOpbGxv")`, "héllo"),
  ok(`decode_base64!("YQ")`, "a"),
  fails(`decode_base64!("not base64!")`, "unable to decode value from base64"),
  ok(`encode_base16("please encode me")`, "706c6561736520656e636f6465206d65"),
  ok(`decode_base16!("706c6561736520656e636f6465206d65")`, "please encode me"),
  fails(`decode_base16!("xyz")`, "unable to decode value from base16"),
  rejects(`decode_base64("x")`, "E100"),
]);

table("percent encoding", [
  ok(`encode_percent("foo bar?")`, "foo%20bar%3F"),
  ok(`encode_percent("foo @bar?", ascii_set: "CONTROLS")`, "foo @bar?"),
  ok(`encode_percent("a-b_c.d~e")`, "a%2Db%5Fc%2Ed%7Ee"),
  ok(`encode_percent("é")`, "%C3%A9"),
  ok(`encode_percent("")`, ""),
  rejects(`encode_percent("x", ascii_set: "NOPE")`, "E610"),
  ok(`decode_percent("foo%20bar%3F")`, "foo bar?"),
  ok(`decode_percent("%C3%A9%zz")`, "é%zz"),
]);

table("hashes", [
  ok(`md5("foo")`, "acbd18db4cc2f85cedef654fccc4a4d8"),
  ok(`md5("")`, "d41d8cd98f00b204e9800998ecf8427e"),
  ok(`sha1("foo")`, "0beec7b5ea3f0fdbc95d0dd47f3c5bc275da8a33"),
  ok(`sha2("foo", variant: "SHA-256")`, "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae"),
  ok(`length(sha2("foo"))`, 64),
  ok(`length(sha2("foo", "SHA-512"))`, 128),
  ok(`sha3("foo", variant: "SHA3-256")`, "76d3bc41c9f588f7fcd0d5bf4718f8f84b1c41b20882703100b9eb9413807c01"),
  ok(`length(sha3("foo"))`, 128),
  rejects(`sha2("foo", variant: "SHA-1")`, "E610"),
  rejects(`md5(1)`, "E110"),
  ok(`crc("foo")`, "2356372769"),
]);

table("key/value, logfmt and csv encoders", [
  ok(`encode_key_value({"lvl": "info", "msg": "a b", "n": 1})`, 'lvl=info msg="a b" n=1'),
  ok(
    `encode_key_value({"ts": "x", "lvl": "info", "log": {"file": "f"}}, fields_ordering: ["ts", "lvl"])`,
    "ts=x lvl=info log.file=f",
  ),
  ok(`encode_key_value({"a": "1", "b": "2"}, key_value_delimiter: ":", field_delimiter: ",")`, "a:1,b:2"),
  ok(`encode_key_value({"on": true, "off": false, "x": "y"}, flatten_boolean: true)`, "on x=y"),
  ok(`encode_logfmt({"msg": "hello world", "lvl": "info"}, ["lvl"])`, 'lvl=info msg="hello world"'),
  ok(`encode_logfmt({})`, ""),
  ok(`encode_csv!(["a", "b,c", 1, "q\\"q"])`, 'a,"b,c",1,"q""q"'),
  ok(`encode_csv!(["a", "b"], delimiter: "\\t")`, "a\tb"),
]);
