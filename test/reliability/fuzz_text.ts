/**
 * JSON-, NDJSON- and line-protocol-aware spoilers for the body fuzzer (`fuzz_body.ts`): the body is
 * read as what it is, one value, key or token is spoiled and the rest written back as it was, so the
 * damage reaches the decoder's checks past the syntax: NaN/±Inf/huge/negative numbers and
 * timestamps, wrong value types, duplicate, empty and huge keys, invalid UTF-8 in strings, balanced
 * deep nesting, giant key and label counts, empty names, blank and whitespace bodies.
 */
import { BAD_UTF8, concat, GIANT_BYTES, type Mutation, pick } from "./fuzz_protobuf.ts";

/** What a body is, so the spoilers that understand it apply. */
export type BodyKind = "protobuf" | "json" | "ndjson" | "lineproto";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A JSON value as a tree that keeps duplicate keys and writes literals verbatim (NaN, 1e400, …). */
type J = { t: "obj"; e: Array<[string, J]> } | { t: "arr"; a: J[] } | { t: "lit"; s: string };

function toJ(v: unknown): J {
  if (Array.isArray(v)) return { t: "arr", a: v.map(toJ) };
  if (v !== null && typeof v === "object") {
    return { t: "obj", e: Object.entries(v).map(([k, x]) => [k, toJ(x)]) };
  }
  return { t: "lit", s: JSON.stringify(v) };
}

/** Marks the spot invalid UTF-8 goes, replaced after encoding (a JS string cannot hold it). */
const BAD_MARK = "\u0001BAD\u0001";

function writeJ(j: J): string {
  if (j.t === "lit") return j.s;
  if (j.t === "arr") return `[${j.a.map(writeJ).join(",")}]`;
  return `{${
    j.e.map(([k, v]) => `${JSON.stringify(k).replaceAll("\\u0001BAD\\u0001", BAD_MARK)}:${writeJ(v)}`).join(
      ",",
    )
  }}`;
}

function encodeWithBadUtf8(text: string, r: () => number): Uint8Array {
  const parts = text.split(BAD_MARK).map((s) => enc.encode(s));
  const out: Uint8Array[] = [];
  parts.forEach((p, i) => out.push(...(i === 0 ? [p] : [new Uint8Array(pick(BAD_UTF8, r)), p])));
  return concat(out);
}

/** Every node with a way to replace it, depth first. */
function nodes(j: J, set: (x: J) => void, out: Array<{ j: J; set: (x: J) => void }> = []) {
  out.push({ j, set });
  if (j.t === "arr") j.a.forEach((x, i) => nodes(x, (y) => (j.a[i] = y), out));
  if (j.t === "obj") j.e.forEach((kv) => nodes(kv[1], (y) => (kv[1] = y), out));
  return out;
}

const EDGE_NUMBERS = [
  "NaN",
  "Infinity",
  "-Infinity",
  "1e400",
  "-1e400",
  "-1",
  "0",
  "-0",
  "1.5",
  "-9223372036854775809",
  "9223372036854775807",
  "18446744073709551616",
  "1e-400",
  "1.7976931348623157e308",
  "1" + "0".repeat(400),
];
const EDGE_LITERALS = [
  ...EDGE_NUMBERS,
  '""',
  '" "',
  '"NaN"',
  '"-1"',
  '"1e30"',
  '"-9223372036854775809"',
  '"99999999999999999999"',
  "null",
  "true",
  "[]",
  "{}",
  '"\\ud800"',
  '"\\u0000"',
  `"${"x".repeat(70_000)}"`,
];
const EDGE_KEYS = [
  "",
  " ",
  "\u0000",
  "a".repeat(70_000),
  "__name__",
  "greptime_timestamp",
  "a.b",
  "🙂",
  BAD_MARK,
];

/** Spoils one node of a parsed JSON body; the body is returned as is when it is not JSON. */
function jsonMutation(spoil: (j: J, set: (x: J) => void, r: () => number) => boolean): Mutation {
  return (body, r) => {
    let root: J;
    const holder = { root: undefined as unknown as J };
    let all: Array<{ j: J; set: (x: J) => void }>;
    try {
      root = toJ(JSON.parse(dec.decode(body)));
      holder.root = root;
      all = nodes(root, (x) => (holder.root = x));
    } catch {
      return body; // not JSON, or nested past this walker's stack by an earlier spoiler
    }
    for (let tries = 0; tries < 8; tries++) {
      const { j, set } = pick(all, r);
      if (spoil(j, set, r)) return encodeWithBadUtf8(writeJ(holder.root), r);
    }
    return body;
  };
}

const lit = (s: string): J => ({ t: "lit", s });
const isNumberish = (j: J) => j.t === "lit" && /^"?-?\d/.test(j.s);

