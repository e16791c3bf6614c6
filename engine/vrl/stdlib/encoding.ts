/**
 * Encoding and hashing functions. VRL strings are bytes: byte-level functions take a string's bytes
 * with `utf8Bytes` and give decoded bytes back with `bytesString`, which keeps invalid UTF-8 (see
 * `../bytes.ts`).
 */

import { CRC_ALGORITHMS, crcOf } from "./crc.ts";
import { createHash } from "node:crypto";
import { bytesString, utf8Bytes } from "../bytes.ts";
import { K } from "../types.ts";
import { encodeJson, sortedKeys, type VrlObject, type VrlValue } from "../value.ts";
import { fail, flag, type FnDef, opt, req, str } from "./def.ts";
import { everyItem, unlessConstant } from "./def.ts";
import { toStringValue } from "./type_fns.ts";

const S = K.BYTES;

function toBase64(bytes: Uint8Array, urlSafe: boolean, padding: boolean): string {
  let s = btoa(String.fromCharCode(...bytes));
  if (urlSafe) s = s.replaceAll("+", "-").replaceAll("/", "_");
  if (!padding) s = s.replace(/=+$/, "");
  return s;
}

function fromBase64(s: string, urlSafe: boolean): Uint8Array {
  let b = s.trim();
  if (urlSafe || /[-_]/.test(b)) b = b.replaceAll("-", "+").replaceAll("_", "/");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b)) return fail("unable to decode value from base64");
  while (b.length % 4 !== 0) b += "=";
  try {
    const bin = atob(b);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return fail("unable to decode value from base64");
  }
}

const hex = (s: string, alg: string) => createHash(alg).update(utf8Bytes(s)).digest("hex");

/** SHA-2 variant names (VRL) to node:crypto algorithms. */
export const SHA2: Record<string, string> = {
  "SHA-224": "sha224",
  "SHA-256": "sha256",
  "SHA-384": "sha384",
  "SHA-512": "sha512",
  "SHA-512/224": "sha512-224",
  "SHA-512/256": "sha512-256",
};
/** SHA-3 variant names (VRL) to node:crypto algorithms. */
export const SHA3: Record<string, string> = {
  "SHA3-224": "sha3-224",
  "SHA3-256": "sha3-256",
  "SHA3-384": "sha3-384",
  "SHA3-512": "sha3-512",
};

const variantCheck =
  (table: Record<string, string>) => (a: ({ constant?: { value: unknown } } | undefined)[]) => {
    const v = a[1]?.constant?.value;
    if (typeof v === "string" && !(v in table)) {
      return `variant must be one of ${Object.keys(table).join(", ")}`;
    }
  };

/** Characters left as-is by each `encode_percent` ascii set (besides alphanumerics). */
const PERCENT_SETS: Record<string, (c: number) => boolean> = {
  NON_ALPHANUMERIC: () => false,
  CONTROLS: (c) => c >= 0x20 && c < 0x7f,
  FRAGMENT: (c) => c > 0x20 && c < 0x7f && !` "<>\``.includes(String.fromCharCode(c)),
  QUERY: (c) => c > 0x20 && c < 0x7f && !` "#<>`.includes(String.fromCharCode(c)),
  SPECIAL: (c) => c > 0x20 && c < 0x7f && !` "#<>'`.includes(String.fromCharCode(c)),
  PATH: (c) => c > 0x20 && c < 0x7f && !` "#<>?\`{}`.includes(String.fromCharCode(c)),
  USERINFO: (c) => c > 0x20 && c < 0x7f && !` "#<>?\`{}/:;=@[\\]^|`.includes(String.fromCharCode(c)),
  COMPONENT: (c) => c > 0x20 && c < 0x7f && !` "#<>?\`{}/:;=@[\\]^|$%&+,`.includes(String.fromCharCode(c)),
  WWW_FORM_URLENCODED: (c) => "*-._".includes(String.fromCharCode(c)),
};

