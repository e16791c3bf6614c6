/**
 * `date` processor claims of pipelines.md §4.3 (chrono's strftime parsing) checked by the conformance
 * audit: `[format(s) or options, input, expected RFC 3339 instant | null for "failed to parse"]`.
 */
import { runProcessorCase } from "./helpers.ts";

type Row = [string, string, string | null];

const ROWS: Row[] = [
  // built-in formats (no `formats` option)
  ["", "2024-05-25T20:16:37Z", "2024-05-25T20:16:37Z"],
  ["", "2024-05-25T20:16:37.217Z", null], // `%SZ` has no fraction; the fractional ones need an offset
  ["", "2024-05-25T20:16:37.123456+0800", "2024-05-25T12:16:37.123456Z"],
  ["timezone: Asia/Shanghai", "2024-05-25T20:16:37", "2024-05-25T12:16:37Z"],
  ["timezone: Asia/Shanghai", "2024-05-25T20:16:37+00:00", "2024-05-25T20:16:37Z"], // zoned: timezone unused
  ["formats: []", "2024-05-25T20:16:37Z", "2024-05-25T20:16:37Z"],
  ["timezone: America/New_York\n      formats: ['%Y-%m-%d %H:%M:%S']", "2024-11-03 01:30:00", null], // ambiguous
  ["locale: fr\n      formats: ['%d %b %Y %H:%M']", "25 may 2024 20:16", "2024-05-25T20:16:00Z"],
  // chrono specifiers
  ["%d %B %Y %H:%M", "25 September 2024 20:16", "2024-09-25T20:16:00Z"],
  ["%d %B %Y %H:%M", "25 MAY 2024 20:16", "2024-05-25T20:16:00Z"],
  ["%Y-%m-%d %H:%M:%S %z", "2024-05-25 20:16:37 +08 00", "2024-05-25T12:16:37Z"],
  ["%Y-%m-%d %H:%M:%S%z", "2024-05-25 20:16:37Z", null],
  ["%Y-%m-%d %H:%M:%S%z", "2024-05-25 20:16:37 +02:00", "2024-05-25T18:16:37Z"],
  ["%Y-%m-%d %H:%M:%S %z", "2024-05-25 20:16:37 +2", null],
  ["%Y-%m-%dT%H:%M:%S%::z", "2024-05-25T20:16:37+02:00:00", null], // offsets never take seconds
  ["%Y-%m-%d %H:%M:%S%#z", "2024-05-25 20:16:37Z", "2024-05-25T20:16:37Z"],
  ["%Y-%m-%d %H:%M:%S%.f", "2024-05-25 20:16:37", "2024-05-25T20:16:37Z"],
  ["%Y-%m-%d %H:%M:%S%.f", "2024-05-25 20:16:37.12", "2024-05-25T20:16:37.120Z"],
  ["%Y-%m-%d %H:%M:%S%.f", "2024-05-25 20:16:37.123456789123", "2024-05-25T20:16:37.123456789Z"],
  ["%Y-%m-%d %H:%M:%S%.3f", "2024-05-25 20:16:37.12", null],
  ["%Y-%m-%d %H:%M:%S.%f", "2024-05-25 20:16:37.123", "2024-05-25T20:16:37.000000123Z"],
  ["%Y-%m-%d %H:%M:%S.%3f", "2024-05-25 20:16:37.123", "2024-05-25T20:16:37.123Z"],
  ["%Y-%m-%d %H:%M:%S %Z", "2024-05-25 20:16:37 CEST", "2024-05-25T20:16:37Z"],
  ["%Y-%m-%d %H:%M", "2024-05-25   20:16", "2024-05-25T20:16:00Z"],
  ["%Y-%m-%d %H:%M", "2024-05-2520:16", "2024-05-25T20:16:00Z"],
  ["%d/%m/%Y %H:%M", " 5/ 6/2024 20:16", "2024-06-05T20:16:00Z"],
  ["%Y-%m-%d %I:%M %p", "2024-05-25 08:16 pm", "2024-05-25T20:16:00Z"],
  ["%Y-%m-%d %l:%M %P", "2024-05-25  8:16 PM", "2024-05-25T20:16:00Z"],
  ["%Y-%m-%d %I:%M", "2024-05-25 08:16", null],
  ["%a, %d %b %Y %H:%M:%S %z", "sat, 25 May 2024 20:16:37 +0000", "2024-05-25T20:16:37Z"],
  ["%a %b %e %H:%M:%S %Y", "Fri May 25 20:16:37 2024", null], // the weekday must agree
  ["%Y %j %H:%M", "2024 146 20:16", "2024-05-25T20:16:00Z"],
  ["%F %T", "2024-05-25 20:16:37", "2024-05-25T20:16:37Z"],
  ["%D %R", "05/25/24 20:16", "2024-05-25T20:16:00Z"],
  ["%y-%m-%d %H:%M", "70-05-25 20:16", "1970-05-25T20:16:00Z"],
  ["%y-%m-%d %H:%M", "69-05-25 20:16", "2069-05-25T20:16:00Z"],
  ["%d/%h/%Y:%H:%M:%S %z", "25/May/2024:20:16:37 +0000", "2024-05-25T20:16:37Z"],
  ["%e %b %Y %k:%M", " 5 May 2024  8:16", "2024-05-05T08:16:00Z"],
  ["%A, %d-%b-%y %T %Z", "Saturday, 25-May-24 20:16:37 GMT", "2024-05-25T20:16:37Z"],
  ["%c", "Sat May 25 20:16:37 2024", "2024-05-25T20:16:37Z"],
  ["%+", "2024-05-25T20:16:37.5+02:00", "2024-05-25T18:16:37.500Z"],
  ["%s%.3f", "1716668197.217", "2024-05-25T20:16:37.217Z"],
  ["%Y-%m-%d %H:%M:%S %%", "2024-05-25 20:16:37 %", "2024-05-25T20:16:37Z"],
  ["%Y-%m-%d %H:%M:%S", "+2024-05-25 20:16:37", "2024-05-25T20:16:37Z"],
  ["%Y-%m-%d %H:%M:%S", "2024-02-30 20:16:37", null],
  ["%Y-%m-%d %H:%M:%S", "2024-05-25 24:16:37", null],
  ["%Y-%m-%d %H:%M:%S", "2024-05-25 23:59:60", "2024-05-26T00:00:00Z"], // a leap second's nanos roll over
  ["%Y-%m-%d %H", "2024-05-25 20", null], // no minute: not a date-time
];

for (const [opts, input, want] of ROWS) {
  const options = opts === ""
    ? ""
    : opts.includes(":") && !opts.startsWith("%")
    ? opts
    : `formats: ['${opts}']`;
  Deno.test(`conformance §4.3 date ${options || "built-in"} on ${JSON.stringify(input)}`, () => {
    runProcessorCase({
      name: "",
      yaml: `  - date:\n      field: d${options ? `\n      ${options}` : ""}`,
      input: { d: input },
      ...(want === null ? { runError: "Processor date: failed to parse" } : { output: { d: "ts:" + want } }),
    });
  });
}
