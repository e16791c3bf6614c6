/**
 * pprof's `profile.proto` (what `go tool pprof`, Pyroscope and Speedscope read): the model encoded
 * with `pprof-format` and gzipped, and uploaded pprof files (gzipped or not) decoded back.
 */
import {
  Function as PFunction,
  Line,
  Location,
  Profile,
  Sample,
  StringTable,
  ValueType as PValueType,
} from "pprof-format";
import type { Frame, StackProfile, StackSample } from "./model.ts";
import { gunzip, gzip, isGzip } from "./gzip.ts";

/** The model as a gzipped pprof profile. */
export function encodePprof(p: StackProfile): Uint8Array {
  return gzip(encodePprofRaw(p));
}

/** The model as an uncompressed `profile.proto` message. */
export function encodePprofRaw(p: StackProfile): Uint8Array {
  const strings = new StringTable();
  const functions: PFunction[] = [];
  const locations: Location[] = [];
  const functionIds = new Map<string, number>();
  const locationIds = new Map<string, number>();
  const locationOf = (f: Frame): number => {
    const key = `${f.name}\u0000${f.file}\u0000${f.line}`;
    let id = locationIds.get(key);
    if (id !== undefined) return id;
    let fid = functionIds.get(key);
    if (fid === undefined) {
      fid = functions.length + 1;
      functionIds.set(key, fid);
      const name = strings.dedup(f.name);
      functions.push(
        new PFunction({
          id: fid,
          name,
          systemName: name,
          filename: strings.dedup(f.file),
          startLine: f.line,
        }),
      );
    }
    id = locations.length + 1;
    locationIds.set(key, id);
    locations.push(new Location({ id, line: [new Line({ functionId: fid, line: f.line })] }));
    return id;
  };
  const samples = p.samples.map((s) =>
    new Sample({
      // pprof lists a stack leaf first.
      locationId: s.stack.map(locationOf).reverse(),
      value: s.values.map((v) => Math.round(v)),
    })
  );
  const vt = (t: { type: string; unit: string }) =>
    new PValueType({ type: strings.dedup(t.type), unit: strings.dedup(t.unit) });
  const profile = new Profile({
    sampleType: p.sampleTypes.map(vt),
    sample: samples,
    location: locations,
    function: functions,
    stringTable: strings,
    timeNanos: Math.round(p.timeNanos),
    durationNanos: Math.round(p.durationNanos),
    ...(p.periodType ? { periodType: vt(p.periodType), period: Math.round(p.period ?? 0) } : {}),
    ...(p.defaultIndex !== undefined
      ? { defaultSampleType: strings.dedup(p.sampleTypes[p.defaultIndex].type) }
      : {}),
  });
  return profile.encode();
}

/** Whether bytes look like a pprof profile, gzipped or not (decodes and checks the string table). */
export function decodePprof(bytes: Uint8Array): StackProfile | null {
  let raw = bytes;
  if (isGzip(bytes)) {
    const inflated = gunzip(bytes);
    if (inflated === null) return null;
    raw = inflated;
  }
  let profile: Profile;
  try {
    profile = Profile.decode(raw);
  } catch {
    return null;
  }
  const s = profile.stringTable.strings;
  const str = (i: number | bigint) => s[Number(i)] ?? "";
  // A valid profile's string table starts with "" and it names at least one sample type.
  if (s.length === 0 || s[0] !== "" || profile.sampleType.length === 0) return null;
  const functions = new Map(profile.function.map((f) => [Number(f.id), f]));
  const frames = new Map<number, Frame[]>();
  for (const loc of profile.location) {
    // Lines of one location are innermost (inlined) first; a stack lists its leaf first.
    frames.set(
      Number(loc.id),
      loc.line.map((l) => {
        const fn = functions.get(Number(l.functionId));
        return {
          name: fn
            ? str(fn.name) || `0x${Number(loc.address).toString(16)}`
            : `0x${Number(loc.address).toString(16)}`,
          file: fn ? str(fn.filename) : "",
          line: Number(l.line),
        };
      }),
    );
  }
  const samples: StackSample[] = profile.sample.map((smp) => {
    const leafFirst: Frame[] = [];
    for (const id of smp.locationId) {
      const fs = frames.get(Number(id));
      if (fs && fs.length > 0) leafFirst.push(...fs);
      else leafFirst.push({ name: `location ${id}`, file: "", line: 0 });
    }
    return { stack: leafFirst.reverse(), values: smp.value.map(Number) };
  });
  const types = profile.sampleType.map((t) => ({ type: str(t.type), unit: str(t.unit) }));
  const defaultName = str(profile.defaultSampleType);
  const defaultIndex = defaultName === "" ? undefined : types.findIndex((t) => t.type === defaultName);
  return {
    sampleTypes: types,
    samples,
    timeNanos: Number(profile.timeNanos),
    durationNanos: Number(profile.durationNanos),
    ...(profile.periodType
      ? {
        periodType: { type: str(profile.periodType.type), unit: str(profile.periodType.unit) },
        period: Number(profile.period),
      }
      : {}),
    ...(defaultIndex !== undefined && defaultIndex >= 0 ? { defaultIndex } : {}),
  };
}
