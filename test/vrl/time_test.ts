/** Time functions and chrono-style formats. */

import { exact, fails, ok, rejects, table } from "./harness.ts";

table("parse_timestamp", [
  ok(`parse_timestamp!("2020-10-10T16:00:00Z", "%+")`, "2020-10-10T16:00:00Z"),
  ok(`parse_timestamp!("2020-10-10T16:00:00.123456+02:00", "%+")`, "2020-10-10T14:00:00.123456Z"),
  ok(`parse_timestamp!("16/10/2019 12:00:00", format: "%d/%m/%Y %H:%M:%S")`, "2019-10-16T12:00:00Z"),
  ok(
    `parse_timestamp!("16/10/2019 12:00:00", format: "%d/%m/%Y %H:%M:%S", timezone: "Asia/Taipei")`,
    "2019-10-16T04:00:00Z",
  ),
  ok(`parse_timestamp!("2024-07-01 12:00:00", "%Y-%m-%d %H:%M:%S", "Europe/Berlin")`, "2024-07-01T10:00:00Z"),
  ok(`parse_timestamp!("1700000000", "%s")`, "2023-11-14T22:13:20Z"),
  ok(`parse_timestamp!("Oct 10 2020 4:05:06 PM", "%b %d %Y %I:%M:%S %p")`, "2020-10-10T16:05:06Z"),
  ok(`parse_timestamp!("10/Oct/2000:13:55:36 -0700", "%d/%b/%Y:%T %z")`, "2000-10-10T20:55:36Z"),
  ok(`parse_timestamp!("2020-01-02 03:04:05.678", "%Y-%m-%d %H:%M:%S%.f")`, "2020-01-02T03:04:05.678Z"),
  ok(`parse_timestamp!(t'2020-01-01T00:00:00Z', "%+")`, "2020-01-01T00:00:00Z"),
  fails(`parse_timestamp!("nope", "%Y")`, "unable to parse timestamp"),
  fails(`parse_timestamp!("12:00", "%H:%M")`, "not enough"),
  fails(`parse_timestamp!("2020-13-01", "%Y-%m-%d")`, "unable to parse timestamp"),
  rejects(`parse_timestamp!("x", "%Y", timezone: "Mars/Base")`, "E610"),
]);

table("format_timestamp", [
  ok(`format_timestamp!(t'2020-10-21T16:00:00Z', format: "%+")`, "2020-10-21T16:00:00+00:00"),
  ok(`format_timestamp!(t'2020-10-21T16:00:00Z', format: "%s")`, "1603296000"),
  ok(
    `format_timestamp!(t'2020-10-21T16:00:00.123456789Z', "%Y-%m-%dT%H:%M:%S%.3fZ")`,
    "2020-10-21T16:00:00.123Z",
  ),
  ok(`format_timestamp!(t'2020-10-21T16:00:00.5Z', "%H:%M:%S%.f")`, "16:00:00.500"),
  ok(
    `format_timestamp!(t'2020-10-21T16:00:00Z', "%a %A %b %B %d %e %j %y %I %p %u %w")`,
    "Wed Wednesday Oct October 21 21 295 20 04 PM 3 3",
  ),
  ok(
    `format_timestamp!(t'2020-10-21T16:00:00Z', format: "%Y-%m-%d %H:%M %z", timezone: "Asia/Tokyo")`,
    "2020-10-22 01:00 +0900",
  ),
  ok(`format_timestamp!(t'2020-01-01T00:00:00Z', "%F %T %%")`, "2020-01-01 00:00:00 %"),
  fails(`format_timestamp!(t'2020-01-01T00:00:00Z', "%Q")`, "invalid format"),
  rejects(`format_timestamp!("2020", "%Y")`, "E110"),
]);

table("unix timestamps and now", [
  exact(`to_unix_timestamp(t'2021-01-01T00:00:00Z')`, "1609459200"),
  exact(`to_unix_timestamp(t'2021-01-01T00:00:00.123456789Z', unit: "milliseconds")`, "1609459200123"),
  exact(`to_unix_timestamp(t'2021-01-01T00:00:00.123456789Z', unit: "microseconds")`, "1609459200123456"),
  exact(`to_unix_timestamp(t'2021-01-01T00:00:00.123456789Z', unit: "nanoseconds")`, "1609459200123456789"),
  exact(`to_unix_timestamp(t'1969-12-31T23:59:59.5Z')`, "-1"),
  rejects(`to_unix_timestamp(t'2021-01-01T00:00:00Z', unit: "days")`, "E610"),
  ok(`from_unix_timestamp!(5)`, "1970-01-01T00:00:05Z"),
  ok(`from_unix_timestamp!(1609459200123, unit: "milliseconds")`, "2021-01-01T00:00:00.123Z"),
  ok(`from_unix_timestamp!(1609459200123456789, unit: "nanoseconds")`, "2021-01-01T00:00:00.123456789Z"),
  ok(`from_unix_timestamp!(-1)`, "1969-12-31T23:59:59Z"),
  ok(`to_unix_timestamp(now()) > 1700000000`, true),
  ok(`now() <= now()`, true),
  ok(`get_timezone_name!()`, "UTC"),
]);
