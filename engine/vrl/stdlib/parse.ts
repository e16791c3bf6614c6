/** Parsing functions for structured text: JSON, key/value, logfmt, CSV, query strings, URLs, numbers, durations. */

import { parseJsonToDepth } from "./json_depth.ts";
import { serdeJsonError } from "./json_errors.ts";
import { parseKeyValue } from "./key_value.ts";
import { parseBytes, parseDuration, parseIntBase } from "./parse_numbers.ts";
import { K, mapOf, objectOf, t } from "../types.ts";
import { fromJson, type VrlObject, type VrlValue } from "../value.ts";
import { fail, flag, type FnDef, num, opt, req, str } from "./def.ts";
import { parseFloatStrict } from "./type_fns.ts";
import { utf8Bytes } from "../bytes.ts";

const S = K.BYTES;

/** A JSON number token that JSON.parse would misread: integral float (`3.0`, `1e3`) or a long integer. */
const RISKY_NUMBER = /[:[,]\s*-?\d+(?:\.0*(?![0-9])|(?:\.\d+)?[eE]|\d{15,})/;

/**
 * JSON text to a VRL value: `3.0` stays a float, integers beyond 2^53 keep full precision. A number no f64
 * holds is an infinite float, or with `strict` (VRL's `parse_json`) serde_json's "number out of range".
 */
export function parseJsonText(text: string, strict = false): VrlValue {
  try {
    // Plain JSON.parse is exact unless a number is written as an integral float (`3.0`, `1e3`) or
    // is a long integer; only then pay for the reviver that looks at each number's source text.
    if (!RISKY_NUMBER.test(text) && !/^\s*-?\d/.test(text)) return fromJson(JSON.parse(text));
    return JSON.parse(text, strict ? reviveStrict : reviveVrl) as VrlValue;
  } catch (e) {
    if (e === OUT_OF_RANGE) return fail(`unable to parse json: ${outOfRange(text)}`);
    return fail(`unable to parse json: ${serdeJsonError(text) ?? (e as Error).message}`);
  }
}

/** Thrown by the reviver for a number no f64 holds (serde_json refuses it; JSON.parse gives Infinity). */
const OUT_OF_RANGE = new RangeError("number out of range");

/** serde_json's error for the first out-of-range number, at the number's last character. */
function outOfRange(text: string): string {
  for (const m of text.matchAll(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)) {
    if (Number.isFinite(Number(m[0]))) continue;
    const before = text.slice(0, m.index + m[0].length);
    const line = before.split("\n").length;
    return `number out of range at line ${line} column ${before.length - before.lastIndexOf("\n") - 1}`;
  }
  return "number out of range";
}

function reviveStrict(k: string, v: unknown, ctx?: { source?: string }): unknown {
  if (typeof v === "number" && !Number.isFinite(v)) throw OUT_OF_RANGE;
  return reviveVrl(k, v, ctx);
}

/** JSON.parse reviver building VRL values bottom-up, deciding integer vs float from the source text. */
function reviveVrl(_k: string, v: unknown, ctx?: { source?: string }): unknown {
  switch (typeof v) {
    case "number": {
      const src = ctx?.source ?? String(v);
      if (/[.eE]/.test(src)) return v;
      const n = BigInt(src);
      return BigInt.asIntN(64, n) === n ? n : v;
    }
    case "string":
    case "boolean":
      return v;
  }
  if (v === null || Array.isArray(v)) return v;
  return new Map(Object.entries(v as Record<string, VrlValue>));
}

function parseCsvRecord(text: string, delim: string): string[] {
  const out: string[] = [];
  let cur = "";
  let i = 0;
  let quoted = false;
  // The csv crate skips blank lines; a text with no record gives no fields.
  const line = text.replace(/^(?:\r?\n)+/, "").replace(/\r?\n$/, "");
  if (line === "") return out;
  while (i <= line.length) {
    const c = line[i];
    if (quoted) {
      if (c === undefined) return fail("unable to parse csv: unterminated quote");
      if (c === '"') {
        if (line[i + 1] === '"') {
          cur += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      cur += c;
      i++;
      continue;
    }
    if (c === undefined || c === "\n") {
      out.push(cur);
      break;
    }
    if (c === '"' && cur === "") {
      quoted = true;
      i++;
      continue;
    }
    if (c === delim) {
      out.push(cur);
      cur = "";
      i++;
      continue;
    }
    cur += c;
    i++;
  }
  return out;
}

function percentDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s.replace(/%([0-9A-Fa-f]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16)));
  }
}

/** `parse_query_string`: repeated keys collect into arrays. */
export function parseQueryString(text: string): VrlObject {
  const out: VrlObject = new Map();
  const s = text.startsWith("?") ? text.slice(1) : text;
  if (s === "") return out;
  for (const pair of s.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const k = percentDecode((eq < 0 ? pair : pair.slice(0, eq)).replaceAll("+", " "));
    const v = eq < 0 ? "" : percentDecode(pair.slice(eq + 1).replaceAll("+", " "));
    const prev = out.get(k);
    if (prev === undefined) out.set(k, v);
    else if (Array.isArray(prev)) prev.push(v);
    else out.set(k, [prev, v]);
  }
  return out;
}

// A repeated key collects its values in an array.
const QUERY_TYPE = mapOf(t(S | K.ARRAY));

const DEFAULT_PORTS: Record<string, bigint> = { http: 80n, https: 443n, ws: 80n, wss: 443n, ftp: 21n };

