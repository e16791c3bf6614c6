/**
 * Smaller text formats: `uuid_from_friendly_id`, `decode_mime_q`, `parse_ruby_hash`, `parse_influxdb`,
 * `parse_aws_cloudwatch_log_subscription_message`.
 */

import { K } from "../types.ts";
import { fromJson, type VrlObject, VrlTimestamp, type VrlValue } from "../value.ts";
import { fail, type FnDef, req } from "./def.ts";
import { parseRubyHash } from "./ruby_hash.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A friendly ID (base62 of the UUID's 128 bits) back to the UUID text. */
function uuidFromFriendlyId(id: string): string {
  let n = 0n;
  for (const c of id) {
    const d = BASE62.indexOf(c);
    if (d < 0) return fail(`failed to decode friendly id: invalid character ${JSON.stringify(c)}`);
    n = n * 62n + BigInt(d);
  }
  if (n >> 128n) return fail("failed to decode friendly id: value is larger than 128 bits");
  const h = n.toString(16).padStart(32, "0");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const ENCODED_WORD = /=\?([^?]*)\?([bBqQ])\?([^?]*)\?=/g;

function decodeWord(charset: string, enc: string, text: string): string {
  let bytes: Uint8Array;
  if (enc === "b" || enc === "B") {
    bytes = Uint8Array.from(atob(text.replace(/[^A-Za-z0-9+/=]/g, "")), (c) => c.charCodeAt(0));
  } else {
    const out: number[] = [];
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === "_") out.push(32);
      else if (c === "=" && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
        out.push(parseInt(text.slice(i + 1, i + 3), 16));
        i += 2;
      } else out.push(c.charCodeAt(0));
    }
    bytes = Uint8Array.from(out);
  }
  try {
    return new TextDecoder(charset || "utf-8").decode(bytes);
  } catch {
    return fail(`unable to decode charset ${charset}`);
  }
}

/** RFC 2047 encoded words (`=?utf-8?q?…?=`) decoded; whitespace between adjacent words is dropped. */
function decodeMimeQ(s: string): string {
  // VRL also takes a bare word without the charset and markers: `?b?SGVsbG8=`.
  const bare = /^\?([bBqQ])\?([^?]*)$/.exec(s);
  if (bare) return decodeWord("utf-8", bare[1], bare[2]);
  let out = "";
  let last = 0;
  let prevEnd = -1;
  for (const m of s.matchAll(ENCODED_WORD)) {
    const between = s.slice(last, m.index);
    if (!(prevEnd === last && /^\s+$/.test(between))) out += between;
    out += decodeWord(m[1], m[2], m[3]);
    last = prevEnd = m.index + m[0].length;
  }
  return out + s.slice(last);
}

/** Splits on `sep` outside double quotes, honouring backslash escapes. */
function splitUnquoted(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = "", quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "\\" && i + 1 < s.length) {
      cur += c + s[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === sep && !quoted) {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out;
}

const unescape = (s: string) => s.replace(/\\(.)/g, "$1");

function influxValue(raw: string): number | null {
  if (/^-?\d+[iu]$/.test(raw)) return Number(raw.slice(0, -1));
  if (/^(t|T|true|True|TRUE)$/.test(raw)) return 1;
  if (/^(f|F|false|False|FALSE)$/.test(raw)) return 0;
  if (raw.startsWith('"')) return null;
  const n = Number(raw);
  return raw !== "" && Number.isFinite(n) ? n : fail(`invalid field value: ${raw}`);
}

/** InfluxDB line protocol → VRL's metric objects, one gauge per numeric field (string fields are dropped). */
function parseInfluxdb(text: string): VrlValue[] {
  const out: VrlValue[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const parts = splitUnquoted(line.trim(), " ").filter((p) => p !== "");
    if (parts.length < 2 || parts.length > 3) return fail(`invalid line protocol: ${line}`);
    const [series, fields, ts] = parts;
    const [measurement, ...tagList] = splitUnquoted(series, ",");
    const tags: VrlObject = new Map();
    for (const tag of tagList) {
      const eq = tag.indexOf("=");
      if (eq <= 0) return fail(`invalid tag: ${tag}`);
      tags.set(unescape(tag.slice(0, eq)), unescape(tag.slice(eq + 1)));
    }
    let timestamp: VrlTimestamp | undefined;
    if (ts !== undefined) {
      if (!/^-?\d+$/.test(ts)) return fail(`invalid timestamp: ${ts}`);
      timestamp = new VrlTimestamp(BigInt(ts));
    }
    for (const f of splitUnquoted(fields, ",")) {
      const eq = f.indexOf("=");
      if (eq <= 0) return fail(`invalid field: ${f}`);
      const value = influxValue(f.slice(eq + 1));
      if (value === null) continue;
      const m: VrlObject = new Map<string, VrlValue>([
        ["name", `${unescape(measurement)}_${unescape(f.slice(0, eq))}`],
        ["tags", new Map(tags)],
      ]);
      if (timestamp) m.set("timestamp", timestamp);
      m.set("kind", "absolute");
      m.set("gauge", new Map([["value", value]]));
      out.push(m);
    }
  }
  return out;
}

/** A CloudWatch Logs subscription message (JSON) with snake_case keys and timestamps. */
function parseCloudwatchMessage(text: string): VrlObject {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return fail(`unable to parse: ${(e as Error).message}`);
  }
  if (typeof raw !== "object" || raw === null || !Array.isArray(raw.logEvents)) {
    return fail("unable to parse: missing field `logEvents`");
  }
  const events = (raw.logEvents as Record<string, unknown>[]).map((e) =>
    new Map<string, VrlValue>([
      ["id", String(e.id)],
      ["message", String(e.message)],
      ["timestamp", VrlTimestamp.fromMs(Number(e.timestamp))],
    ])
  );
  return new Map<string, VrlValue>([
    ["owner", String(raw.owner)],
    ["message_type", String(raw.messageType)],
    ["log_group", String(raw.logGroup)],
    ["log_stream", String(raw.logStream)],
    ["subscription_filters", fromJson(raw.subscriptionFilters ?? [])],
    ["log_events", events],
  ]);
}

/** Format functions by name. */
export const FORMAT_FNS: Record<string, FnDef> = {
  uuid_from_friendly_id: {
    params: [req("value", K.BYTES)],
    returns: K.BYTES,
    fallible: true,
    call: ([v]) => uuidFromFriendlyId(v as string),
  },
  decode_mime_q: {
    params: [req("value", K.BYTES)],
    returns: K.BYTES,
    fallible: true,
    call: ([v]) => decodeMimeQ(v as string),
  },
  parse_ruby_hash: {
    params: [req("value", K.BYTES)],
    returns: K.OBJECT,
    fallible: true,
    call: ([v]) => parseRubyHash(v as string),
  },
  parse_influxdb: {
    params: [req("value", K.BYTES)],
    returns: K.ARRAY,
    fallible: true,
    call: ([v]) => parseInfluxdb(v as string),
  },
  parse_aws_cloudwatch_log_subscription_message: {
    params: [req("value", K.BYTES)],
    returns: K.OBJECT,
    fallible: true,
    call: ([v]) => parseCloudwatchMessage(v as string),
  },
};
