/** VRL docs examples, functions `pascalcase` … `zip` (the `parse_*` ones are in `p.ts`). */

import { type DocsExample, ex, exJson, v } from "./example.ts";

const SUPER = "Supercalifragilisticexpialidocious";

/** Examples of functions `pascalcase` … `zip`, except `parse_*`. */
export const Q_TO_Z: DocsExample[] = [
  ex(
    "pascalcase",
    "PascalCase a string with original case",
    v`pascalcase("input-string", "kebab-case")`,
    "InputString",
  ),
  ex("pop", "Pop an item from an array", v`pop([1, 2, 3])`, [1, 2]),
  ex(
    "redact",
    "Replace us social security numbers in any field",
    v`redact({ "name": "John Doe", "ssn": "123-12-1234"}, filters: ["us_social_security_number"])`,
    { name: "John Doe", ssn: "[REDACTED]" },
  ),
  ex(
    "redact",
    "Replace with SHA-3 hash",
    v`redact("my id is 123456", filters: [r'\d+'], redactor: {"type": "sha3"})`,
    "my id is ZNCdmTDI7PeeUTFnpYjLdUObdizo+bIupZdl8yqnTKGdLx6X3JIqPUlUWUoFBikX+yTR+OcvLtAqWO11NPlNJw==",
  ),
  ex("remove", "single-segment top-level field", v`remove!(value: { "foo": "bar" }, path: ["foo"])`, {}),
  ex(
    "remove",
    "multi-segment nested field",
    v`remove!(value: { "foo": { "bar": "baz" } }, path: ["foo", "bar"])`,
    { foo: {} },
  ),
  ex("remove", "array indexing", v`remove!(value: ["foo", "bar", "baz"], path: [-2])`, ["foo", "baz"]),
  ex(
    "remove",
    "compaction",
    v`remove!(value: { "foo": { "bar": [42], "baz": true } }, path: ["foo", "bar", 0], compact: true)`,
    { foo: { baz: true } },
  ),
  ex("remove_secret", "Remove the Datadog API key", v`remove_secret("datadog_api_key")`, null),
  ex("replace", "Replace literal text", v`replace("Apples and Bananas", "and", "not")`, "Apples not Bananas"),
  ex(
    "replace",
    "Replace using regular expression",
    v`replace("Apples and Bananas", r'(?i)bananas', "Pineapples")`,
    "Apples and Pineapples",
  ),
  ex(
    "replace",
    "Replace first instance",
    v`replace("Bananas and Bananas", "Bananas", "Pineapples", count: 1)`,
    "Pineapples and Bananas",
  ),
  ex("replace", "Replace with capture groups", v`replace("foo123bar", r'foo(?P<num>\d+)bar', "$num")`, "123"),
  ex(
    "replace_with",
    "Capitalize words",
    v`replace_with("apples and bananas", r'\b(\w)(\w*)') -> |match| {
    upcase!(match.captures[0]) + string!(match.captures[1])
}`,
    "Apples And Bananas",
  ),
  ex(
    "replace_with",
    "Replace with hash",
    v`replace_with("email from test@example.com", r'\w+@example.com') -> |match| {
    sha2(match.string, variant: "SHA-512/224")
}`,
    "email from adf6e1bc4415d24912bd93072ad34ef825a7b6eb3bf53f68def1fc17",
  ),
  ex(
    "replace_with",
    "Replace first instance",
    v`replace_with("Apples and Apples", r'(?i)apples|cones', count: 1) -> |match| {
    "Pine" + downcase(match.string)
}`,
    "Pineapples and Apples",
  ),
  exJson("round", "Round a number (without precision)", v`round(4.345)`, "4.0"),
  ex(
    "screamingsnakecase",
    "SCREAMING_SNAKE a string with original case",
    v`screamingsnakecase("input-string", "kebab-case")`,
    "INPUT_STRING",
  ),
  exJson("seahash", "Calculate seahash (negative)", v`seahash("bar")`, "-2796170501982571315"),
  ex("set", "single-segment top-level field", v`set!(value: { "foo": "bar" }, path: ["foo"], data: "baz")`, {
    foo: "baz",
  }),
  ex(
    "set",
    "multi-segment nested field",
    v`set!(value: { "foo": { "bar": "baz" } }, path: ["foo", "bar"], data: "qux")`,
    { foo: { bar: "qux" } },
  ),
  ex("set", "array", v`set!(value: ["foo", "bar", "baz"], path: [-2], data: 42)`, ["foo", 42, "baz"]),
  ex("set_secret", "Set the Datadog API key", v`set_secret("datadog_api_key", "secret-value")`, null),
  ex(
    "set_semantic_meaning",
    "Sets custom field semantic meaning",
    v`set_semantic_meaning(.foo, "bar")`,
    null,
  ),
  ex(
    "sha2",
    "Calculate sha2 hash",
    v`sha2("banana", variant: "SHA-512/224")`,
    "61d296d212ead494bd9f655547882fb95041950526bdc7b7cd049997",
  ),
  ex(
    "sha3",
    "Calculate sha3 hash",
    v`sha3("foo", variant: "SHA3-224")`,
    "f4f6779e153c391bbd29c95e72b0708e39d9166c7cea51d1f10ef58a",
  ),
  exJson(
    "shannon_entropy",
    "Simple byte segmentation example",
    v`floor(shannon_entropy("vector.dev"), precision: 4)`,
    "2.9219",
  ),
  exJson(
    "shannon_entropy",
    "UTF-8 string with bytes segmentation",
    v`floor(shannon_entropy("test123%456.فوائد.net."), precision: 4)`,
    "4.0784",
  ),
  exJson(
    "shannon_entropy",
    "UTF-8 string with grapheme segmentation",
    v`floor(shannon_entropy("test123%456.فوائد.net.", segmentation: "grapheme"), precision: 4)`,
    "3.9362",
  ),
  exJson(
    "shannon_entropy",
    "UTF-8 string with codepoint segmentation",
    v`floor(shannon_entropy("test123%456.فوائد.net.", segmentation: "codepoint"), precision: 4)`,
    "3.9362",
  ),
  ex("sieve", "Sieve with regex", v`sieve("test123%456.فوائد.net.", r'[a-z0-9.]')`, "test123456..net."),
  ex(
    "sieve",
    "Custom replacements",
    v`sieve("test123%456.فوائد.net.", r'[a-z.0-9]', replace_single: "X", replace_repeated: "<REMOVED>")`,
    "test123X456.<REMOVED>.net.",
  ),
  ex("slice", "Slice a string (positive index)", v`slice!("${SUPER}", start: 5, end: 13)`, "califrag"),
  ex(
    "slice",
    "Slice a string (negative index)",
    v`slice!("${SUPER}", start: 5, end: -14)`,
    "califragilistic",
  ),
  ex(
    "snakecase",
    "snake_case a string with original case",
    v`snakecase("input-string", "kebab-case")`,
    "input_string",
  ),
  ex("split", "Split a string (no limit)", v`split("apples and pears and bananas", " and ")`, [
    "apples",
    "pears",
    "bananas",
  ]),
  ex("split", "Split a string (with a limit)", v`split("apples and pears and bananas", " and ", limit: 2)`, [
    "apples",
    "pears and bananas",
  ]),
  ex("split_path", "Split path with trailing slash", v`split_path("/home/user/")`, ["/", "home", "user"]),
  ex("split_path", "Split path from file path", v`split_path("/home/user/file.txt")`, [
    "/",
    "home",
    "user",
    "file.txt",
  ]),
  ex("split_path", "Split path with relative path", v`split_path("user/file.txt")`, ["user", "file.txt"]),
  ex(
    "starts_with",
    "String starts with (case sensitive)",
    v`starts_with("The Needle In The Haystack", "The Needle")`,
    true,
  ),
  ex(
    "starts_with",
    "String starts with (case insensitive)",
    v`starts_with("The Needle In The Haystack", "the needle", case_sensitive: false)`,
    true,
  ),
  ex("string", "Declare a string type", v`string!(.message)`, '{"field": "value"}', {
    message: '{"field": "value"}',
  }),
  ex("strip_whitespace", "Strip whitespace", v`strip_whitespace("  A sentence.  ")`, "A sentence."),
  ex("strlen", "strlen", v`strlen("ñandú")`, 5),
  ex("tag_types_externally", "Tag types externally (scalar)", v`tag_types_externally(123)`, { integer: 123 }),
  ex(
    "tag_types_externally",
    "Tag types externally (object)",
    v`tag_types_externally({"message": "Hello world", "request": {"duration_ms": 67.9}})`,
    { message: { string: "Hello world" }, request: { duration_ms: { float: 67.9 } } },
  ),
  ex("tag_types_externally", "Tag types externally (array)", v`tag_types_externally(["foo", "bar"])`, [{
    string: "foo",
  }, { string: "bar" }]),
  ex("tag_types_externally", "Tag types externally (null)", v`tag_types_externally(null)`, null),
  ex("tally", "tally", v`tally!(["foo", "bar", "foo", "baz"])`, { foo: 2, bar: 1, baz: 1 }),
  ex("tally_value", "count matching values", v`tally_value(["foo", "bar", "foo", "baz"], "foo")`, 2),
  ex("timestamp", "Declare a timestamp type", v`timestamp(t'2020-10-10T16:00:00Z')`, "2020-10-10T16:00:00Z"),
  ex("to_bool", "Coerce to a Boolean (int)", v`to_bool(0)`, false),
  ex("to_bool", "Coerce to a Boolean (Boolean)", v`to_bool(true)`, true),
  exJson("to_float", "Coerce to a float", v`to_float!("3.145")`, "3.145"),
  exJson(
    "to_float",
    "Coerce to a float (timestamp)",
    v`to_float(t'2020-12-30T22:20:53.824727Z')`,
    "1609366853.824727",
  ),
  ex("to_int", "Coerce to an int (string)", v`to_int!("2")`, 2),
  ex("to_int", "Coerce to an int (timestamp)", v`to_int(t'2020-12-30T22:20:53.824727Z')`, 1609366853),
  ex("to_regex", "Coerce to a regex", v`to_regex("^foo$") ?? r'^foo$'`, "^foo$"),
  ex("to_string", "Coerce to a string (int)", v`to_string(52)`, "52"),
  ex("to_string", "Coerce to a string (float)", v`to_string(52.2)`, "52.2"),
  ex(
    "to_syslog_facility_code",
    "Coerce to Syslog facility code",
    v`to_syslog_facility_code!("authpriv")`,
    10,
  ),
  ex(
    "to_unix_timestamp",
    "Convert to a Unix timestamp (milliseconds)",
    v`to_unix_timestamp(t'2021-01-01T00:00:00Z', unit: "milliseconds")`,
    1609459200000,
  ),
  exJson(
    "to_unix_timestamp",
    "Convert to a Unix timestamp (nanoseconds)",
    v`to_unix_timestamp(t'2021-01-01T00:00:00Z', unit: "nanoseconds")`,
    "1609459200000000000",
  ),
  ex(
    "truncate",
    "Truncating a string with a custom suffix",
    v`truncate("A rather long sentence.", limit: 11, suffix: "[TRUNCATED]")`,
    "A rather lo[TRUNCATED]",
  ),
  ex("unflatten", "Unflatten", v`unflatten({"foo.bar.baz": true, "foo.bar.qux": false, "foo.quux": 42})`, {
    foo: { bar: { baz: true, qux: false }, quux: 42 },
  }),
  ex(
    "unflatten",
    "Unflatten recursively",
    v`unflatten({"flattened.parent": {"foo.bar": true, "foo.baz": false}})`,
    { flattened: { parent: { foo: { bar: true, baz: false } } } },
  ),
  ex(
    "unflatten",
    "Unflatten non-recursively",
    v`unflatten({"flattened.parent": {"foo.bar": true, "foo.baz": false}}, recursive: false)`,
    { flattened: { parent: { "foo.bar": true, "foo.baz": false } } },
  ),
  ex("unflatten", "Ignore inconsistent keys values", v`unflatten({"a": 3, "a.b": 2, "a.c": 4})`, {
    a: { b: 2, c: 4 },
  }),
  ex("unique", "Unique", v`unique(["foo", "bar", "foo", "baz"])`, ["foo", "bar", "baz"]),
  ex("unnest", "Unnest an array field", v`. = unnest!(.messages)`, [{ messages: { text: "first" } }, {
    messages: { text: "second" },
  }], { messages: [{ text: "first" }, { text: "second" }] }),
  ex("unnest", "Unnest nested an array field", v`. = unnest!(.event.messages)`, [{
    event: { messages: { text: "first" } },
  }, { event: { messages: { text: "second" } } }], {
    event: { messages: [{ text: "first" }, { text: "second" }] },
  }),
  ex("upcase", "Upcase a string", v`upcase("Hello, World!")`, "HELLO, WORLD!"),
  ex("values", "Get values from the object", v`values({"key1": "val1", "key2": "val2"})`, ["val1", "val2"]),
  ex("zip", "Merge an array of arrays into a single array", v`zip([[1, 2, 3], [4, 5, 6], [7, 8, 9]])`, [
    [1, 4, 7],
    [2, 5, 8],
    [3, 6, 9],
  ]),
];
