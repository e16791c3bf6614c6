/**
 * VRL strings are byte strings: bytes that are not UTF-8 survive through VRL (`engine/vrl/bytes.ts`),
 * and the functions over raw bytes (compression, ciphers, hmac, IP bytes, charsets, CBOR) give VRL's
 * documented results.
 */

import { exact, fails, ok, rejects, table } from "./harness.ts";

const K32 = `"01234567890123456789012345678912"`;
const IV = `"0123456789012345"`;

table("bytes: invalid UTF-8 is kept until it leaves VRL", [
  ok(`encode_base64(decode_base64!("/w=="))`, "/w=="),
  ok(`encode_base16(decode_base16!("c3ff28deadbeef"))`, "c3ff28deadbeef"),
  ok(`length(decode_base64!("3q2+7w=="))`, 4),
  ok(`decode_base64!("3q2+7w==") == decode_base16!("deadbeef")`, true),
  ok(`md5(decode_base64!("/w=="))`, "00594fd4f42ba43fc1ca0427a0576295"),
  ok(`crc(decode_base16!("ff"))`, "4278190080"),
  // Leaving VRL as text, invalid sequences become U+FFFD as Rust's from_utf8_lossy.
  ok(`decode_base16!("61ff62")`, "a\uFFFDb"),
  exact(`encode_json(decode_base16!("61e282"))`, `"\\"a\uFFFD\\""`),
  ok(`encode_base64(join!(chunks("ab€", 2)))`, "YWLigqw="),
  ok(`length(chunks("ab€", 2))`, 3),
]);

table("bytes: compression", [
  ok(`encode_base64(encode_gzip("please encode me"))`, "H4sIAAAAAAAA/yvISU0sTlVIzUvOT0lVyE0FAI4R4vcQAAAA"),
  ok(`encode_base64(encode_zlib("please encode me"))`, "eJwryElNLE5VSM1Lzk9JVchNBQA0RQX7"),
  ok(`encode_base64(encode_zstd("please encode me"))`, "KLUv/QBYgQAAcGxlYXNlIGVuY29kZSBtZQ=="),
  ok(
    `encode_base64(encode_snappy!("The quick brown fox jumps over 13 lazy dogs."))`,
    "LKxUaGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgMTMgbGF6eSBkb2dzLg==",
  ),
  ok(
    `decode_snappy!(decode_base64!("LKxUaGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgMTMgbGF6eSBkb2dzLg=="))`,
    "The quick brown fox jumps over 13 lazy dogs.",
  ),
  ok(
    `encode_base64(encode_lz4!("The quick brown fox jumps over 13 lazy dogs."))`,
    "LAAAAPAdVGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIDEzIGxhenkgZG9ncy4=",
  ),
  ok(
    `decode_lz4!(decode_base64!("LAAAAPAdVGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIDEzIGxhenkgZG9ncy4="))`,
    "The quick brown fox jumps over 13 lazy dogs.",
  ),
  ok(
    `decode_zstd!(decode_base64!("KLUv/QBYgQAAcGxlYXNlIGVuY29kZSBtZQ=="))`,
    "please encode me",
  ),
  ok(`x = "héllo wörld, héllo wörld"; decode_gzip!(encode_gzip(x, compression_level: 9)) == x`, true),
  ok(`x = "héllo wörld, héllo wörld"; decode_zlib!(encode_zlib(x, 1)) == x`, true),
  ok(`x = "héllo wörld, héllo wörld"; decode_zstd!(encode_zstd(x, 19)) == x`, true),
  ok(`x = "abcabcabcabcabcabcabcabcabcabc!"; decode_lz4!(encode_lz4!(x)) == x`, true),
  ok(`x = "abcabcabcabcabcabcabcabcabcabc!"; length(encode_lz4!(x)) < length(x)`, true),
  ok(`decode_lz4!(encode_lz4!("xyz", prepend_size: false), prepended_size: false)`, "xyz"),
  ok(`x = decode_base16!("00ff80"); decode_gzip!(encode_gzip(x)) == x`, true),
  fails(`decode_gzip!("not gzip")`, "unable to decode value with Gzip decoder"),
  fails(`decode_zlib!("not zlib")`, "unable to decode value with Zlib decoder"),
  fails(`decode_zstd!("not zstd")`, "unable to decode value with Zstd decoder"),
  fails(`decode_snappy!(decode_base16!("ffffffff0f"))`, "unable to decode value with Snappy decoder"),
  fails(`decode_lz4!(decode_base16!("0a000000ff"))`, "unable to decode value with Lz4 decoder"),
  rejects(`decode_gzip("x")`, "E100"),
]);

