/**
 * `parse_proto` and `encode_proto` against the descriptor set in `fixtures/protobuf/` (compiled by protoc
 * from the `.proto` files there). The base64 payloads marked "protoc" were written by
 * `protoc --encode` from text format, so both directions are pinned to the reference implementation.
 */

import { exact, fails, ok, rejects, table } from "./harness.ts";

const DIR = new URL("./fixtures/protobuf/", import.meta.url).pathname;
const DESC = `${DIR}protobuf_descriptor_set.desc`;
const person = (payload: string) =>
  `parse_proto!(decode_base64!("${payload}"), "${DESC}", "test_protobuf.Person")`;
const scalars = (payload: string) =>
  `parse_proto!(decode_base64!("${payload}"), "${DESC}", "test_protobuf.Scalars")`;
const encode = (value: string, type = "test_protobuf.Person") =>
  `encode_base64(encode_proto!(${value}, "${DESC}", "${type}"))`;

// protoc: every scalar type, packed/unpacked repeated, an integer-keyed map, a oneof and a proto3 optional.
const SCALARS =
  "CQAAAAAAAPg/FQAAEMAY+f//////////ASCAzLu83v////8BKP////8PMP///////////wE4BUD///////////8BTQcAAABR" +
  "/////////39d+////2H6/////////2gBcgZow6lsbG96Av8AggENAf///////////wGsAooBAWGKAQFikgEQCPz//////////wESA25l" +
  "Z6ABAKgBAA==";
const SCALARS_JSON = `{"b":true,"by":"\uFFFD\\u0000","d":1.5,"f":-2.25,"fx32":7,"fx64":9223372036854775807,` +
  `"i32":-7,"i64":-9000000000,"int_map":{"-4":"neg"},"number":0,"opt_bool":false,"packed":[1,-1,300],` +
  `"s":"héllo","s32":-3,"s64":-9223372036854775808,"sfx32":-5,"sfx64":-6,"strs":["a","b"],` +
  `"u32":4294967295,"u64":-1}`;
// protoc: enums, nested and repeated messages, a Timestamp, a string map, a proto3 `optional` set to 0.
const PERSON = "Cgdzb21lb25lECoiBQoBMRACIgMKATIqCAiA4s+qBhAFMgYKAWsSAXY4AA==";
// protoc: proto2 (explicit presence, unpacked and [packed = true] repeated fields).
const LEGACY = "CAAYARgCIgIDBCgA";

table("parse_proto", [
  // VRL's documented example.
  ok(person("Cgdzb21lb25lIggKBjEyMzQ1Ng=="), { name: "someone", phones: [{ number: "123456" }] }),
  exact(scalars(SCALARS), SCALARS_JSON),
  ok(`encode_base64!(${scalars(SCALARS)}.by)`, "/wA="),
  ok(person(PERSON), {
    data: { k: "v" },
    id: 42,
    job_id: 0,
    last_updated: { nanos: 5, seconds: 1700000000 },
    name: "someone",
    phones: [{ number: "1", type: "WORK" }, { number: "2" }],
  }),
  ok(`parse_proto!(decode_base64!("${LEGACY}"), "${DESC}", "legacy.Record")`, {
    count: 0,
    flag: false,
    packed: [3, 4],
    plain: [1, 2],
  }),
  // proto3 fields holding their default are not set; empty input is an empty message.
  ok(person(""), {}),
  ok(person("EAAaAA=="), {}),
  // Unknown fields (here 99: varint) are skipped; a repeated singular field keeps the last value.
  ok(person("mAYBCgFhCgFi"), { name: "b" }),
  // A message field seen twice is merged.
  ok(person("KgIIASoCEAI="), { last_updated: { seconds: 1, nanos: 2 } }),
  // Unpacked encoding of a packed field is accepted too.
  ok(scalars("gAEBgAEC"), { packed: [1, 2] }),
  // Nested message types by full name.
  ok(
    `parse_proto!(decode_base64!("CgExEAE="), "${DESC}", "test_protobuf.Person.PhoneNumber")`,
    { number: "1", type: "HOME" },
  ),
  fails(person("IgIQCQ=="), "The number 9 cannot be in 'PhoneType'"),
  fails(person("Cg=="), "Error parsing protobuf: failed to decode Protobuf message"),
  fails(person("Cgpz"), "buffer underflow"),
  fails(person("CgL/AA=="), "invalid string value: data is not UTF-8 encoded"),
  fails(person("CAE="), "invalid wire type"),
  fails(person("Bw=="), "Error parsing protobuf"),
  fails(scalars("CQAAAAAAAPh/"), "Float number cannot be Nan"),
  rejects(`parse_proto(decode_base64!("${PERSON}"), "${DESC}", "test_protobuf.Person")`, "E100"),
  rejects(
    `parse_proto!("", "${DIR}missing.desc", "test_protobuf.Person")`,
    `E610|Failed to open protobuf desc file '"${DIR}missing.desc"': No such file or directory`,
  ),
  rejects(
    `parse_proto!("", "${DIR}test_protobuf.proto", "test_protobuf.Person")`,
    "E610|Failed to parse protobuf desc file",
  ),
  rejects(
    `parse_proto!("", "${DESC}", "test_protobuf.Nobody")`,
    `E610|The message type 'test_protobuf.Nobody' could not be found in '"${DESC}"'`,
  ),
  rejects(`parse_proto!("", .desc, "test_protobuf.Person")`, `E610|argument "desc_file"`),
  rejects(`parse_proto!("", "${DESC}", .type)`, `E610|argument "message_type"`),
]);

