/** `urlencoding`: percent encode/decode (reference §4.17). */
import { expectString, fieldProcessor, type ProcessorCompiler } from "./common.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: false });
const HEX = "0123456789ABCDEF";

/** Encodes every byte except ASCII alphanumerics and `-._~`. */
function urlEncode(s: string): string {
  let out = "";
  for (const b of encoder.encode(s)) {
    if (
      (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b === 45 || b === 46 ||
      b === 95 ||
      b === 126
    ) out += String.fromCharCode(b);
    else out += "%" + HEX[b >> 4] + HEX[b & 15];
  }
  return out;
}

/** The bytes of `s` with `%XX` sequences (hex in either case) decoded; malformed ones and `+` kept. */
export function percentDecodeBytes(s: string): Uint8Array {
  const bytes = encoder.encode(s);
  const out = new Uint8Array(bytes.length);
  let n = 0;
  const hex = (c: number) =>
    c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 37 && i + 2 < bytes.length) {
      const h = hex(bytes[i + 1]);
      const l = hex(bytes[i + 2]);
      if (h >= 0 && l >= 0) {
        out[n++] = h * 16 + l;
        i += 2;
        continue;
      }
    }
    out[n++] = bytes[i];
  }
  return out.subarray(0, n);
}

/** Decodes `%XX` sequences (malformed ones kept literally, `+` kept), lossy UTF-8. */
function urlDecode(s: string): string {
  if (!s.includes("%")) return s;
  return decoder.decode(percentDecodeBytes(s));
}

/** Compiles a `urlencoding` processor. */
export const compileUrlencoding: ProcessorCompiler = (o) => {
  const method = o.string("method") ?? "decode";
  if (method !== "decode" && method !== "encode") return o.fail(`Invalid method: ${method}`, "method");
  const fn = method === "encode" ? urlEncode : urlDecode;
  return fieldProcessor("urlencoding", o.fields(), o.ignoreMissing(), (v, f, entry) => {
    entry[f.target] = fn(expectString("urlencoding", v));
  });
};