/** The JSON spoilers, by name. */
export const JSON_MUTATIONS: Record<string, Mutation> = {
  json_value: jsonMutation((_j, set, r) => (set(lit(pick(EDGE_LITERALS, r))), true)),
  json_number: jsonMutation((j, set, r) => {
    // timestamps and values, as numbers or as the numeric strings (OTLP JSON's int64, Loki's ns)
    if (!isNumberish(j)) return false;
    const n = pick(EDGE_NUMBERS, r);
    set(lit((j as { s: string }).s.startsWith('"') ? `"${n}"` : n));
    return true;
  }),
  json_type: jsonMutation((j, set, r) => {
    const text = writeJ(j);
    set(pick([lit(JSON.stringify(text)), { t: "arr", a: [j] }, { t: "obj", e: [["v", j]] }, lit("null")], r));
    return true;
  }),
  json_bad_utf8: jsonMutation((j, set, r) => {
    if (j.t === "obj" && j.e.length > 0 && r() < 0.5) {
      const kv = pick(j.e, r);
      kv[0] = kv[0].slice(0, 1) + BAD_MARK + kv[0].slice(1);
      return true;
    }
    if (j.t !== "lit" || !j.s.startsWith('"')) return false;
    set(lit(j.s.slice(0, 2) + BAD_MARK + j.s.slice(2)));
    return true;
  }),
  json_dup_key: jsonMutation((j, _s, r) => {
    if (j.t !== "obj" || j.e.length === 0) return false;
    const [k] = pick(j.e, r);
    j.e.push([k, lit(pick(EDGE_LITERALS, r))]);
    return true;
  }),
  json_key: jsonMutation((j, _s, r) => {
    if (j.t !== "obj" || j.e.length === 0) return false;
    pick(j.e, r)[0] = pick(EDGE_KEYS, r);
    return true;
  }),
  json_drop: jsonMutation((j, _s, r) => {
    const list: unknown[] | null = j.t === "obj" ? j.e : j.t === "arr" ? j.a : null;
    if (!list || list.length === 0) return false;
    list.splice(Math.floor(r() * list.length), 1);
    return true;
  }),
  json_giant: jsonMutation((j, _s, r) => {
    if (j.t === "obj") {
      for (let i = 0; i < 5000; i++) j.e.push([`k${i}`, lit(pick(['"v"', "1", "true"], r))]);
      return true;
    }
    if (j.t !== "arr" || j.a.length === 0) return false;
    const item = pick(j.a, r);
    const n = Math.min(5000, Math.floor(GIANT_BYTES / Math.max(1, writeJ(item).length)));
    for (let i = 0; i < n; i++) j.a.push(item);
    return true;
  }),
  json_deep: jsonMutation((j, set, r) => {
    // balanced, so still JSON: only a depth limit stops it
    const depth = 1000 + Math.floor(r() * 100_000);
    const open = r() < 0.5;
    set(
      lit(
        open
          ? "[".repeat(depth) + writeJ(j) + "]".repeat(depth)
          : '{"a":'.repeat(depth) + writeJ(j) + "}".repeat(depth),
      ),
    );
    return true;
  }),
};

const NL = new Uint8Array([0x0a]);

/** A body's lines as bytes (invalid UTF-8 in one survives). */
function splitLines(b: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let from = 0;
  for (let i = 0; i <= b.length; i++) {
    if (i === b.length || b[i] === 0x0a) {
      out.push(b.subarray(from, i));
      from = i + 1;
    }
  }
  return out;
}

function joinLines(lines: Uint8Array[], sep: Uint8Array): Uint8Array {
  return concat(lines.flatMap((l, i) => (i === 0 ? [l] : [sep, l])));
}

/** One line of an NDJSON body spoiled by a JSON spoiler, or lines dropped, repeated, blanked. */
export const NDJSON_MUTATIONS: Record<string, Mutation> = {
  ndjson_line: (b, r) => {
    const lines = splitLines(b);
    const at = Math.floor(r() * lines.length);
    lines[at] = pick(Object.values(JSON_MUTATIONS), r)(lines[at], r);
    return joinLines(lines, NL);
  },
  ndjson_lines: (b, r) => {
    const lines = dec.decode(b).split("\n");
    const at = Math.floor(r() * lines.length);
    const op = Math.floor(r() * 4);
    if (op === 0) lines.splice(at, 1);
    else if (op === 1) lines.splice(at, 0, pick(["", " ", "\r", "\t", "null", "[]", "{}", "1"], r));
    else if (op === 2) lines.splice(at, 0, lines[at] ?? "");
    else {lines.push(
        ...Array(Math.min(5000, Math.floor(GIANT_BYTES / (lines[at]?.length || 1)))).fill(lines[at] ?? ""),
      );}
    return enc.encode(lines.join(pick(["\n", "\r\n"], r)));
  },
};

