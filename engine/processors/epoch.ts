/** `epoch`: numbers or numeric strings in a resolution → timestamps (reference §4.7). */
import { execError } from "../errors.ts";
import { debugRepr, isInteger, Timestamp } from "../value.ts";
import { fieldProcessor, type ProcessorCompiler } from "./common.ts";
import { NS_PER_UNIT, type TimeUnit } from "../../src/common/time_unit.ts";

/** Epoch resolution names → (unit, long name). */
const RESOLUTIONS: Record<string, { unit: TimeUnit; long: string }> = {
  s: { unit: "s", long: "second" },
  sec: { unit: "s", long: "second" },
  second: { unit: "s", long: "second" },
  ms: { unit: "ms", long: "millisecond" },
  milli: { unit: "ms", long: "millisecond" },
  millisecond: { unit: "ms", long: "millisecond" },
  us: { unit: "us", long: "microsecond" },
  micro: { unit: "us", long: "microsecond" },
  microsecond: { unit: "us", long: "microsecond" },
  ns: { unit: "ns", long: "nanosecond" },
  nano: { unit: "ns", long: "nanosecond" },
  nanosecond: { unit: "ns", long: "nanosecond" },
};

const I64_MAX = 9223372036854775807n;
const I64_MIN = -9223372036854775808n;

/** Compiles an `epoch` processor. */
export const compileEpoch: ProcessorCompiler = (o) => {
  const resName = o.string("resolution") ?? "millisecond";
  const res = Object.hasOwn(RESOLUTIONS, resName) ? RESOLUTIONS[resName] : undefined;
  if (!res) return o.fail(`Invalid resolution: ${resName}`, "resolution");
  const fields = o.fields();
  const ignoreMissing = o.ignoreMissing();
  const factor = NS_PER_UNIT[res.unit];
  const unitsPerMs = 1_000_000 / Number(factor); // 0.001 (s), 1 (ms), 1000 (us), 1e6 (ns)
  const msPerUnit = Number(factor) / 1_000_000; // exact for s (1000) and ms (1)
  // Beyond these the ns value might leave i64 (s, ms, us) or the number is not exact (ns).
  const fastLimit = { s: 9e9, ms: 9e12, us: 9e15, ns: Number.MAX_SAFE_INTEGER }[res.unit];
  const fromUnits = (n: number): Timestamp => {
    if (unitsPerMs <= 1) return new Timestamp(n * msPerUnit, 0);
    const ms = Math.floor(n / unitsPerMs);
    return new Timestamp(ms, (n - ms * unitsPerMs) * (1_000_000 / unitsPerMs));
  };
  return fieldProcessor(
    "epoch",
    fields,
    ignoreMissing,
    (v, f, entry) => {
      // Fast path: a safe integer within the resolution's range needs no BigInt.
      const num = typeof v === "number"
        ? Math.trunc(v)
        : typeof v === "string" && v.length < 16 && /^[+-]?[0-9]+$/.test(v)
        ? Number(v)
        : NaN;
      if (Number.isSafeInteger(num) && Math.abs(num) <= fastLimit) {
        entry[f.target] = fromUnits(num);
        return;
      }
      let n: bigint;
      if (v instanceof Timestamp) {
        entry[f.target] = v;
        return;
      } else if (typeof v === "string") {
        if (!/^[+-]?[0-9]+$/.test(v)) throw execError(`Failed to parse ${v} to int`);
        n = BigInt(v);
        if (n > I64_MAX || n < I64_MIN) throw execError(`Failed to parse ${v} to int`);
      } else if (isInteger(v)) n = BigInt(v);
      else if (typeof v === "number" && Number.isFinite(v)) n = BigInt(Math.trunc(v));
      else throw execError(`Processor epoch: unsupported value ${debugRepr(v)}`);
      const ns = n * factor;
      if (ns > I64_MAX || ns < I64_MIN) {
        throw execError(
          `Invalid epoch value '${n}' for resolution '${res.long}'`,
        );
      }
      entry[f.target] = Timestamp.fromNs(ns);
    },
    {},
    { timeFields: fields.map((f) => ({ target: f.target, unit: res.unit, ignoreMissing })) },
  );
};
