/**
 * `get_enrichment_table_record` and `find_enrichment_table_records` over CSV file tables, from Vector's
 * documented behaviour (equality, date ranges, `select`, `case_sensitive`, `wildcard`, exactly one row).
 */

import { loadEnrichmentTables } from "../../engine/vrl/enrichment/registry.ts";
import { exact, fails, ok, rejects, table } from "./harness.ts";
import { TEST_TABLES } from "./enrichment_tables.ts";

await loadEnrichmentTables(TEST_TABLES);

const BOB = {
  id: 1,
  firstname: "Bob",
  surname: "Smith",
  date_of_birth: "1980-01-20T00:00:00Z",
  score: 4.5,
  active: true,
  team: "red",
  seen: "2024-01-20T10:30:00Z",
};
const G = "get_enrichment_table_record";
const F = "find_enrichment_table_records";
const names = (people: string[]) => people.map((firstname) => ({ firstname }));

table("get_enrichment_table_record", [
  ok(`get_enrichment_table_record!("people", {"id": 1})`, BOB),
  // Cells are typed by the schema: the kinds must agree (VRL's value equality).
  exact(`${G}!("people", {"score": 3.0}, ["id", "score"])`, `{"id":2,"score":3.0}`),
  fails(`${G}!("people", {"score": 3}, ["id"])`, "no rows found"),
  fails(`${G}!("people", {"id": "1"})`, "no rows found"),
  ok(`${G}!("people", {"active": false, "surname": "Smith"}, ["firstname"])`, { firstname: "Fred" }),
  ok(`${G}!("people", {"id": .id}, select: ["firstname", "no_such_column"])`, { firstname: "John" }, {
    id: 3,
  }),
  fails(`${G}!("people", {"surname": "Smith"})`, "More than 1 row found"),
  fails(`${G}!("people", {"id": 99})`, "no rows found"),
  fails(`${G}!("people", {"nickname": "Bob"})`, "no rows found"),
  ok(`${G}("people", {"id": 99}) ?? "none"`, "none"),
  ok(
    `_row, err = ${G}("people", {"id": 99}); err`,
    `function call error for "${G}" at (12:61): no rows found`,
  ),
  // Case-insensitive matching folds strings on both sides; the default is case-sensitive.
  ok(`${G}!("people", {"surname": "jones"}, ["firstname"], case_sensitive: false)`, { firstname: "John" }),
  fails(`${G}!("people", {"surname": "jones"})`, "no rows found"),
  ok(`${G}!("people", {"surname": "SMITH"}, ["firstname"], case_sensitive: true)`, { firstname: "Jane" }),
  // Date ranges: both ends inclusive; either may be left out.
  ok(
    `${G}!("people", {"surname": "Smith", "date_of_birth": {"from": t'1985-01-01T00:00:00Z', "to": t'1985-12-31T00:00:00Z'}}, ["firstname"])`,
    { firstname: "Fred" },
  ),
  ok(`${G}!("people", {"date_of_birth": {"to": t'1980-01-20T00:00:00Z'}}, ["firstname"])`, {
    firstname: "Bob",
  }),
  ok(`${G}!("people", {"date_of_birth": {"from": t'1990-01-01T00:00:00Z'}}, ["firstname"])`, {
    firstname: "John",
  }),
  fails(
    `${G}!("people", {"date_of_birth": {"from": "1990-01-01"}})`,
    "from in condition must be a timestamp",
  ),
  fails(
    `${G}!("people", {"date_of_birth": {"from": t'1990-01-01T00:00:00Z', "to": 1}})`,
    "to in condition must be a timestamp",
  ),
  ok(`${G}!("people", {"seen": t'2024-01-22T12:15:00Z'}, ["firstname"])`, { firstname: "John" }),
  // A cell holding the wildcard matches any value of its column.
  ok(`${G}!("people", {"team": "green"}, ["firstname"], wildcard: "*")`, { firstname: "Fred" }),
  fails(`${G}!("people", {"team": "green"}, ["firstname"])`, "no rows found"),
  fails(`${G}!("people", {"id": 1}, [1])`, "expected string, got integer"),
  // A table without headers names its columns by position.
  ok(`${G}!("codes", {"0": 404})`, { "0": 404, "1": "Not Found", "2": "2024-06-05T05:08:00Z" }),
  ok(`${G}!("codes", {"1": "OK"}, ["2"])`, { "2": "2024-01-02T03:04:05Z" }),
  // Compile-time checks: a literal, configured table; a literal case_sensitive; the call is fallible.
  rejects(`${G}!("nope", {"id": 1})`, `E610|invalid enum variant for argument "table"`),
  rejects(`${G}!("nope", {"id": 1})`, `E610|expected one of: "codes", "people"`),
  rejects(`${G}!(.table, {"id": 1})`, "E610"),
  ok(`c = false; ${G}!("people", {"surname": "jones"}, ["id"], case_sensitive: c)`, { id: 3 }),
  rejects(`${G}!("people", {"id": 1}, case_sensitive: .cs)`, "E610|case_sensitive"),
  rejects(`${G}("people", {"id": 1})`, "E100"),
  rejects(`x = ${G}("people", {"id": 1}); x`, "E103"),
  rejects(`${G}!("people", "id")`, "E110"),
  rejects(`${G}!("people")`, "E107"),
  rejects(`${G}!("people", {"id": 1}, wildcard: 1)`, "E110"),
]);

table("find_enrichment_table_records", [
  ok(`find_enrichment_table_records!("people", {"surname": "Smith"}, ["firstname"])`, names(["Bob", "Fred"])),
  ok(
    `${F}!("people", {"surname": "smith"}, ["firstname"], case_sensitive: false)`,
    names(["Bob", "Fred", "Jane"]),
  ),
  ok(`${F}!("people", {"surname": "Nobody"})`, []),
  ok(`${F}!("people", {}, ["id"])`, [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]),
  ok(
    `${F}!("people", {"surname": "smith", "date_of_birth": {"from": t'1985-01-01T00:00:00Z', "to": t'1985-12-31T00:00:00Z'}}, select: ["firstname"], case_sensitive: false)`,
    names(["Fred", "Jane"]),
  ),
  ok(`${F}!("people", {"team": "red"}, ["firstname"], wildcard: "*")`, names(["Bob", "Fred", "Jane"])),
  ok(`${F}!("people", {"team": "RED"}, ["firstname"], case_sensitive: false)`, names(["Bob", "Jane"])),
  ok(`length(${F}!("people", {"active": true}))`, 2),
  // The result is an array of objects to the checker: element paths need no extra handling.
  ok(`rows = ${F}!("people", {"team": "blue"}); rows[0].firstname`, "John"),
  rejects(`${F}!("missing", {"id": 1})`, "E610"),
  rejects(`${F}("people", {"id": 1})`, "E100"),
]);
