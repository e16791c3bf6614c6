/** Case tables for the shared chrono-style formatter and parser and each dialect flag. */
import assert from "node:assert/strict";
import {
  cachedFormat,
  CHRONO_FORMAT,
  compileFormat,
  type FormatDialect,
  formatTime,
  StrftimeError,
  type ZonedTime,
} from "../../src/common/strftime.ts";
import {
  CHRONO_PARSE,
  compileParse,
  PARSE_FAILURE_TEXT,
  type ParseDialect,
  parseTime,
  VRL_PARSE,
} from "../../src/common/strptime.ts";

// 2020-10-21T16:05:09.123456789Z, a Wednesday, day 295 of a leap year.
const T: ZonedTime = {
  epochMs: Date.UTC(2020, 9, 21, 16, 5, 9, 123),
  nanos: 123_456_789,
  offsetMin: 0,
  zoneName: "UTC",
};
const TOKYO: ZonedTime = { ...T, offsetMin: 540, zoneName: "Asia/Tokyo" };
const at = (iso: string, nanos = 0): ZonedTime => ({ ...T, epochMs: Date.parse(iso), nanos });

/** [format, time, expected] for every specifier and padding modifier. */
const FORMATS: [string, ZonedTime, string][] = [
  ["%Y", T, "2020"],
  ["%Y", at("0099-01-01T00:00:00Z"), "0099"],
  // chrono signs years outside 0..=9999 and zero-pads them after the sign to four digits.
  ["%Y", at("-000001-06-01T00:00:00Z"), "-0001"],
  ["%-Y", at("-000001-06-01T00:00:00Z"), "-1"],
  ["%_Y", at("-000001-06-01T00:00:00Z"), "   -1"],
  ["%Y", at("+010000-06-01T00:00:00Z"), "+10000"],
  ["%G", at("-000012-06-01T00:00:00Z"), "-0012"],
  ["%C", T, "20"],
  ["%y", T, "20"],
  ["%m", T, "10"],
  ["%b", T, "Oct"],
  ["%h", T, "Oct"],
  ["%B", T, "October"],
  ["%d", at("2020-10-05T00:00:00Z"), "05"],
  ["%e", at("2020-10-05T00:00:00Z"), " 5"],
  ["%a", T, "Wed"],
  ["%A", T, "Wednesday"],
  ["%u", at("2020-10-25T00:00:00Z"), "7"],
  ["%w", at("2020-10-25T00:00:00Z"), "0"],
  ["%j", at("2020-01-05T00:00:00Z"), "005"],
  ["%U", T, "42"],
  ["%W", T, "42"],
  ["%G-W%V", at("2021-01-01T00:00:00Z"), "2020-W53"],
  ["%g", at("2021-01-01T00:00:00Z"), "20"],
  ["%G-W%V", at("2019-12-30T00:00:00Z"), "2020-W01"],
  ["%H", at("2020-10-21T04:00:00Z"), "04"],
  ["%k", at("2020-10-21T04:00:00Z"), " 4"],
  ["%I", T, "04"],
  ["%l", T, " 4"],
  ["%I %p", at("2020-10-21T00:30:00Z"), "12 AM"],
  ["%P", T, "pm"],
  ["%M", T, "05"],
  ["%S", T, "09"],
  ["%f", T, "123456789"],
  ["%.f", T, ".123456789"],
  ["%.f", at("2020-10-21T16:05:09Z", 500_000_000), ".500"],
  ["%.f", at("2020-10-21T16:05:09Z", 123_000), ".000123"],
  ["%.f", at("2020-10-21T16:05:09Z"), ""],
  ["%.3f", T, ".123"],
  ["%.6f", T, ".123456"],
  ["%.9f", T, ".123456789"],
  ["%3f", T, "123"],
  ["%6f", T, "123456"],
  ["%9f", T, "123456789"],
  ["%z", TOKYO, "+0900"],
  ["%:z", TOKYO, "+09:00"],
  ["%::z", TOKYO, "+09:00:00"],
  ["%:::z", TOKYO, "+09"],
  ["%z", { ...T, offsetMin: -330 }, "-0530"],
  ["%Z", TOKYO, "Asia/Tokyo"],
  ["%H:%M", TOKYO, "01:05"],
  ["%s", TOKYO, "1603296309"],
  ["%T", T, "16:05:09"],
  ["%R", T, "16:05"],
  ["%D", T, "10/21/20"],
  ["%x", T, "10/21/20"],
  ["%X", T, "16:05:09"],
  ["%F", T, "2020-10-21"],
  ["%r", T, "04:05:09 PM"],
  ["%c", at("2020-10-05T16:05:09Z"), "Mon Oct  5 16:05:09 2020"],
  ["%v", at("2020-10-05T00:00:00Z"), " 5-Oct-2020"],
  ["%+", TOKYO, "2020-10-22T01:05:09.123456789+09:00"],
  ["%n%t%%", T, "\n\t%"],
  ["%-d/%-m %-H", at("2020-01-05T04:00:00Z"), "5/1 4"],
  ["%_m|%_H", at("2020-01-05T04:00:00Z"), " 1| 4"],
  ["%0e|%0k", at("2020-01-05T04:00:00Z"), "05|04"],
  ["day %d!", T, "day 21!"],
];

