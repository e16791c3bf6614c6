/**
 * `encrypt`/`decrypt` with the algorithms beyond AES and ChaCha20: SM4 in every VRL mode (the GB/T 32907
 * block vector, the SM4 modes draft's CBC/OFB vectors, `openssl enc -sm4-*`), XChaCha20-Poly1305 (checked
 * against ChaCha20-Poly1305 through the HChaCha20 vector of the XChaCha draft) and XSalsa20-Poly1305 (NaCl's
 * secretbox vector), with round trips and the key/iv length errors.
 */

import { fails, ok, rejects, table } from "./harness.ts";

const hex = (h: string) => `decode_base16!("${h}")`;
const enc16 = (data: string, alg: string, key: string, iv: string) =>
  `encode_base16(encrypt!(${data}, "${alg}", ${key}, ${iv}))`;

// GB/T 32907-2016 Appendix A.1: key = plaintext = 0123456789abcdeffedcba9876543210.
const SM4_K = hex("0123456789abcdeffedcba9876543210");
const SM4_BLOCK = "681edf34d206965e86b3e94f536e4246";
const ZERO16 = hex("00".repeat(16));
// draft-ribose-cfrg-sm4 A.2: the mode vectors' iv and plaintext.
const MODE_IV = hex("000102030405060708090a0b0c0d0e0f");
const MODE_P = hex("aaaaaaaabbbbbbbbccccccccddddddddeeeeeeeeffffffffaaaaaaaabbbbbbbb");
const K16 = `"0123456789012345"`;
const OPENSSL_P = `"a secret longer than one SM4 block"`;

table("encrypt: SM4 known vectors", [
  // With a zero iv, CBC's first block is the bare block cipher.
  ok(`slice!(${enc16(SM4_K, "SM4-CBC-PKCS7", SM4_K, ZERO16)}, 0, 32)`, SM4_BLOCK),
  // OFB, CFB and both CTRs encrypt the iv first: zeros under iv = P give E(P).
  ...["SM4-OFB", "SM4-CFB", "SM4-CTR", "SM4-CTR-LE", "SM4-CTR-BE"].map((a) =>
    ok(enc16(ZERO16, a, SM4_K, SM4_K), SM4_BLOCK)
  ),
  ok(
    enc16(MODE_P, "SM4-CBC-PKCS7", SM4_K, MODE_IV),
    "78ebb11cc40b0a48312aaeb2040244cb4cb7016951909226979b0d15dc6a8f6d40d84132e99974a4a880886842074859",
  ),
  ok(
    enc16(MODE_P, "SM4-OFB", SM4_K, MODE_IV),
    "ac3236cb861dd316e6413b4e3c7524b71d01aca2487ca582cbf5463e6698539b",
  ),
  // `openssl enc -sm4-{cfb,ofb,ctr,cbc}` (OpenSSL's CTR is the 128-bit big-endian counter).
  ...[
    ["SM4-CFB", "h38AVCghmfScKQvN7QnCtOpJ5NbPsfpiW7/hLXiCj9wazw=="],
    ["SM4-OFB", "h38AVCghmfScKQvN7QnCtDURq9HIF6ZVabQZu8hB/fQeaA=="],
    ["SM4-CTR-BE", "h38AVCghmfScKQvN7QnCtCAFXm7xDJay4JVj/JL0RCOASw=="],
    ["SM4-CBC-PKCS7", "eZ3+DX7q/oMrP/k8KZSoFxPsKKuyB5chhvDq+Rn7BidmtjGJDzzsda4S2MPtWmJL"],
  ].map(([a, want]) => ok(`encode_base64(encrypt!(${OPENSSL_P}, "${a}", ${K16}, ${K16}))`, want)),
]);

// HChaCha20 vector (draft-irtf-cfrg-xchacha-03 §2.2.1): key 00..1f and this 16-byte nonce give SUBKEY, so
// XChaCha20-Poly1305 with nonce N16 ‖ X equals ChaCha20-Poly1305 under SUBKEY with nonce 0000_0000 ‖ X.
const XC_KEY = hex([...Array(32).keys()].map((i) => i.toString(16).padStart(2, "0")).join(""));
const N16 = "000000090000004a0000000031415927";
const SUBKEY = hex("82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc");
const X = "0102030405060708";

// NaCl tests/secretbox.c: firstkey, nonce, the 131-byte message and the box (tag first, zero prefix cut).
const NACL_KEY = hex("1b27556473e985d462cd51197a9a46c76009549eac6474f206c4ee0844f68389");
const NACL_NONCE = hex("69696ee955b62b73cd62bda875fc73d68219e0036b7a0b37");
const NACL_M = hex(
  "be075fc53c81f2d5cf141316ebeb0c7b5228c52a4c62cbd44b66849b64244ffce5ecbaaf33bd751a1ac728d45e6c61296cdc3c01233561f4" +
    "1db66cce314adb310e3be8250c46f06dceea3a7fa1348057e2f6556ad6b1318a024a838f21af1fde048977eb48f59ffd4924ca1c60902e52" +
    "f0a089bc76897040e082f937763848645e0705",
);
const NACL_C =
  "f3ffc7703f9400e52a7dfb4b3d3305d98e993b9f48681273c29650ba32fc76ce48332ea7164d96a4476fb8c531a1186ac0dfc17c98dce8" +
  "7b4da7f011ec48c97271d2c20f9b928fe2270d6fb863d51738b48eeee314a7cc8ab932164548e526ae90224368517acfeabd6bb3732bc0e9" +
  "da99832b61ca01b6de56244a9e88d5f9b37973f622a43d14a6599b1f654cb45a74e355a5";