function parseUrl(text: string, defaultPorts: boolean): VrlObject {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return fail(`unable to parse url: ${urlParseError(text)}`);
  }
  const scheme = u.protocol.replace(/:$/, "");
  const port = u.port ? BigInt(u.port) : defaultPorts ? DEFAULT_PORTS[scheme] ?? null : null;
  // As the url crate's accessors: `host_str()` keeps an IPv6 address's brackets; `username()`,
  // `password()` and `fragment()` are the percent-encoded text; `#` alone is an empty fragment.
  return new Map<string, VrlValue>([
    ["fragment", u.hash ? u.hash.slice(1) : u.href.endsWith("#") ? "" : null],
    ["host", u.hostname || null],
    ["password", u.password],
    ["path", u.pathname],
    ["port", port],
    ["query", parseQueryString(u.search)],
    ["scheme", scheme],
    ["username", u.username],
  ]);
}

/** The url crate's `ParseError` text for a URL WHATWG's parser refused (it gives no reason of its own). */
function urlParseError(text: string): string {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(?:\/\/|\\\\)?([^/\\?#]*)/.exec(text.trim());
  if (!m) return "relative URL without a base";
  const authority = m[2].slice(m[2].lastIndexOf("@") + 1);
  const host = /^\[[^\]]*\]?/.exec(authority)?.[0] ?? authority.replace(/:[^:]*$/, "");
  if (host === "") return "empty host";
  try {
    // The host alone parses: what failed is the port after it.
    new URL(`${m[1]}://${host}/`);
    return "invalid port number";
  } catch {
    if (host.startsWith("[")) return "invalid IPv6 address";
    if (/(^|\.)(0x[0-9a-f]*|\d+)\.?$/i.test(host)) return "invalid IPv4 address";
    // deno-lint-ignore no-control-regex
    const idna = /[^\x00-\x7f]|(^|\.)xn--/i.test(host);
    return idna ? "invalid international domain name" : "invalid domain character";
  }
}

export function parseTokens(text: string): VrlValue[] {
  const out: VrlValue[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|\[([^\]]*)\]|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const v = m[1] ?? m[2] ?? m[3];
    out.push(m[3] === "-" ? null : v);
  }
  return out;
}

/** Parsing functions by name. */
export const PARSE_FNS: Record<string, FnDef> = {
  parse_json: {
    params: [req("value", S), opt("max_depth", K.INTEGER), opt("lossy", K.BOOLEAN)],
    returns: K.JSON,
    fallible: true,
    fresh: true,
    check: (a) => {
      const d = a[1]?.constant?.value;
      if (typeof d === "bigint" && (d < 1n || d > 128n)) return "max_depth value should be between 1 and 128";
    },
    call: ([v, d]) => {
      const value = parseJsonText(v as string, true);
      if (d === undefined || d === null) return value;
      const depth = num(d, 128);
      if (depth < 1 || depth > 128) return fail("max_depth value should be between 1 and 128");
      return parseJsonToDepth(v as string, depth, (t) => parseJsonText(t, true));
    },
  },
  parse_key_value: {
    params: [
      req("value", S),
      opt("key_value_delimiter", S),
      opt("field_delimiter", S),
      opt("whitespace", S),
      opt("accept_standalone_key", K.BOOLEAN),
    ],
    returns: K.OBJECT,
    fallible: true,
    fresh: true,
    call: ([v, kv, fd, ws, sa]) =>
      parseKeyValue(v as string, str(kv, "="), str(fd, " "), str(ws, "lenient") === "strict", flag(sa, true)),
  },
  parse_logfmt: {
    params: [req("value", S)],
    returns: K.OBJECT,
    fallible: true,
    fresh: true,
    call: ([v]) => parseKeyValue(v as string, "=", " ", false, true),
  },
  parse_csv: {
    params: [req("value", S), opt("delimiter", S)],
    returns: K.ARRAY,
    fallible: true,
    fresh: true,
    call: ([v, d]) => {
      const delim = str(d, ",");
      // the csv crate's delimiter is one byte: "é" is two
      if (utf8Bytes(delim).length !== 1) return fail("delimiter must be a single character");
      return parseCsvRecord(v as string, delim);
    },
  },
  parse_query_string: {
    params: [req("value", S)],
    returns: QUERY_TYPE,
    fresh: true,
    call: ([v]) => parseQueryString(v as string),
  },
  parse_url: {
    params: [req("value", S), opt("default_known_ports", K.BOOLEAN)],
    returns: objectOf({
      scheme: S,
      username: S,
      password: S,
      path: S,
      host: S | K.NULL,
      port: K.INTEGER | K.NULL,
      fragment: S | K.NULL,
      query: QUERY_TYPE,
    }, true),
    fallible: true,
    fresh: true,
    call: ([v, d]) => parseUrl(v as string, flag(d, false)),
  },
  parse_int: {
    params: [req("value", S), opt("base", K.INTEGER)],
    returns: K.INTEGER,
    fallible: true,
    call: ([v, b]) => parseIntBase(v as string, b === undefined ? undefined : num(b, 10)),
  },
  parse_float: {
    params: [req("value", S)],
    returns: K.FLOAT,
    fallible: true,
    call: ([v]) => {
      const f = parseFloatStrict(v as string);
      if (f === null || !Number.isFinite(f)) return fail(`could not parse "${v}" as float`);
      return f;
    },
  },
  parse_duration: {
    params: [req("value", S), req("unit", S)],
    returns: K.FLOAT,
    fallible: true,
    call: ([v, u]) => parseDuration(v as string, u as string),
  },
  parse_bytes: {
    params: [req("value", S), req("unit", S), opt("base", S)],
    returns: K.FLOAT,
    fallible: true,
    call: ([v, u, b]) => parseBytes(v as string, u as string, str(b, "2")),
  },
  parse_tokens: {
    params: [req("value", S)],
    returns: K.ARRAY,
    fresh: true,
    call: ([v]) => parseTokens(v as string),
  },
};