/** A line's tokens: measurement and tags, fields, timestamp (split on unescaped spaces outside quotes). */
function lpParts(line: string): string[] {
  const parts: string[] = [];
  let cur = "", quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "\\" && i + 1 < line.length) {
      cur += c + line[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === " " && !quoted) {
      parts.push(cur);
      cur = "";
    } else cur += c;
  }
  parts.push(cur);
  return parts;
}

const LP_TIMESTAMPS = [
  "-1",
  "0",
  "9223372036854775807",
  "9223372036854775808",
  "-9223372036854775809",
  "1e18",
  "NaN",
  "1.5",
  "99999999999999999999",
  "-0",
  "+5",
  "0x10",
];
const LP_VALUES = [
  "NaN",
  "nan",
  "inf",
  "-Inf",
  "1e400",
  "9223372036854775808i",
  "-9223372036854775809i",
  "18446744073709551616u",
  "-1u",
  '"unterminated',
  "t",
  "FALSE",
  "1.",
  "",
  '"\\"',
  "1_000",
  "0x1i",
  "--1",
  `"${"x".repeat(70_000)}"`,
];

/** Spoils one line of a line-protocol body, given its tokens; the other lines stay. */
function lpMutation(spoil: (parts: string[], r: () => number) => void): Mutation {
  return (b, r) => {
    const lines = dec.decode(b).split("\n");
    const at = Math.floor(r() * lines.length);
    if (!lines[at]) return b;
    const parts = lpParts(lines[at]);
    spoil(parts, r);
    lines[at] = parts.join(" ");
    return encodeWithBadUtf8(lines.join("\n"), r);
  };
}

/** Replaces one `k=v` pair of a comma list (tags or fields) through `f`. */
function editPair(list: string, r: () => number, f: (k: string, v: string) => string, skipFirst: boolean) {
  const items = list.split(",");
  const from = skipFirst ? 1 : 0;
  if (items.length <= from) return list;
  const at = from + Math.floor(r() * (items.length - from));
  const eq = items[at].indexOf("=");
  items[at] = f(items[at].slice(0, Math.max(0, eq)), items[at].slice(eq + 1));
  return items.join(",");
}

/** The line-protocol spoilers, by name. */
export const LINEPROTO_MUTATIONS: Record<string, Mutation> = {
  lp_timestamp: lpMutation((p, r) => {
    if (p.length >= 3) p[p.length - 1] = pick(LP_TIMESTAMPS, r);
    else p.push(pick(LP_TIMESTAMPS, r));
  }),
  lp_field_value: lpMutation((p, r) => {
    if (p.length > 1) p[1] = editPair(p[1], r, (k) => `${k}=${pick(LP_VALUES, r)}`, false);
  }),
  lp_empty_name: lpMutation((p, r) => {
    const which = Math.floor(r() * 4);
    if (which === 0) p[0] = p[0].replace(/^[^,]*/, "");
    else if (which === 1) p[0] = editPair(p[0], r, (_k, v) => `=${v}`, true);
    else if (which === 2) p[0] = editPair(p[0], r, (k) => `${k}=`, true);
    else if (p.length > 1) p[1] = editPair(p[1], r, (_k, v) => `=${v}`, false);
  }),
  lp_dup_key: lpMutation((p, r) => {
    const i = p.length > 1 && r() < 0.5 ? 1 : 0;
    const items = p[i].split(",");
    if (items.length > (i === 0 ? 1 : 0)) {
      items.push(pick(items.slice(i === 0 ? 1 : 0), r).replace(/=.*/, "=2i"));
    }
    p[i] = items.join(",");
  }),
  lp_giant: lpMutation((p, r) => {
    const tags = r() < 0.5;
    const extra = Array.from({ length: 5000 }, (_, i) => tags ? `t${i}=v${i}` : `f${i}=${i}i`).join(",");
    if (tags) p[0] += "," + extra;
    else if (p.length > 1) p[1] += "," + extra;
  }),
  lp_bad_utf8: lpMutation((p, r) => {
    const i = Math.floor(r() * Math.min(2, p.length));
    const at = Math.floor(r() * (p[i].length + 1));
    p[i] = p[i].slice(0, at) + BAD_MARK + p[i].slice(at);
  }),
  lp_escape: lpMutation((p, r) => {
    const i = Math.floor(r() * p.length);
    p[i] += pick(["\\", ",", "=", '"', " ", "\\ ", ",=", "\t"], r);
  }),
};

/** Blank and whitespace bodies, a BOM, a trailing NUL: for every kind. */
export const BLANK_MUTATIONS: Record<string, Mutation> = {
  blank: (_b, r) => enc.encode(pick(["", " ", "\n", "\r\n\r\n", "\t \n", "\u00a0", "\ufeff"], r)),
  bom: (b) => concat([new Uint8Array([0xef, 0xbb, 0xbf]), b]),
  trailing: (b, r) => concat([b, enc.encode(pick(["\u0000", "\n\n\n", " ", "x", "}", "]", "\r"], r))]),
};