for (const [fmt, time, expected] of FORMATS) {
  Deno.test(`strftime format ${JSON.stringify(fmt)}`, () => {
    assert.equal(formatTime(compileFormat(fmt), time), expected);
  });
}

const SQL: FormatDialect = { only: new Set([..."YmdHMS%", "3f"]), unknown: "literal" };

/** [dialect, format, expected or an Error's specifier]: what `only` and `unknown` do. */
const FORMAT_DIALECTS: [string, FormatDialect, string, string | { error: string }][] = [
  ["chrono: unknown raises", CHRONO_FORMAT, "%Q", { error: "Q" }],
  ["chrono: lone % raises", CHRONO_FORMAT, "%", { error: "" }],
  ["chrono: %.2f raises", CHRONO_FORMAT, "%.2f", { error: "." }],
  ["literal: unknown stays text", SQL, "%Y %Q", "2020 %Q"],
  ["literal: outside `only` stays text", SQL, "%a %H", "%a 16"],
  ["literal: long spec outside `only` stays text", SQL, "%.3f|%3f", "%.3f|123"],
  ["literal: trailing %", SQL, "%Y%", "2020%"],
  ["only: %% still known", SQL, "100%%", "100%"],
];

for (const [name, dialect, fmt, expected] of FORMAT_DIALECTS) {
  Deno.test(`strftime dialect: ${name}`, () => {
    if (typeof expected === "string") {
      return assert.equal(formatTime(compileFormat(fmt, dialect), T), expected);
    }
    assert.throws(
      () => compileFormat(fmt, dialect),
      (e) => e instanceof StrftimeError && e.specifier === expected.error,
    );
  });
}

Deno.test("strftime: the cache returns the same compiled items per dialect", () => {
  assert.equal(cachedFormat("%Y", CHRONO_FORMAT), cachedFormat("%Y", CHRONO_FORMAT));
  assert.notEqual(cachedFormat("%Y", SQL), cachedFormat("%Y", CHRONO_FORMAT));
});

