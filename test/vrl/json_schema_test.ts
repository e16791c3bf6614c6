/** `validate_json_schema`, from VRL's documentation examples (schema files in `fixtures/`). */

import { fails, ok, rejects, table } from "./harness.ts";

const dir = new URL("./fixtures/", import.meta.url).pathname;
const SCHEMA = `${dir}json-schema_definition.json`;
const CUSTOM = `${dir}json-schema_custom_format.json`;

table("validate_json_schema", [
  ok(`validate_json_schema!(s'{ "productUser": "valid@email.com" }', "${SCHEMA}", false)`, true),
  fails(
    `validate_json_schema!(s'{ "productUser": "invalidEmail" }', "${SCHEMA}", false)`,
    `JSON schema validation failed: "invalidEmail" is not a "email" at /productUser`,
  ),
  ok(`validate_json_schema(s'{ "productUser": "invalidEmail" }', "${SCHEMA}") ?? false`, false),
  fails(
    `validate_json_schema!(s'[]', "${SCHEMA}")`,
    `JSON schema validation failed: [] is not of type "object"`,
  ),
  fails(`validate_json_schema!(s'{}', "${SCHEMA}")`, `"productUser" is a required property`),
  fails(
    `validate_json_schema!(s'{"productUser": 1, "price": -1, "tags": ["a", "b", "c"]}', "${SCHEMA}")`,
    `1 is not of type "string" at /productUser, ["a","b","c"] has more than 2 items at /tags, -1 is less than the minimum of 0 at /price`,
  ),
  // A format the validator does not know: rejected unless ignore_unknown_formats.
  rejects(
    `validate_json_schema!(s'{ "productUser": "a-custom-formatted-string" }', "${CUSTOM}", false)`,
    "E610|Unknown format: 'my-custom-format'",
  ),
  ok(`validate_json_schema!(s'{ "productUser": "a-custom-formatted-string" }', "${CUSTOM}", true)`, true),
  fails(`validate_json_schema!(s'{ "productUser"', "${CUSTOM}", true)`, "Failed to parse JSON"),
  rejects(
    `validate_json_schema!("{}", "${dir}no-such-schema.json")`,
    "E610|Failed to read schema definition",
  ),
  rejects(`validate_json_schema("{}", "${SCHEMA}")`, "E100"),
]);
