/** `date`: parses strings with chrono-style formats into timestamps (reference §4.3). */
import { execError } from "../errors.ts";
import { compileStrftime, parseStrftime } from "../strftime.ts";
import { resolveTimeZone } from "../../src/common/timezone.ts";
import { Timestamp } from "../value.ts";
import { expectString, fieldProcessor, type ProcessorCompiler } from "./common.ts";

const BUILTIN_FORMATS = [
  "%Y-%m-%dT%H:%M:%S%:z",
  "%Y-%m-%dT%H:%M:%S%.3f%:z",
  "%Y-%m-%dT%H:%M:%S%.6f%:z",
  "%Y-%m-%dT%H:%M:%S%.9f%:z",
  "%Y-%m-%dT%H:%M:%S%z",
  "%Y-%m-%dT%H:%M:%S%.3f%z",
  "%Y-%m-%dT%H:%M:%S%.6f%z",
  "%Y-%m-%dT%H:%M:%S%.9f%z",
  "%Y-%m-%dT%H:%M:%SZ",
  "%Y-%m-%dT%H:%M:%S",
  "%Y-%m-%dT%H:%M:%S%.3f",
  "%Y-%m-%dT%H:%M:%S%.6f",
  "%Y-%m-%dT%H:%M:%S%.9f",
];

/** Compiles a `date` processor. */
export const compileDate: ProcessorCompiler = (o) => {
  const user = o.stringList("formats");
  let formats: string[];
  if (user === undefined) formats = BUILTIN_FORMATS;
  else {
    // GreptimeDB keeps formats in a sorted set: byte order, duplicates dropped.
    formats = [...new Set(user.length ? user : BUILTIN_FORMATS)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
  const compiled = formats.map((f) => compileStrftime(f)).filter((x) => x !== null);
  const tzName = o.string("timezone");
  const fields = o.fields();
  const ignoreMissing = o.ignoreMissing();
  const utc = tzName === undefined || tzName === "UTC";
  let zone: ReturnType<typeof resolveTimeZone> | undefined;
  const parseDate = (s: string): Timestamp => {
    // The zone is resolved before any format is tried (GreptimeDB): an unknown name fails every value,
    // one with its own offset or none that parses included, but only once a value is parsed.
    if (!utc) {
      zone ??= resolveTimeZone(tzName);
      if (!zone) throw execError(`Parse date timezone error ${tzName}`);
    }
    for (const items of compiled) {
      const r = parseStrftime(s, items);
      if (!r) continue;
      if (r.zoned || !zone) return new Timestamp(r.ms, r.subMs);
      const tz = zone;
      const localMs = Math.floor(r.ms / 1000) * 1000;
      const utc = tz.localToUtc(localMs);
      if (utc === null) continue;
      return new Timestamp(r.ms + (utc - localMs), r.subMs);
    }
    throw execError(`Processor date: failed to parse ${s}`);
  };
  let lastText: string | undefined;
  let lastValue: Timestamp | undefined;
  return fieldProcessor(
    "date",
    fields,
    ignoreMissing,
    (v, f, entry) => {
      const s = expectString("date", v);
      // Consecutive log lines often carry the same timestamp text; timestamps are immutable.
      if (s === lastText && lastValue) {
        entry[f.target] = lastValue;
        return;
      }
      const ts = parseDate(s);
      lastText = s;
      lastValue = ts;
      entry[f.target] = ts;
    },
    {},
    { timeFields: fields.map((f) => ({ target: f.target, unit: "ns", ignoreMissing })) },
  );
};
