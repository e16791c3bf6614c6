/**
 * Writes engine/vrl/stdlib/data/zone_abbreviations.ts from a TZif tree (default /usr/share/zoneinfo):
 * for each zone, the abbreviation chrono-tz prints for `%Z` at each UTC offset, split into eras where an
 * offset's abbreviation changed (New York's -4:00 was EDT, then EWT in 1942, EPT, then EDT again).
 *
 *   deno run -A scripts/gen_zone_abbreviations.ts [/usr/share/zoneinfo]
 */

const root = Deno.args[0] ?? "/usr/share/zoneinfo";
const OUT = new URL("../engine/vrl/stdlib/data/zone_abbreviations.ts", import.meta.url);

/** One local time type: UTC offset in seconds and abbreviation. */
interface TimeType {
  off: number;
  abbr: string;
}

/** A zone's history: the type in force from each transition (the first from the beginning of time). */
interface History {
  transitions: { at: number; type: TimeType }[];
  version: string;
}

function readTzif(bytes: Uint8Array): History | null {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (new TextDecoder().decode(bytes.subarray(0, 4)) !== "TZif") return null;
  const header = (at: number) => [0, 1, 2, 3, 4, 5].map((i) => dv.getUint32(at + 20 + 4 * i));
  const v1 = header(0);
  const v1Size = v1[3] * 5 + v1[4] * 6 + v1[5] + v1[2] * 8 + v1[1] + v1[0];
  const start = 44 + v1Size;
  const [isut, isstd, leap, timecnt, typecnt, charcnt] = header(start);
  let p = start + 44;
  const times: number[] = [];
  for (let i = 0; i < timecnt; i++, p += 8) times.push(Number(dv.getBigInt64(p)));
  const idx = [...bytes.subarray(p, p + timecnt)];
  p += timecnt;
  const raw: { off: number; ai: number }[] = [];
  for (let i = 0; i < typecnt; i++, p += 6) raw.push({ off: dv.getInt32(p), ai: dv.getUint8(p + 5) });
  const chars = bytes.subarray(p, p + charcnt);
  p += charcnt + leap * 12 + isstd + isut;
  const abbrAt = (i: number) => new TextDecoder().decode(chars.subarray(i, chars.indexOf(0, i)));
  const types = raw.map((t) => ({ off: t.off, abbr: abbrAt(t.ai) }));
  const transitions = [{ at: -Infinity, type: types[0] }];
  times.forEach((at, i) => transitions.push({ at, type: types[idx[i]] }));
  const footer = new TextDecoder().decode(bytes.subarray(p)).trim();
  const last = times.length ? times[times.length - 1] + 1 : -Infinity;
  for (const type of footerTypes(footer)) transitions.push({ at: last, type });
  return { transitions, version: String.fromCharCode(bytes[4]) };
}

// The types a POSIX TZ footer (`EST5EDT,M3.2.0,M11.1.0`, `<+04>-4`) keeps using after the last transition.
function footerTypes(tz: string): TimeType[] {
  const m = /^(<[^>]+>|[A-Za-z]+)([+-]?[\d:]+)(?:(<[^>]+>|[A-Za-z]+)([+-]?[\d:]+)?)?(?:,|$)/.exec(tz);
  if (!m) return [];
  const name = (s: string) => s.replace(/^<|>$/g, "");
  const secs = (s: string) => {
    const neg = s.startsWith("-");
    const [h, mi = "0", se = "0"] = s.replace(/^[+-]/, "").split(":");
    return (neg ? -1 : 1) * (Number(h) * 3600 + Number(mi) * 60 + Number(se));
  };
  const std = -secs(m[2]);
  const out = [{ off: std, abbr: name(m[1]) }];
  if (m[3]) out.push({ off: m[4] ? -secs(m[4]) : std + 3600, abbr: name(m[3]) });
  return out;
}

/** `start|abbr minutes,abbr minutes` per era; later eras list only the offsets they change. */
function encode(h: History): string {
  const current = new Map<number, string>();
  const eras: string[] = [];
  let era: Map<number, string> | null = null;
  let eraStart = -Infinity;
  const flush = () => {
    if (!era) return;
    const entries = [...era].map(([m, a]) => `${a} ${m}`).join(",");
    eras.push(eras.length === 0 ? entries : `${eraStart}:${entries}`);
  };
  for (const { at, type } of h.transitions) {
    const min = Math.round(type.off / 60);
    const had = current.get(min);
    if (had === type.abbr) continue;
    if (had !== undefined || !era) {
      flush();
      era = new Map();
      eraStart = at;
    }
    current.set(min, type.abbr);
    era.set(min, type.abbr);
  }
  flush();
  return eras.join("|");
}

const byData = new Map<string, string[]>();
async function walk(dir: string, prefix: string) {
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    const name = prefix + e.name;
    if (e.isDirectory) {
      if (!["posix", "right"].includes(e.name)) await walk(path, name + "/");
      continue;
    }
    // The host's own zone and zic's defaults are not zones a program names.
    if (["localtime", "posixrules", "Factory"].includes(name)) continue;
    const h = readTzif(await Deno.readFile(path).catch(() => new Uint8Array()));
    if (!h || h.version < "2") continue;
    const data = encode(h);
    byData.set(data, [...(byData.get(data) ?? []), name]);
  }
}
await walk(root, "");

const version = (await Deno.readTextFile(`${root}/tzdata.zi`).catch(() => "")).match(/version (\S+)/)?.[1];
const rows = [...byData].map(([data, names]) => [names.sort().join(" "), data]).sort((a, b) =>
  a[0] < b[0] ? -1 : 1
);
const body = rows.map(([names, data]) => `  [${JSON.stringify(names)}, ${JSON.stringify(data)}],`).join("\n");
await Deno.writeTextFile(
  OUT,
  `/**
 * Time zone abbreviations (what chrono-tz prints for \`%Z\`) per UTC offset in minutes, from the IANA tz
 * database ${
    version ?? ""
  } as compiled in /usr/share/zoneinfo. Each row: the zone names sharing the data, then
 * eras separated by \`|\`: the first is \`ABBR MINUTES,…\` from the beginning of time, each later one
 * \`START:ABBR MINUTES,…\` (START in Unix seconds) changing only the offsets it lists.
 * Data, not code: regenerate with \`deno run -A scripts/gen_zone_abbreviations.ts\` rather than editing.
 */
export const ZONE_ABBREVIATIONS: readonly (readonly [string, string])[] = [
${body}
];
`,
);
console.log(`${rows.length} rows, ${[...byData.values()].flat().length} names`);
