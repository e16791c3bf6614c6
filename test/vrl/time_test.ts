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
  // chrono's `Item::Error` becomes VRL's plain "invalid format", whatever the specifier.
  ok(
    `_, err = format_timestamp(t'2020-01-01T00:00:00Z', "%Y %Q"); err`,
    `function call error for "format_timestamp" at (9:59): invalid format`,
  ),
  rejects(`format_timestamp!("2020", "%Y")`, "E110"),
]);

// chrono-tz prints the tz database's abbreviation for `%Z`, not the zone's name.
const zoned = (ts: string, tz: string) => `format_timestamp!(t'${ts}', "%Z %z %:z", "${tz}")`;
table("format_timestamp %Z", [
  ok(zoned("2021-01-10T12:00:00Z", "America/New_York"), "EST -0500 -05:00"),
  ok(zoned("2021-07-10T12:00:00Z", "America/New_York"), "EDT -0400 -04:00"),
  ok(zoned("2021-01-10T12:00:00Z", "Europe/Paris"), "CET +0100 +01:00"),
  ok(zoned("2021-07-10T12:00:00Z", "Europe/Paris"), "CEST +0200 +02:00"),
  ok(zoned("2021-07-10T12:00:00Z", "Europe/London"), "BST +0100 +01:00"),
  ok(zoned("2021-01-10T12:00:00Z", "Europe/London"), "GMT +0000 +00:00"),
  ok(zoned("2021-01-10T12:00:00Z", "Asia/Tokyo"), "JST +0900 +09:00"),
  ok(zoned("2021-01-10T12:00:00Z", "asia/tokyo"), "JST +0900 +09:00"),
  ok(zoned("2021-01-10T12:00:00Z", "Asia/Kolkata"), "IST +0530 +05:30"),
  // Zones whose abbreviation is numeric in the tz database.
  ok(zoned("2021-01-10T12:00:00Z", "Asia/Dubai"), "+04 +0400 +04:00"),
  ok(zoned("2021-01-10T12:00:00Z", "Asia/Kathmandu"), "+0545 +0545 +05:45"),
  ok(zoned("2021-01-10T12:00:00Z", "Etc/GMT+5"), "-05 -0500 -05:00"),
  // An offset's name changed over time: New York's -04:00 was war time in 1943.
  ok(zoned("1943-01-10T12:00:00Z", "America/New_York"), "EWT -0400 -04:00"),
  // Local mean time is not whole minutes: the clock shows it to the second, `%z` rounds to the minute.
  ok(
    `format_timestamp!(t'1850-01-10T12:00:00Z', "%T %Z %z %::z", "America/New_York")`,
    "07:03:58 LMT -0456 -04:56:02",
  ),
  ok(zoned("2021-01-10T12:00:00Z", "UTC"), "UTC +0000 +00:00"),
  ok(zoned("2021-01-10T12:00:00Z", "Etc/UTC"), "UTC +0000 +00:00"),
  ok(zoned("2021-01-10T12:00:00Z", "GMT"), "GMT +0000 +00:00"),
  ok(`format_timestamp!(t'2021-01-10T12:00:00Z', "%Z")`, "UTC"),
  // A zone unknown at run time formats as UTC, its `%Z` included.
  ok(`format_timestamp!(t'2021-01-10T12:00:00Z', "%H %Z %z", string!(.tz))`, "12 UTC +0000", {
    tz: "Mars/Base",
  }),
  // chrono's Local is a fixed offset, which prints as `±hh:mm`.
  ok(
    `format_timestamp!(t'2021-01-10T12:00:00Z', "%Z", "local") == format_timestamp!(t'2021-01-10T12:00:00Z', "%:z", "local")`,
    true,
  ),
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