table("encode_proto", [
  // VRL's documented example.
  ok(encode(`{"name": "someone", "phones": [{"number": "123456"}]}`), "Cgdzb21lb25lIggKBjEyMzQ1Ng=="),
  // Byte for byte what protoc writes, from the parsed values.
  ok(encode(scalars(SCALARS), "test_protobuf.Scalars"), SCALARS),
  ok(encode(person(PERSON)), PERSON),
  ok(
    encode(`parse_proto!(decode_base64!("${LEGACY}"), "${DESC}", "legacy.Record")`, "legacy.Record"),
    LEGACY,
  ),
  // Defaults of proto3 fields without presence are not written; `null` and unknown keys leave fields unset.
  ok(encode(`{"name": "", "id": 0, "email": null, "nickname": "x", "phones": []}`), ""),
  ok(encode(`{"job_id": 0}`), "OAA="),
  // Enums by name or number; a Timestamp into google.protobuf.Timestamp; bytes kept as bytes.
  ok(encode(`{"phones": [{"type": "HOME"}, {"type": 2}]}`), "IgIQASICEAI="),
  ok(encode(`{"last_updated": t'2023-11-14T22:13:20.000000005Z'}`), "KggIgOLPqgYQBQ=="),
  ok(encode(`{"by": decode_base64!("/wA=")}`, "test_protobuf.Scalars"), "egL/AA=="),
  // A timestamp into an int64 field is microseconds; integers narrow as Rust's `as` does.
  ok(
    encode(`{"i64": t'1970-01-01T00:00:01.5Z', "i32": 4294967295}`, "test_protobuf.Scalars"),
    "GP///////////wEg4MZb",
  ),
  // Of two members of a oneof, the later one in declaration order wins.
  ok(encode(`{"text": "x", "number": 5}`, "test_protobuf.Scalars"), "oAEF"),
  ok(
    `parse_proto!(encode_proto!({"people": {"a": {"name": "A"}}, "int_map": {"7": "seven"}}, "${DESC}", "test_protobuf.Scalars"), "${DESC}", "test_protobuf.Scalars")`,
    { int_map: { "7": "seven" }, people: { a: { name: "A" } } },
  ),
  fails(encode(`{"name": 1}`), "Cannot encode `integer` into protobuf `String`"),
  fails(encode(`{"d": 1}`, "test_protobuf.Scalars"), "Cannot encode `integer` into protobuf `Double`"),
  fails(encode(`{"name": ["a"]}`), "Cannot encode array into a non-repeated protobuf field"),
  fails(
    encode(`{"phones": [{"type": "CELL"}]}`),
    "Enum `test_protobuf.Person.PhoneType` has no value that matches string 'CELL'",
  ),
  fails(encode(`{"int_map": {"x": "y"}}`, "test_protobuf.Scalars"), "Cannot encode map key 'x'"),
  fails(encode(`[1]`), "ProtobufSerializer only accepts structured events"),
  rejects(`encode_proto({}, "${DESC}", "test_protobuf.Person")`, "E100"),
  rejects(`encode_proto!({}, "${DESC}", "Person")`, "E610|The message type 'Person' could not be found"),
]);
