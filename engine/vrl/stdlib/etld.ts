/** `parse_etld`: the effective top-level domain of a host by the Public Suffix List (shipped in `data/`). */

import { domainToASCII } from "node:url";
import { K, objectOf } from "../types.ts";
import type { VrlObject, VrlValue } from "../value.ts";
import { fail, type FnDef, num, opt, req } from "./def.ts";
import { PUBLIC_SUFFIX_LIST } from "./data/public_suffix_list.ts";

/** A parsed suffix list: plain rules, wildcard parents (`*.ck` → `ck`) and exceptions (`!www.ck`). */
interface SuffixList {
  rules: Set<string>;
  wildcards: Set<string>;
  exceptions: Set<string>;
}

function toAscii(rule: string): string {
  const prefix = /^(!|\*\.)?/.exec(rule)![0];
  return prefix + (domainToASCII(rule.slice(prefix.length)) || rule.slice(prefix.length));
}

/** Parses list text in publicsuffix.org's format: one rule a line, `//` comments, first token only. */
export function parseSuffixList(text: string): SuffixList {
  const list: SuffixList = { rules: new Set(), wildcards: new Set(), exceptions: new Set() };
  for (const line of text.split("\n")) {
    const rule = line.trim().split(/\s/)[0].toLowerCase();
    if (rule === "" || rule.startsWith("//")) continue;
    // Internationalized rules also match their punycode (`xn--`) form.
    const forms = /^[\x20-\x7e]*$/.test(rule) ? [rule] : [rule, toAscii(rule)];
    for (const r of forms) {
      if (r.startsWith("!")) list.exceptions.add(r.slice(1));
      else if (r.startsWith("*.")) list.wildcards.add(r.slice(2));
      else list.rules.add(r);
    }
  }
  return list;
}

/** The number of trailing labels of `labels` that form the public suffix, and whether a rule matched. */
export function suffixLength(list: SuffixList, labels: string[]): { n: number; known: boolean } {
  let best = 0;
  for (let n = 1; n <= labels.length; n++) {
    const suffix = labels.slice(labels.length - n).join(".");
    if (list.exceptions.has(suffix)) return { n: n - 1, known: true };
    const parent = labels.slice(labels.length - n + 1).join(".");
    if (list.rules.has(suffix) || (n > 1 && list.wildcards.has(parent))) best = n;
  }
  // No rule: the implicit `*` rule makes the last label the suffix.
  return best === 0 ? { n: 1, known: false } : { n: best, known: true };
}

let defaultList: SuffixList | undefined;
const customLists = new Map<string, SuffixList>();

function listFor(path: VrlValue | undefined): SuffixList {
  if (typeof path !== "string") return defaultList ??= parseSuffixList(PUBLIC_SUFFIX_LIST);
  let list = customLists.get(path);
  if (!list) {
    let text: string;
    try {
      text = Deno.readTextFileSync(path);
    } catch (e) {
      return fail(`unable to read public suffix list ${path}: ${(e as Error).message}`);
    }
    list = parseSuffixList(text);
    customLists.set(path, list);
  }
  return list;
}

function parseEtld(value: string, plusParts: number, psl: VrlValue | undefined): VrlObject {
  const host = value.endsWith(".") ? value.slice(0, -1) : value;
  if (host === "" || host.split(".").some((l) => l === "")) {
    return fail(`unable to determine eTLD for ${value}`);
  }
  const labels = host.split(".");
  const { n, known } = suffixLength(listFor(psl), labels.map((l) => l.toLowerCase()));
  const plus = Math.min(labels.length, n + Math.max(0, plusParts));
  return new Map<string, VrlValue>([
    ["etld", labels.slice(labels.length - n).join(".")],
    ["etld_plus", labels.slice(labels.length - plus).join(".")],
    ["known_suffix", known],
  ]);
}

/** The eTLD function by name. */
export const ETLD_FNS: Record<string, FnDef> = {
  parse_etld: {
    params: [req("value", K.BYTES), opt("plus_parts", K.INTEGER), opt("psl", K.BYTES)],
    returns: objectOf({ etld: K.BYTES, etld_plus: K.BYTES, known_suffix: K.BOOLEAN }, true),
    fallible: true,
    fresh: true,
    check: (a) => {
      const p = a[2]?.constant?.value;
      if (typeof p !== "string") return undefined;
      try {
        listFor(p);
      } catch (e) {
        return (e as Error).message;
      }
    },
    call: ([v, plus, psl]) => parseEtld(v as string, num(plus, 0), psl),
  },
};
