/** Shared checks for the profiling tests: decoding pprof output and parsing SVG. */
import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { Profile } from "pprof-format";
import { XMLParser, XMLValidator } from "fast-xml-parser";

/** A decoded pprof profile with its strings resolved. */
export interface DecodedPprof {
  profile: Profile;
  sampleTypes: string[];
  functionNames: Set<string>;
}

/** Gunzips and decodes a pprof body with `pprof-format`, checking its internal references. */
export function decodePprofBody(body: Uint8Array): DecodedPprof {
  assert.deepEqual([body[0], body[1]], [0x1f, 0x8b], "pprof output is gzipped");
  const profile = Profile.decode(new Uint8Array(gunzipSync(body)));
  const strings = profile.stringTable.strings;
  assert.deepEqual(strings[0], "", "string table starts with the empty string");
  const locations = new Set(profile.location.map((l) => Number(l.id)));
  const functions = new Map(profile.function.map((f) => [Number(f.id), strings[Number(f.name)]]));
  for (const s of profile.sample) {
    assert.deepEqual(s.value.length, profile.sampleType.length, "one value per sample type");
    for (const id of s.locationId) assert(locations.has(Number(id)), `sample refers to location ${id}`);
  }
  for (const l of profile.location) {
    for (const line of l.line) assert(functions.has(Number(line.functionId)), `location refers to function`);
  }
  return {
    profile,
    sampleTypes: profile.sampleType.map((t) => `${strings[Number(t.type)]}/${strings[Number(t.unit)]}`),
    functionNames: new Set(functions.values()),
  };
}

/** A parsed flamegraph: its frames' tooltips and labels. */
export interface ParsedSvg {
  width: number;
  height: number;
  titles: string[];
}

/** Validates an SVG document as XML and returns the frames it draws. */
export function parseFlamegraph(svg: string): ParsedSvg {
  const valid = XMLValidator.validate(svg);
  assert(valid === true, `SVG is well-formed XML: ${JSON.stringify(valid)}`);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", isArray: (n) => n === "g" })
    .parse(svg);
  const root = doc.svg;
  assert(root, "root element is <svg>");
  assert.deepEqual(root["@xmlns"], "http://www.w3.org/2000/svg");
  const groups = (root.g ?? []) as { title: string; rect: Record<string, string> }[];
  for (const g of groups) {
    assert(Number(g.rect["@width"]) >= 0, "frame widths are not negative");
    assert(Number(g.rect["@x"]) >= 0, "frames start inside the picture");
  }
  return {
    width: Number(root["@width"]),
    height: Number(root["@height"]),
    titles: groups.map((g) => String(g.title)),
  };
}

/** Runs `fn` in short bursts until `until` settles, so a profiler sampling this isolate sees it. */
export async function busyUntil<T>(until: Promise<T>, fn: () => void): Promise<T> {
  let done = false;
  const result = until.finally(() => done = true);
  while (!done) {
    const end = performance.now() + 15;
    while (performance.now() < end) fn();
    await new Promise((r) => setTimeout(r, 1));
  }
  return await result;
}
