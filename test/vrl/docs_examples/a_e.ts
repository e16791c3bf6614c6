/** VRL docs examples, functions `abs` … `exists`. */

import { type DocsExample, ex, exErr, exJson, v } from "./example.ts";

/** Examples of functions `abs` … `exists`. */
export const A_TO_E: DocsExample[] = [
  ex("abs", "Computes the absolute value of the integer", v`abs(-42)`, 42),
  exJson("abs", "Computes the absolute value of the float", v`abs(-42.2)`, "42.2"),
  ex("append", "Append to an array", v`append([1, 2], [3, 4])`, [1, 2, 3, 4]),
  ex("array", "Declare an array type", v`array!(.value)`, [1, 2, 3], { value: [1, 2, 3] }),
  ex("assert", "Assertion (true)", v`assert!("foo" == "foo", message: "\"foo\" must be \"foo\"!")`, true),
  exErr(
    "assert",
    "Assertion (false)",
    v`assert!("foo" == "bar", message: "\"foo\" must be \"foo\"!")`,
    v`"foo" must be "foo"!`,
  ),
  exErr(
    "assert_eq",
    "Unsuccessful assertion",
    v`assert_eq!(127, [1, 2, 3])`,
    "assertion failed: 127 == [1, 2, 3]",
  ),
  exErr(
    "assert_eq",
    "Unsuccessful assertion with custom log message",
    v`assert_eq!(1, 0, message: "Unequal integers")`,
    "Unequal integers",
  ),
  ex(
    "basename",
    "Extract basename from file path with extension",
    v`basename!("/home/user/file.txt")`,
    "file.txt",
  ),
  ex("basename", "Extract basename from dir path", v`basename!("/home/user/")`, "user"),
  ex("boolean", "Declare a boolean type", v`bool!(.value)`, false, { value: false }),
  ex("chunks", "Split a string into chunks", v`chunks("abcdefgh", 4)`, ["abcd", "efgh"]),
  // The chunks split a character's bytes; they leave VRL through from_utf8_lossy, as in the docs.
  ex("chunks", "Chunk a string with multi-byte characters", v`chunks("ab你好", 4)`, ["ab\uFFFD", "\uFFFD好"]),
  ex(
    "community_id",
    "ICMP",
    v`community_id!(source_ip: "1.2.3.4", destination_ip: "5.6.7.8", source_port: 8, destination_port: 0, protocol: 1)`,
    "1:crodRHL2FEsHjbv3UkRrfbs4bZ0=",
  ),
  ex(
    "community_id",
    "UDP",
    v`community_id!(source_ip: "1.2.3.4", destination_ip: "5.6.7.8", source_port: 1122, destination_port: 3344, protocol: 17)`,
    "1:0Mu9InQx6z4ZiCZM/7HXi2WMhOg=",
  ),
  ex(
    "compact",
    "Compact an array",
    v`compact(["foo", "bar", "", null, [], "buzz"], string: true, array: true, null: true)`,
    ["foo", "bar", "buzz"],
  ),
  ex(
    "compact",
    "Compact an object",
    v`compact({"field1": 1, "field2": "", "field3": [], "field4": null}, string: true, array: true, null: true)`,
    { field1: 1 },
  ),
  ex(
    "contains",
    "String contains (case sensitive)",
    v`contains("The Needle In The Haystack", "Needle")`,
    true,
  ),
  ex(
    "contains",
    "String contains (case insensitive)",
    v`contains("The Needle In The Haystack", "needle", case_sensitive: false)`,
    true,
  ),
  ex(
    "contains_all",
    "String contains all (case insensitive)",
    v`contains_all("the NEEDLE in the haystack", ["needle", "haystack"], case_sensitive: false)`,
    true,
  ),
  ex(
    "crc",
    "Create CRC checksum using the CRC_32_CKSUM algorithm",
    v`crc("foo", algorithm: "CRC_32_CKSUM")`,
    "4271552933",
  ),
  ex(
    "decode_base16",
    "Decode base16 data",
    v`decode_base16!("796f752068617665207375636365737366756c6c79206465636f646564206d65")`,
    "you have successfully decoded me",
  ),
  ex(
    "decode_base64",
    "Decode Base64 data (URL safe)",
    v`decode_base64!("eW91IGNhbid0IG1ha2UgeW91ciBoZWFydCBmZWVsIHNvbWV0aGluZyBpdCB3b24ndA==", charset: "url_safe")`,
    "you can't make your heart feel something it won't",
  ),
  ex(
    "decode_charset",
    "Decode EUC-JP string",
    v`decode_charset!(decode_base64!("pLOk86TLpMGkzw=="), "euc-jp")`,
    "こんにちは",
  ),
  ex(
    "decode_charset",
    "Decode GB2312 string",
    v`decode_charset!(decode_base64!("xOO6ww=="), "gb2312")`,
    "你好",
  ),
  ex(
    "decode_gzip",
    "Decode Gzip data",
    v`decode_gzip!(decode_base64!("H4sIAHEAymMAA6vML1XISCxLVSguTU5OLS5OK83JqVRISU3OT0lNUchNBQD7BGDaIAAAAA=="))`,
    "you have successfully decoded me",
  ),
  ex("decode_punycode", "Decode an ASCII only string", v`decode_punycode!("www.cafe.com")`, "www.cafe.com"),
  ex(
    "decode_punycode",
    "Ignore validation",
    v`decode_punycode!("xn--8hbb.xn--fiba.xn--8hbf.xn--eib.", validate: false)`,
    "١٠.٦٦.٣٠.٥.",
  ),
  ex(
    "decode_zstd",
    "Decode Zstd data",
    v`decode_zstd!(decode_base64!("KLUv/QBY/QEAYsQOFKClbQBedqXsb96EWDax/f/F/z+gNU4ZTInaUeAj82KqPFjUzKqhcfDqAIsLvAsnY1bI/N2mHzDixRQA"))`,
    "you_have_successfully_decoded_me.congratulations.you_are_breathtaking.",
  ),
  ex(
    "decrypt",
    "Decrypt value",
    v`ciphertext = decode_base64!("5fLGcu1VHdzsPcGNDio7asLqE1P43QrVfPfmP4i4zOU=")
iv = decode_base64!("fVEIRkIiczCRWNxaarsyxA==")
key = "16_byte_keyxxxxx"
decrypt!(ciphertext, "AES-128-CBC-PKCS7", key, iv: iv)`,
    "super_secret_message",
  ),
  ex("del", "Delete a field", v`del(.field1)`, 1, { field1: 1, field2: 2 }),
  ex(
    "del",
    "Rename a field",
    v`.new_field = del(.old_field)
.`,
    { new_field: "foo" },
    { old_field: "foo" },
  ),
  ex(
    "dirname",
    "Extract dirname from file path with extension",
    v`dirname!("/home/user/file.txt")`,
    "/home/user",
  ),
  ex("downcase", "Downcase a string", v`downcase("Hello, World!")`, "hello, world!"),
  ex(
    "encode_base64",
    "Encode to Base64 (URL safe)",
    v`encode_base64("please encode me, but safe for URLs", charset: "url_safe")`,
    "cGxlYXNlIGVuY29kZSBtZSwgYnV0IHNhZmUgZm9yIFVSTHM=",
  ),
  ex(
    "encode_charset",
    "Encode UTF8 string to EUC-JP",
    v`encode_base64(encode_charset!("こんにちは", "euc-jp"))`,
    "pLOk86TLpMGkzw==",
  ),
  ex(
    "encode_charset",
    "Encode UTF8 string to GB2312",
    v`encode_base64(encode_charset!("你好", "gb2312"))`,
    "xOO6ww==",
  ),
  ex("encode_json", "Encode to JSON", v`.payload = encode_json({"hello": "world"})`, '{"hello":"world"}'),
  ex(
    "encode_json",
    "Encode an object with several fields",
    v`encode_json({"field": "value", "another": [1, 2, 3]})`,
    '{"another":[1,2,3],"field":"value"}',
  ),
  ex(
    "encode_key_value",
    "Encode with default delimiters (no ordering)",
    v`encode_key_value({"ts": "2021-06-05T17:20:00Z", "msg": "This is a message", "lvl": "info"})`,
    'lvl=info msg="This is a message" ts=2021-06-05T17:20:00Z',
  ),
  ex(
    "encode_key_value",
    "Encode with default delimiters (nested fields)",
    v`encode_key_value({"agent": {"name": "foo"}, "log": {"file": {"path": "my.log"}}, "event": "log"})`,
    "agent.name=foo event=log log.file.path=my.log",
  ),
  ex(
    "encode_key_value",
    "Encode with custom delimiters (no ordering)",
    v`encode_key_value({"ts": "2021-06-05T17:20:00Z", "msg": "This is a message", "lvl": "info"}, field_delimiter: ",", key_value_delimiter: ":")`,
    'lvl:info,msg:"This is a message",ts:2021-06-05T17:20:00Z',
  ),
  ex(
    "encode_key_value",
    "Encode with custom delimiters and flatten boolean",
    v`encode_key_value({"ts": "2021-06-05T17:20:00Z", "msg": "This is a message", "lvl": "info", "beta": true, "dropped": false}, field_delimiter: ",", key_value_delimiter: ":", flatten_boolean: true)`,
    'beta,lvl:info,msg:"This is a message",ts:2021-06-05T17:20:00Z',
  ),
  ex(
    "encode_logfmt",
    "Encode to logfmt (no ordering)",
    v`encode_logfmt({"ts": "2021-06-05T17:20:00Z", "msg": "This is a message", "lvl": "info"})`,
    'lvl=info msg="This is a message" ts=2021-06-05T17:20:00Z',
  ),
  ex(
    "encode_logfmt",
    "Encode to logfmt (nested fields)",
    v`encode_logfmt({"agent": {"name": "foo"}, "log": {"file": {"path": "my.log"}}, "event": "log"})`,
    "agent.name=foo event=log log.file.path=my.log",
  ),
  ex(
    "encode_percent",
    "Percent encode only control characters",
    v`encode_percent("foo \tbar", ascii_set: "CONTROLS")`,
    "foo %09bar",
  ),
  ex("encode_percent", "Percent encode special characters", v`encode_percent("foo@bar?")`, "foo%40bar%3F"),
  ex("encode_punycode", "Encode an ASCII only string", v`encode_punycode!("www.cafe.com")`, "www.cafe.com"),
  ex(
    "encode_punycode",
    "Ignore validation",
    v`encode_punycode!("xn--8hbb.xn--fiba.xn--8hbf.xn--eib.", validate: false)`,
    "xn--8hbb.xn--fiba.xn--8hbf.xn--eib.",
  ),
  ex(
    "encrypt",
    "Encrypt value",
    v`plaintext = "super secret message"
iv = "1234567890123456" # typically you would call random_bytes(16)
key = "16_byte_keyxxxxx"
encrypted_message = encrypt!(plaintext, "AES-128-CBC-PKCS7", key, iv: iv)
encode_base64(encrypted_message)`,
    "GBw8Mu00v0Kc38+/PvsVtGgWuUJ+ZNLgF8Opy8ohIYE=",
  ),
  ex(
    "ends_with",
    "String ends with (case sensitive)",
    v`ends_with("The Needle In The Haystack", "The Haystack")`,
    true,
  ),
  ex(
    "ends_with",
    "String ends with (case insensitive)",
    v`ends_with("The Needle In The Haystack", "the haystack", case_sensitive: false)`,
    true,
  ),
  ex("exists", "Exists (field)", v`exists(.field)`, true, { field: 1 }),
  ex("exists", "Exists (array element)", v`exists(.array[2])`, true, { array: [1, 2, 3] }),
];