table("encrypt: XChaCha20-Poly1305 and XSalsa20-Poly1305 known vectors", [
  ok(
    `${enc16(`"Ladies and Gentlemen"`, "XCHACHA20-POLY1305", XC_KEY, hex(N16 + X))} ==
     ${enc16(`"Ladies and Gentlemen"`, "CHACHA20-POLY1305", SUBKEY, hex("00000000" + X))}`,
    true,
  ),
  ok(`length(encrypt!("abc", "XCHACHA20-POLY1305", ${XC_KEY}, ${hex(N16 + X)}))`, 3 + 16),
  ok(enc16(NACL_M, "XSALSA20-POLY1305", NACL_KEY, NACL_NONCE), NACL_C),
  ok(`decrypt!(${hex(NACL_C)}, "XSALSA20-POLY1305", ${NACL_KEY}, ${NACL_NONCE}) == ${NACL_M}`, true),
]);

const K32 = `"01234567890123456789012345678912"`;
const IV24 = `"012345678901234567890123"`;
const ALL_SM4 = [
  "SM4-CFB",
  "SM4-OFB",
  "SM4-CTR",
  "SM4-CTR-LE",
  "SM4-CTR-BE",
  "SM4-CBC-PKCS7",
  "SM4-CBC-ANSIX923",
  "SM4-CBC-ISO7816",
  "SM4-CBC-ISO10126",
];
const roundTrip = (a: string, key: string, iv: string) =>
  ok(
    `x = "a secret, 𝄞, longer than one block"; decrypt!(encrypt!(x, "${a}", ${key}, ${iv}), "${a}", ${key}, ${iv}) == x`,
    true,
  );

table("encrypt/decrypt: round trips, names and errors", [
  ...ALL_SM4.map((a) => roundTrip(a, K16, K16)),
  roundTrip("XCHACHA20-POLY1305", K32, IV24),
  roundTrip("XSALSA20-POLY1305", K32, IV24),
  // Empty plaintext: the AEADs give just the tag, CBC one block of padding.
  ok(
    `decrypt!(encrypt!("", "XSALSA20-POLY1305", ${K32}, ${IV24}), "XSALSA20-POLY1305", ${K32}, ${IV24})`,
    "",
  ),
  ok(`length(encrypt!("", "SM4-CBC-PKCS7", ${K16}, ${K16}))`, 16),
  // VRL upper-cases the algorithm name.
  ok(`${enc16(OPENSSL_P, "sm4-ofb", K16, K16)} == ${enc16(OPENSSL_P, "SM4-OFB", K16, K16)}`, true),
  // The CBC paddings differ only in the padding block.
  ok(`${enc16(`"abc"`, "SM4-CBC-PKCS7", K16, K16)} != ${enc16(`"abc"`, "SM4-CBC-ANSIX923", K16, K16)}`, true),
  fails(`encrypt!("data", "SM4-CBC-PKCS7", ${K32}, ${K16})`, "Invalid key length: expected 16 bytes, got 32"),
  fails(`encrypt!("data", "SM4-CFB", ${K16}, "short")`, "Invalid iv length: expected 16 bytes, got 5"),
  fails(
    `encrypt!("data", "XCHACHA20-POLY1305", ${K16}, ${IV24})`,
    "Invalid key length: expected 32 bytes, got 16",
  ),
  fails(
    `encrypt!("data", "XCHACHA20-POLY1305", ${K32}, ${K16})`,
    "Invalid iv length: expected 24 bytes, got 16",
  ),
  fails(
    `encrypt!("data", "XSALSA20-POLY1305", ${K32}, "012345678901")`,
    "Invalid iv length: expected 24 bytes",
  ),
  fails(
    `c = encrypt!("data", "XSALSA20-POLY1305", ${K32}, ${IV24}); decrypt!(c + "x", "XSALSA20-POLY1305", ${K32}, ${IV24})`,
    "authentication tag mismatch",
  ),
  fails(
    `c = encrypt!("data", "XCHACHA20-POLY1305", ${K32}, ${IV24}); decrypt!("x" + c, "XCHACHA20-POLY1305", ${K32}, ${IV24})`,
    "authentication tag mismatch",
  ),
  fails(`decrypt!("short", "XCHACHA20-POLY1305", ${K32}, ${IV24})`, "shorter than the authentication tag"),
  fails(`decrypt!("0123456789abcdef", "SM4-CBC-PKCS7", ${K16}, ${K16})`, "Invalid padding"),
  fails(`encrypt!("data", string!(.alg), ${K16}, ${K16})`, "Invalid algorithm: SM4-ECB", { alg: "SM4-ECB" }),
  rejects(`encrypt!("data", "SM4-ECB", ${K16}, ${K16})`, "E610"),
  rejects(`decrypt!("data", "SALSA20-POLY1305", ${K32}, ${IV24})`, "E610"),
]);
