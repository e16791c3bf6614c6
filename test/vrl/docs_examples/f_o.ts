/** VRL docs examples, functions `filter` … `object_from_array`. */

import { type DocsExample, ex, v } from "./example.ts";

const TAGS = { tags: ["foo", "bar", "foo", "baz"] };

/** Examples of functions `filter` … `object_from_array`. */
export const F_TO_O: DocsExample[] = [
  ex(
    "filter",
    "Filter elements",
    v`filter(array!(.tags)) -> |_index, value| {
    # keep any elements that aren't equal to "foo"
    value != "foo"
}`,
    ["bar", "baz"],
    TAGS,
  ),
  ex("find", "Match text after a position", v`find("foobarfoobarfoo", "bar", 4)`, 9),
  ex("flatten", "Flatten array", v`flatten([1, [2, 3, 4], [5, [6, 7], 8], 9])`, [1, 2, 3, 4, 5, 6, 7, 8, 9]),
  ex(
    "flatten",
    "Flatten object",
    v`flatten({"parent1": {"child1": 1, "child2": 2}, "parent2": {"child3": 3}})`,
    { "parent1.child1": 1, "parent1.child2": 2, "parent2.child3": 3 },
  ),
  ex("flatten", "Flatten object with custom separator", v`flatten({"foo": {"bar": true}}, "_")`, {
    foo_bar: true,
  }),
  ex("float", "Declare a float type", v`float!(.value)`, 3.14, { value: 3.14 }),
  ex(
    "for_each",
    "Tally elements",
    v`tally = {}
for_each(array!(.tags)) -> |_index, value| {
    # Get the current tally for the value, defaulting to 0.
    count = int(get!(tally, [value])) ?? 0

    # Increment the tally for the value by 1.
    tally = set!(tally, [value], count + 1)
}
tally`,
    { bar: 1, baz: 1, foo: 2 },
    TAGS,
  ),
  ex("format_int", "Format as a hexadecimal integer", v`format_int!(42, 16)`, "2a"),
  ex("format_int", "Format as a negative hexadecimal integer", v`format_int!(-42, 16)`, "-2a"),
  ex(
    "format_timestamp",
    "Format a timestamp (custom)",
    v`format_timestamp!(t'2020-10-21T16:00:00Z', format: "%v %R")`,
    "21-Oct-2020 16:00",
  ),
  ex(
    "format_timestamp",
    "Format a timestamp with time zone conversion",
    v`format_timestamp!(t'2020-10-21T16:00:00Z', format: "%+", timezone: "Europe/Berlin")`,
    "2020-10-21T18:00:00+02:00",
  ),
  ex(
    "from_unix_timestamp",
    "Convert from a Unix timestamp (milliseconds)",
    v`from_unix_timestamp!(5000, unit: "milliseconds")`,
    "1970-01-01T00:00:05Z",
  ),
  ex(
    "from_unix_timestamp",
    "Convert from a Unix timestamp (microseconds)",
    v`from_unix_timestamp!(5000000, unit: "microseconds")`,
    "1970-01-01T00:00:05Z",
  ),
  ex(
    "from_unix_timestamp",
    "Convert from a Unix timestamp (nanoseconds)",
    v`from_unix_timestamp!(5000000000, unit: "nanoseconds")`,
    "1970-01-01T00:00:05Z",
  ),
  ex("get", "single-segment top-level field", v`get!(value: { "foo": "bar" }, path: ["foo"])`, "bar"),
  ex(
    "get",
    "multi-segment nested field",
    v`get!(value: { "foo": { "bar": "baz" } }, path: ["foo", "bar"])`,
    "baz",
  ),
  ex("get", "array indexing", v`get!(value: ["foo", "bar", "baz"], path: [-2])`, "bar"),
  ex("haversine", "Haversine in miles", v`haversine(0.0, 0.0, 10.0, 10.0, "miles")`, {
    distance: 974.6348468,
    bearing: 44.561,
  }),
  ex(
    "hmac",
    "Calculate message HMAC using SHA-224, encoding to a hex-encoded string",
    v`encode_base16(hmac("Hello there", "super-secret-key", algorithm: "SHA-224"))`,
    "42fccbc2b7d22a143b92f265a8046187558a94d11ddbb30622207e90",
  ),
  ex("includes", "Array includes", v`includes(["apple", "orange", "banana"], "banana")`, true),
  ex("int", "Declare an integer type", v`int!(.value)`, 42, { value: 42 }),
  ex(
    "ip_cidr_contains",
    "IPv4 is private",
    v`ip_cidr_contains!(["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"], "192.168.10.32")`,
    true,
  ),
  ex(
    "ip_cidr_contains",
    "IPv6 contains CIDR",
    v`ip_cidr_contains!("2001:4f8:4:ba::/64", "2001:4f8:4:ba:2e0:81ff:fe22:d1f1")`,
    true,
  ),
  ex(
    "ip_pton",
    "Convert IPv6 address to bytes and encode to Base64",
    v`encode_base64(ip_pton!("2001:db8:85a3::8a2e:370:7334"))`,
    "IAENuIWjAAAAAIouA3BzNA==",
  ),
  ex("is_array", "Valid array", v`is_array([1, 2, 3])`, true),
  ex("is_array", "Non-matching type", v`is_array("a string")`, false),
  ex("is_boolean", "Non-matching type", v`is_boolean("a string")`, false),
  ex("is_empty", "Non-empty string", v`is_empty("a string")`, false),
  ex("is_empty", "Non-empty object", v`is_empty({"foo": "bar"})`, false),
  ex("is_float", "Valid float", v`is_float(0.577)`, true),
  ex("is_float", "Non-matching type", v`is_float("a string")`, false),
  ex("is_integer", "Non-matching type", v`is_integer("a string")`, false),
  ex("is_ipv4", "Valid IPv4 address", v`is_ipv4("10.0.102.37")`, true),
  ex("is_ipv4", "Valid IPv6 address", v`is_ipv4("2001:0db8:85a3:0000:0000:8a2e:0370:7334")`, false),
  ex("is_ipv4", "Arbitrary string", v`is_ipv4("foobar")`, false),
  ex("is_ipv6", "Valid IPv6 address", v`is_ipv6("2001:0db8:85a3:0000:0000:8a2e:0370:7334")`, true),
  ex("is_ipv6", "Valid IPv4 address", v`is_ipv6("10.0.102.37")`, false),
  ex("is_ipv6", "Arbitrary string", v`is_ipv6("foobar")`, false),
  ex("is_json", "Non-valid value", v`is_json("{")`, false),
  ex("is_json", "Exact variant", v`is_json("{}", variant: "object")`, true),
  ex("is_json", "Non-valid exact variant", v`is_json("{}", variant: "array")`, false),
  ex("is_null", "Non-matching type", v`is_null("a string")`, false),
  ex("is_nullish", "Null detection (whitespace)", v`is_nullish("\n  \n")`, true),
  ex("is_object", "Valid object", v`is_object({"foo": "bar"})`, true),
  ex("is_object", "Non-matching type", v`is_object("a string")`, false),
  ex("is_regex", "Valid regex", v`is_regex(r'pattern')`, true),
  ex("is_regex", "Non-matching type", v`is_regex("a string")`, false),
  ex("is_string", "Valid string", v`is_string("a string")`, true),
  ex("is_string", "Non-matching type", v`is_string([1, 2, 3])`, false),
  ex("is_timestamp", "Valid timestamp", v`is_timestamp(t'2021-03-26T16:00:00Z')`, true),
  ex("is_timestamp", "Non-matching type", v`is_timestamp("a string")`, false),
  ex("join", "Join array (no separator)", v`join!(["bring", "us", "together"])`, "bringustogether"),
  ex(
    "join",
    "Join array (comma separator)",
    v`join!(["sources", "transforms", "sinks"], separator: ", ")`,
    "sources, transforms, sinks",
  ),
  ex("keys", "Get keys from the object", v`keys({"key1": "val1", "key2": "val2"})`, ["key1", "key2"]),
  ex("length", "Length (object)", v`length({"portland": "Trail Blazers", "seattle": "Supersonics"})`, 2),
  ex(
    "length",
    "Length (nested object)",
    v`length({"home": {"city": "Portland", "state": "Oregon"}, "name": "Trail Blazers", "mascot": {"name": "Blaze the Trail Cat"}})`,
    3,
  ),
  ex("length", "Length (array)", v`length(["Trail Blazers", "Supersonics", "Grizzlies"])`, 3),
  ex("length", "Length (string)", v`length("The Planet of the Apes Musical")`, 30),
  ex("map_keys", "Upcase keys", v`map_keys(.) -> |key| { upcase(key) }`, { FOO: "foo", BAR: "bar" }, {
    foo: "foo",
    bar: "bar",
  }),
  ex("map_keys", "De-dot keys", v`map_keys(., recursive: true) -> |key| { replace(key, ".", "_") }`, {
    labels: { "app_kubernetes_io/name": "mysql" },
  }, { labels: { "app.kubernetes.io/name": "mysql" } }),
  ex("map_values", "Upcase values", v`map_values(.) -> |value| { upcase!(value) }`, {
    foo: "FOO",
    bar: "BAR",
  }, { foo: "foo", bar: "bar" }),
  ex(
    "match",
    "String does not match the regular expression",
    v`match("I'm a little teapot", r'.*balloon')`,
    false,
  ),
  ex(
    "match_any",
    "Regex match on a string",
    v`match_any("I'm a little teapot", [r'frying pan', r'teapot'])`,
    true,
  ),
  ex("match_array", "Match at least one element", v`match_array(["foobar", "bazqux"], r'foo')`, true),
  ex(
    "match_array",
    "Match all elements",
    v`match_array(["foo", "foobar", "barfoo"], r'foo', all: true)`,
    true,
  ),
  ex("match_array", "No matches", v`match_array(["bazqux", "xyz"], r'foo')`, false),
  ex(
    "match_array",
    "Not all elements match",
    v`match_array(["foo", "foobar", "baz"], r'foo', all: true)`,
    false,
  ),
  ex(
    "match_datadog_query",
    "OR query",
    v`match_datadog_query({"message": "contains this and that"}, "this OR that")`,
    true,
  ),
  ex(
    "match_datadog_query",
    "AND query",
    v`match_datadog_query({"message": "contains only this"}, "this AND that")`,
    false,
  ),
  ex(
    "match_datadog_query",
    "Attribute wildcard",
    v`match_datadog_query({"name": "foobar"}, "@name:foo*")`,
    true,
  ),
  ex(
    "match_datadog_query",
    "Tag range",
    v`match_datadog_query({"tags": ["a:x", "b:y", "c:z"]}, s'b:["x" TO "z"]')`,
    true,
  ),
  ex(
    "merge",
    "Object merge (shallow)",
    v`merge({"parent1": {"child1": 1, "child2": 2}, "parent2": {"child3": 3}}, {"parent1": {"child2": 4, "child5": 5}})`,
    { parent1: { child2: 4, child5: 5 }, parent2: { child3: 3 } },
  ),
  ex(
    "merge",
    "Object merge (deep)",
    v`merge({"parent1": {"child1": 1, "child2": 2}, "parent2": {"child3": 3}}, {"parent1": {"child2": 4, "child5": 5}}, deep: true)`,
    { parent1: { child1: 1, child2: 4, child5: 5 }, parent2: { child3: 3 } },
  ),
  ex("object", "Declare an object type", v`object!(.value)`, { field1: "value1", field2: "value2" }, {
    value: { field1: "value1", field2: "value2" },
  }),
  ex(
    "object_from_array",
    "Create an object from an array of keys and values",
    v`object_from_array([["one", 1], [null, 2], ["two", 3]])`,
    { one: 1, two: 3 },
  ),
  ex(
    "object_from_array",
    "Create an object from separate key and value arrays",
    v`object_from_array([1, 2, 3], keys: ["one", null, "three"])`,
    { one: 1, three: 3 },
  ),
  ex(
    "object_from_array",
    "Create an object from a separate arrays of keys and values",
    v`object_from_array(values: [1, null, true], keys: ["a", "b", "c"])`,
    { a: 1, b: null, c: true },
  ),
];