/** [dialect, format, input, expected RFC 3339 (zoned), `naive:<iso>`, or a failure kind]. */
const PARSES: [string, ParseDialect, string, string, string][] = [
  ["chrono", CHRONO_PARSE, "%Y-%m-%d %H:%M:%S%.f", "2020-10-21 16:05:09.5", "naive:2020-10-21T16:05:09.500Z"],
  ["chrono", CHRONO_PARSE, "%+", "2020-10-21T16:05:09Z", "2020-10-21T16:05:09.000Z"],
  ["chrono", CHRONO_PARSE, "%+", "2020-10-21T16:05:09.25+02:00", "2020-10-21T14:05:09.250Z"],
  ["chrono", CHRONO_PARSE, "%C%y-%m-%d %R", "2020-10-21 16:05", "naive:2020-10-21T16:05:00.000Z"],
  ["chrono", CHRONO_PARSE, "%D %r", "10/21/20 04:05:09 PM", "naive:2020-10-21T16:05:09.000Z"],
  ["chrono", CHRONO_PARSE, "%v %T", " 5-Oct-2020 16:05:09", "naive:2020-10-05T16:05:09.000Z"],
  ["chrono", CHRONO_PARSE, "%Y-%m-%d %H:%M %::z", "2020-10-21 16:05 +09:00", "2020-10-21T07:05:00.000Z"],
  ["chrono", CHRONO_PARSE, "%Y-%m-%d %H:%M %:z", "2020-10-21 16:05 +09", "invalid"],
  ["chrono", CHRONO_PARSE, "%Y-%m-%d %H:%M %z", "2020-10-21 16:05 UTC", "invalid"],
  ["chrono", CHRONO_PARSE, "%Y-%m-%d %H:%M %Z", "2020-10-21 16:05 UTC", "naive:2020-10-21T16:05:00.000Z"],
  ["chrono", CHRONO_PARSE, "%s", "1603296309", "naive:2020-10-21T16:05:09.000Z"],
  ["chrono", CHRONO_PARSE, "%a %Y-%m-%d %H:%M", "Mon 2020-10-21 16:05", "impossible"],
  ["chrono", CHRONO_PARSE, "%Y-%m-%d", "2020-10-21", "not_enough"],
  ["chrono", CHRONO_PARSE, "%Y-%m-%d %H:%M", "2020-13-21 16:05", "out_of_range"],
  ["chrono", CHRONO_PARSE, "%Y-%m-%d %H:%M", "2020-10-21 16:05 extra", "too_long"],
  ["chrono", CHRONO_PARSE, "%Y-%m-%d %H:%M", "2020-10-21 16", "too_short"],
  ["chrono", CHRONO_PARSE, "%Y-%m-%d %H:%M", "2020-10-xx 16:05", "invalid"],
  [
    "chrono",
    CHRONO_PARSE,
    "%U %W %V %G %g %Y-%m-%d %H:%M",
    "42 42 43 2020 20 2020-10-21 16:05",
    "naive:2020-10-21T16:05:00.000Z",
  ],
  ["vrl", VRL_PARSE, "%Y-%m-%d %H:%M %z", "2020-10-21 16:05 UTC", "2020-10-21T16:05:00.000Z"],
  ["vrl", VRL_PARSE, "%Y-%m-%d %H:%M %z", "2020-10-21 16:05 Z", "2020-10-21T16:05:00.000Z"],
  ["vrl", VRL_PARSE, "%Y-%m-%d %H:%M %:z", "2020-10-21 16:05 +09", "2020-10-21T07:05:00.000Z"],
  ["vrl", VRL_PARSE, "%Y-%m-%d %H:%M %Z", "2020-10-21 16:05 GMT", "2020-10-21T16:05:00.000Z"],
  ["vrl", VRL_PARSE, "%Y-%m-%d %H:%M %Z", "2020-10-21 16:05 +02:00", "2020-10-21T14:05:00.000Z"],
  ["vrl", VRL_PARSE, "%Y-%m-%d %H:%M %Z", "2020-10-21 16:05 CEST", "naive:2020-10-21T16:05:00.000Z"],
  ["vrl", VRL_PARSE, "%s", "1603296309", "2020-10-21T16:05:09.000Z"],
  ["vrl", VRL_PARSE, "%a %Y-%m-%d %H:%M", "Mon 2020-10-21 16:05", "naive:2020-10-21T16:05:00.000Z"],
];

for (const [name, dialect, fmt, input, expected] of PARSES) {
  Deno.test(`strptime ${name} ${JSON.stringify(fmt)} on ${JSON.stringify(input)}`, () => {
    const format = compileParse(fmt, dialect);
    assert.ok(format, "format compiles");
    const r = parseTime(input, format);
    if (typeof r === "string") return assert.equal(r, expected);
    const iso = new Date(r.ms).toISOString();
    assert.equal(r.zoned ? iso : "naive:" + iso, expected);
  });
}

Deno.test("strptime: bad formats do not compile; failures carry chrono's words", () => {
  for (const f of ["%Q", "%", "%.2f", "%:x"]) assert.equal(compileParse(f), null, f);
  assert.equal(PARSE_FAILURE_TEXT.not_enough, "input is not enough for unique date and time");
});