function encodePercent(s: string, set: string): string {
  const keep = PERCENT_SETS[set] ?? PERCENT_SETS.NON_ALPHANUMERIC;
  let out = "";
  for (const b of utf8Bytes(s)) {
    const alnum = (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122);
    out += alnum || keep(b) ? String.fromCharCode(b) : "%" + b.toString(16).toUpperCase().padStart(2, "0");
  }
  return out;
}

function decodePercent(s: string): string {
  const bytes: number[] = [];
  const raw = utf8Bytes(s);
  for (let i = 0; i < raw.length; i++) {
    if (
      raw[i] === 37 && i + 2 < raw.length + 0 &&
      /^[0-9A-Fa-f]{2}$/.test(String.fromCharCode(raw[i + 1], raw[i + 2]))
    ) {
      bytes.push(parseInt(String.fromCharCode(raw[i + 1], raw[i + 2]), 16));
      i += 2;
    } else bytes.push(raw[i]);
  }
  return bytesString(new Uint8Array(bytes));
}

let CRC_TABLE: Uint32Array | undefined;
function crc32(s: string): bigint {
  if (!CRC_TABLE) {
    CRC_TABLE = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      CRC_TABLE[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const b of utf8Bytes(s)) crc = CRC_TABLE[(crc ^ b) & 0xff] ^ (crc >>> 8);
  return BigInt((crc ^ 0xffffffff) >>> 0);
}

function kvValue(v: VrlValue): string {
  const s = v instanceof Map || Array.isArray(v) ? encodeJson(v) : toStringValue(v);
  return /[\s"=]/.test(s) || s === "" ? JSON.stringify(s) : s;
}

/** `encode_key_value`: ordered keys first, the rest sorted; nested objects and arrays flattened with `.`. */
export function encodeKeyValue(
  o: VrlObject,
  order: string[],
  kv: string,
  fd: string,
  flattenBool: boolean,
): string {
  const flat = new Map<string, VrlValue>();
  const walk = (prefix: string, v: VrlValue) => {
    if (v instanceof Map) { for (const k of sortedKeys(v)) walk(prefix ? `${prefix}.${k}` : k, v.get(k)!); }
    // VRL's key/value serializer flattens sequences too, keyed by index (`b.0=1 b.1=2`).
    else if (Array.isArray(v) && prefix) v.forEach((e, i) => walk(`${prefix}.${i}`, e));
    else flat.set(prefix, v);
  };
  walk("", o);
  const keys = [
    ...order.filter((k) => flat.has(k)),
    ...[...flat.keys()].filter((k) => !order.includes(k)).sort(),
  ];
  const parts: string[] = [];
  for (const k of keys) {
    const v = flat.get(k)!;
    // Keys are quoted and escaped as values are.
    const key = kvValue(k);
    if (flattenBool && typeof v === "boolean") {
      if (v) parts.push(key);
      continue;
    }
    if (v === null) continue;
    parts.push(`${key}${kv}${kvValue(v)}`);
  }
  return parts.join(fd);
}

function csvField(v: VrlValue, delim: string): string {
  const s = toStringValue(v);
  return s.includes(delim) || /["\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** Encoding functions by name. */
export const ENCODING_FNS: Record<string, FnDef> = {
  encode_json: {
    params: [req("value", K.ANY), opt("pretty", K.BOOLEAN)],
    returns: S,
    call: ([v, p]) => encodeJson(v!, flag(p, false)),
  },
  encode_base64: {
    params: [req("value", S), opt("padding", K.BOOLEAN), opt("charset", S)],
    returns: S,
    call: ([v, p, c]) => toBase64(utf8Bytes(v as string), str(c, "standard") === "url_safe", flag(p, true)),
  },
  decode_base64: {
    params: [req("value", S), opt("charset", S)],
    returns: S,
    fallible: true,
    call: ([v, c]) => bytesString(fromBase64(v as string, str(c, "standard") === "url_safe")),
  },
  encode_base16: {
    params: [req("value", S)],
    returns: S,
    call: ([v]) => [...utf8Bytes(v as string)].map((b) => b.toString(16).padStart(2, "0")).join(""),
  },
  decode_base16: {
    params: [req("value", S)],
    returns: S,
    fallible: true,
    call: ([v]) => {
      const s = v as string;
      if (s.length % 2 !== 0 || !/^[0-9A-Fa-f]*$/.test(s)) return fail("unable to decode value from base16");
      const out = new Uint8Array(s.length / 2);
      for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
      return bytesString(out);
    },
  },
  encode_percent: {
    params: [req("value", S), opt("ascii_set", S)],
    returns: S,
    check: (a) => {
      const v = a[1]?.constant?.value;
      if (typeof v === "string" && !(v in PERCENT_SETS)) return `unknown ascii_set "${v}"`;
    },
    call: ([v, set]) => encodePercent(v as string, str(set, "NON_ALPHANUMERIC")),
  },
  decode_percent: { params: [req("value", S)], returns: S, call: ([v]) => decodePercent(v as string) },
  md5: { params: [req("value", S)], returns: S, call: ([v]) => hex(v as string, "md5") },
  sha1: { params: [req("value", S)], returns: S, call: ([v]) => hex(v as string, "sha1") },
  sha2: {
    params: [req("value", S), opt("variant", S)],
    returns: S,
    check: variantCheck(SHA2),
    call: ([v, va]) => hex(v as string, SHA2[str(va, "SHA-512/256")] ?? fail(`unknown variant ${va}`)),
  },
  sha3: {
    params: [req("value", S), opt("variant", S)],
    returns: S,
    check: variantCheck(SHA3),
    call: ([v, va]) => hex(v as string, SHA3[str(va, "SHA3-512")] ?? fail(`unknown variant ${va}`)),
  },
  crc: {
    params: [req("value", S), opt("algorithm", S)],
    // Decimal text, as VRL returns it (its docs: `crc("foo")` is `"2356372769"`).
    returns: S,
    fallibleFor: unlessConstant(1, (v) => typeof v === "string" && Object.hasOwn(CRC_ALGORITHMS, v), true),
    call: ([v, a]) => {
      const name = str(a, "CRC_32_ISO_HDLC");
      if (name === "CRC_32_ISO_HDLC") return String(crc32(v as string));
      const params = Object.hasOwn(CRC_ALGORITHMS, name) ? CRC_ALGORITHMS[name] : undefined;
      return params ? String(crcOf(utf8Bytes(v as string), params)) : fail(`Invalid CRC algorithm: ${name}`);
    },
  },
  encode_key_value: {
    params: [
      req("value", K.OBJECT),
      opt("fields_ordering", K.ARRAY),
      opt("key_value_delimiter", S),
      opt("field_delimiter", S),
      opt("flatten_boolean", K.BOOLEAN),
    ],
    returns: S,
    fallibleFor: unlessConstant(1, (v) => everyItem(v, (x) => typeof x === "string"), true),
    call: ([v, o, kv, fd, fb]) =>
      encodeKeyValue(
        v as VrlObject,
        ((o ?? []) as VrlValue[]).map(String),
        str(kv, "="),
        str(fd, " "),
        flag(fb, false),
      ),
  },
  encode_logfmt: {
    params: [req("value", K.OBJECT), opt("fields_ordering", K.ARRAY)],
    returns: S,
    fallibleFor: unlessConstant(1, (v) => everyItem(v, (x) => typeof x === "string"), true),
    call: ([v, o]) => encodeKeyValue(v as VrlObject, ((o ?? []) as VrlValue[]).map(String), "=", " ", false),
  },
  encode_csv: {
    params: [req("value", K.ARRAY), opt("delimiter", S)],
    returns: S,
    fallible: true,
    call: ([v, d]) => (v as VrlValue[]).map((x) => csvField(x, str(d, ","))).join(str(d, ",")),
  },
};
