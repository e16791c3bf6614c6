/**
 * `redact`: replaces matches of filters (regexes, named patterns, `{type: "pattern", patterns}`) in strings,
 * recursively through objects and arrays, with a redactor: `full` (`[REDACTED]`), `text` (a replacement) or
 * `sha2`/`sha3` (a digest of the match, base64 or base16).
 */

import { createHash } from "node:crypto";
import { globalRegex } from "../regex.ts";
import { K } from "../types.ts";
import { kindOf, VrlRegex, type VrlValue } from "../value.ts";
import { type ArgInfo, fail, type FnDef, opt, req } from "./def.ts";
import { SHA2, SHA3 } from "./encoding.ts";

const NAMED_FILTERS: Record<string, RegExp> = {
  us_social_security_number: /\b\d{3}-\d{2}-\d{4}\b/g,
};

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function filterRegexes(f: VrlValue): RegExp[] {
  if (f instanceof VrlRegex) return [globalRegex(f.re)];
  if (typeof f === "string") return NAMED_FILTERS[f] ? [NAMED_FILTERS[f]] : fail(`unknown filter name: ${f}`);
  if (f instanceof Map) {
    const type = f.get("type");
    if (type === "pattern") {
      const ps = f.get("patterns");
      if (!Array.isArray(ps)) return fail("pattern filter requires a `patterns` array");
      return ps.map((p) =>
        p instanceof VrlRegex
          ? globalRegex(p.re)
          : typeof p === "string"
          ? new RegExp(escapeRe(p), "g")
          : fail(`expected string or regex pattern, got ${kindOf(p)}`)
      );
    }
    if (typeof type === "string" && NAMED_FILTERS[type]) return [NAMED_FILTERS[type]];
    return fail(`unknown filter type: ${typeof type === "string" ? type : kindOf(type ?? null)}`);
  }
  return fail(`expected string, regex or object filter, got ${kindOf(f)}`);
}

type Redactor = (match: string) => string;

function hashRedactor(
  table: Record<string, string>,
  variant: VrlValue | undefined,
  encoding: VrlValue | undefined,
) {
  const alg = table[typeof variant === "string" ? variant : ""];
  if (!alg) {
    return fail(`unknown variant: ${String(variant)}; expected one of ${Object.keys(table).join(", ")}`);
  }
  if (encoding !== "base64" && encoding !== "base16") {
    return fail(`unknown encoding: ${String(encoding)}; expected base64 or base16`);
  }
  const enc = encoding === "base64" ? "base64" : "hex";
  return (m: string) => createHash(alg).update(m, "utf8").digest(enc);
}

/** Builds the redactor an argument describes (string shorthand or `{type, …}` object). */
function redactorOf(r: VrlValue | undefined): Redactor {
  if (r === undefined || r === null || r === "full") return () => "[REDACTED]";
  if (r === "sha2") return hashRedactor(SHA2, "SHA-512/256", "base64");
  if (r === "sha3") return hashRedactor(SHA3, "SHA3-512", "base64");
  if (!(r instanceof Map)) return fail(`unknown redactor: ${typeof r === "string" ? r : kindOf(r)}`);
  const type = r.get("type");
  switch (type) {
    case "full":
      return () => "[REDACTED]";
    case "text": {
      const text = r.get("replacement");
      if (typeof text !== "string") return fail("text redactor requires a string `replacement`");
      return () => text;
    }
    case "sha2":
      return hashRedactor(SHA2, r.get("variant") ?? "SHA-512/256", r.get("encoding") ?? "base64");
    case "sha3":
      return hashRedactor(SHA3, r.get("variant") ?? "SHA3-512", r.get("encoding") ?? "base64");
  }
  return fail(`unknown redactor type: ${typeof type === "string" ? type : kindOf(type ?? null)}`);
}

function redact(v: VrlValue, filters: VrlValue[], redactor: VrlValue | undefined): VrlValue {
  const res = filters.flatMap(filterRegexes);
  const replace = redactorOf(redactor);
  const walk = (x: VrlValue): VrlValue => {
    if (typeof x === "string") return res.reduce((s, re) => s.replace(re, (m) => replace(m)), x);
    if (x instanceof Map) return new Map([...x].map(([k, y]) => [k, walk(y)]));
    if (Array.isArray(x)) return x.map(walk);
    return x;
  };
  return walk(v);
}

/** Compile-time validation of literal filters and redactor (VRL rejects bad ones before running). */
function checkArgs(a: (ArgInfo | undefined)[]): string | undefined {
  try {
    const filters = a[1]?.constant?.value;
    if (Array.isArray(filters)) filters.forEach(filterRegexes);
    if (a[2]?.constant) redactorOf(a[2].constant.value);
  } catch (e) {
    return (e as Error).message;
  }
}

/** The redaction function by name. */
export const REDACT_FNS: Record<string, FnDef> = {
  redact: {
    params: [
      req("value", K.BYTES | K.OBJECT | K.ARRAY),
      req("filters", K.ARRAY),
      opt("redactor", K.BYTES | K.OBJECT),
    ],
    returns: (a) => ({ kind: a[0] ? a[0].type.kind & (K.BYTES | K.OBJECT | K.ARRAY) : K.BYTES }),
    check: checkArgs,
    fallibleFor: (a) => !a[1]?.constant || (a[2] !== undefined && !a[2].constant),
    call: ([v, filters, redactor]) => redact(v!, filters as VrlValue[], redactor),
  },
};
