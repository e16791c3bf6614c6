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