table("bytes: encrypt, decrypt, hmac, random_bytes", [
  ok(`encode_base64(encrypt!("data", "AES-256-CFB", ${K32}, ${IV}))`, "c/dIOA=="),
  ok(`encode_base64(encrypt!("data", "AES-256-CBC-PKCS7", ${K32}, ${IV}))`, "vcvLzoV64d0XlmSy7EFdrA=="),
  // Multi-block ciphertexts from `openssl enc -aes-256-{cfb,ofb,cbc,ctr}` with the same key and iv.
  ...[
    ["AES-256-CFB", "drZPPEC9DZXiFmxMlczCZ2UjxXpvdx4vmRF0jylsIsHslA=="],
    ["AES-256-OFB", "drZPPEC9DZXiFmxMlczCZ3i6QnH8dYZb9CcbTb2UzVHSYA=="],
    ["AES-256-CBC-PKCS7", "dTg2quHJgM/JFCPgdJl8jdmbtfh5k3OryQw0foaw/J2br2QnckLSwHeNn+XjMp1J"],
    ["AES-256-CTR-BE", "drZPPEC9DZXiFmxMlczCZx+xoSEbiKLuzycJ6e70c5LSOg=="],
  ].map(([a, want]) =>
    ok(`encode_base64(encrypt!("a secret longer than one AES block", "${a}", ${K32}, ${IV}))`, want)
  ),
  ...[
    "AES-256-CFB",
    "AES-256-OFB",
    "AES-256-CTR",
    "AES-256-CTR-LE",
    "AES-256-CTR-BE",
    "AES-256-CBC-PKCS7",
    "AES-256-CBC-ANSIX923",
    "AES-256-CBC-ISO7816",
    "AES-256-CBC-ISO10126",
  ].map((a) =>
    ok(
      `x = "a secret longer than one AES block"; decrypt!(encrypt!(x, "${a}", ${K32}, ${IV}), "${a}", ${K32}, ${IV}) == x`,
      true,
    )
  ),
  ok(
    `x = "k"; decrypt!(encrypt!(x, "AES-128-OFB", "0123456789012345", ${IV}), "AES-128-OFB", "0123456789012345", ${IV})`,
    "k",
  ),
  ok(
    `decrypt!(encrypt!("abc", "CHACHA20-POLY1305", ${K32}, "012345678901"), "CHACHA20-POLY1305", ${K32}, "012345678901")`,
    "abc",
  ),
  // The CTR variants differ in how the counter counts, not in the first block.
  ok(
    `x = "0123456789abcdef0123456789abcdef"; encrypt!(x, "AES-256-CTR-LE", ${K32}, ${IV}) != encrypt!(x, "AES-256-CTR-BE", ${K32}, ${IV})`,
    true,
  ),
  fails(`encrypt!("data", "AES-256-CFB", "short", ${IV})`, "Invalid key length"),
  fails(`encrypt!("data", "AES-256-CFB", ${K32}, "short")`, "Invalid iv length"),
  fails(`decrypt!("0123456789abcdef", "AES-256-CBC-PKCS7", ${K32}, ${IV})`, "Invalid padding"),
  rejects(`encrypt!("data", "AES-256-NOPE", ${K32}, ${IV})`, "E610"),
  ok(
    `encode_base64(hmac("Hello there", "super-secret-key"))`,
    "eLGE8YMviv85NPXgISRUZxstBNSU47JQdcXkUWcClmI=",
  ),
  ok(
    `encode_base16(hmac("Hello there", "super-secret-key", algorithm: "SHA1"))`,
    "322c812073bc49eb7dfba72b00b8b0912d3214f1",
  ),
  rejects(`hmac("a", "k", algorithm: "MD5")`, "E610"),
  ok(`length(random_bytes(16))`, 16),
  ok(`random_bytes(16) != random_bytes(16)`, true),
  rejects(`random_bytes(.n)`, "E110"),
  fails(`n = to_int!(.n); random_bytes!(n)`, "Length cannot be negative", { n: -1 }),
]);

table("bytes: ip_pton, ip_ntop, charsets, parse_cbor", [
  ok(`encode_base64(ip_pton!("192.168.0.1"))`, "wKgAAQ=="),
  ok(`encode_base16(ip_pton!("2001:db8::1"))`, "20010db8000000000000000000000001"),
  ok(`ip_ntop!(decode_base64!("wKgAAQ=="))`, "192.168.0.1"),
  ok(`ip_ntop!(decode_base64!("IAENuIWjAAAAAIouA3BzNA=="))`, "2001:db8:85a3::8a2e:370:7334"),
  ok(`ip_ntop!(ip_pton!("::ffff:1.2.3.4"))`, "::ffff:1.2.3.4"),
  ok(`ip_ntop!(ip_pton!("::"))`, "::"),
  fails(`ip_pton!("not an ip")`, "unable to parse IP address"),
  fails(`ip_ntop!("abc")`, "4 or 16 bytes"),
  ok(`encode_base64(encode_charset!("안녕하세요", "euc-kr"))`, "vsiz58fPvLy/5A=="),
  ok(`decode_charset!(decode_base64!("vsiz58fPvLy/5A=="), "euc-kr")`, "안녕하세요"),
  ok(`decode_charset!(decode_base16!("e9"), "iso-8859-1")`, "é"),
  fails(`encode_charset!("a", "no-such-charset")`, "Unknown charset"),
  ok(`encode_base16(encode_charset!("café", "windows-1252"))`, "636166e9"),
  ok(`encode_base16(encode_charset!("日本", "shift_jis"))`, "93fa967b"),
  ok(`encode_base16(encode_charset!("中文", "gbk"))`, "d6d0cec4"),
  ok(`encode_base16(encode_charset!("ab", "utf-16le"))`, "61006200"),
  ok(`x = "abc, 안녕하세요"; decode_charset!(encode_charset!(x, "euc-kr"), "euc-kr") == x`, true),
  // A character the charset cannot hold becomes a numeric character reference, as encoding_rs does.
  ok(`encode_charset!("a日b", "iso-8859-1")`, "a&#26085;b"),
  ok(`decode_charset!(decode_base16!("93fa967b"), "Shift_JIS")`, "日本"),
  ok(`parse_cbor!(decode_base64!("oWVmaWVsZGV2YWx1ZQ=="))`, { field: "value" }),
  // 1 and 1.0 stay apart: an integer, a half float, a float64, an array, true/null.
  exact(
    `parse_cbor!(decode_base16!("8601f93c00fb3ff8000000000000f5f6820102"))`,
    "[1,1.0,1.5,true,null,[1,2]]",
  ),
  ok(`parse_cbor!(decode_base16!("3863"))`, -100),
  fails(`parse_cbor!(decode_base16!("ff"))`, "unable to parse CBOR"),
  fails(`parse_cbor!(decode_base16!("8201"))`, "unexpected end"),
]);
