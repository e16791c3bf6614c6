/** `dissect`: splits a string by a `%{name}` pattern (reference §4.6), compiled to parts at upload. */
import { execError } from "../errors.ts";
import { keyString } from "../yaml_doc.ts";
import { expectString, fieldProcessor, type ProcessorCompiler } from "./common.ts";

type Modifier = "append" | "skip" | "mapKey" | "mapVal";
type Part =
  | { split: string }
  | { name: string; mod?: Modifier; order: number; pad: boolean };

/** A compiled dissect pattern: its parts plus flat arrays the matcher walks without allocation. */
export interface DissectPattern {
  parts: Part[];
  separator: string;
  /** Per part: the split text, or null for a name. */
  splits: (string | null)[];
  /** Per name part: the first character of the following split, or "" when it is the last part. */
  stops: string[];
  pads: boolean[];
  /** Positions and names of normal (emitted) captures, in pattern order. */
  emitAt: number[];
  emitNames: string[];
  hasAppend: boolean;
  scratch: string[];
}

const MOD_CHARS: Record<string, Modifier> = { "+": "append", "?": "skip", "*": "mapKey", "&": "mapVal" };

type Bad = (message: string) => Error;

/** Reads `%{…}` starting after its `%{` at `i`; returns the name part and the index past its `}`. */
function readKey(chars: string[], i: number, bad: Bad): { part: Part; next: number } {
  let name = "";
  let mod: Modifier | undefined;
  let modChar = "";
  let order: number | undefined;
  let pad = false;
  while (i < chars.length) {
    const ch = chars[i];
    if (ch === "}") {
      if (mod && name === "") throw bad(`only '${modChar}' modifier is invalid`);
      return { part: { name, mod, order: order ?? 0, pad }, next: i + 1 };
    }
    if (MOD_CHARS[ch]) {
      if (mod) throw bad(`Invalid '${ch}'`);
      mod = MOD_CHARS[ch];
      modChar = ch;
      i++;
    } else if (ch === "/") {
      if (name === "") throw bad("Invalid '/'");
      if (mod !== "append") throw bad(`Invalid '/' in '${name}'`);
      i++;
      let digits = "";
      while (i < chars.length && /[0-9]/.test(chars[i])) digits += chars[i++];
      if (digits === "") throw bad("Digit order must be set after '/'");
      const n = Number(digits);
      if (order !== undefined) {
        throw new Error(`Append Order modifier is already set to '${order}', cannot be set to ${n}`);
      }
      order = n;
      modChar += "/" + digits;
    } else if (ch === "-") {
      if (chars[i + 1] !== ">") throw bad("Expected '->' but only '-'");
      if (chars[i + 2] !== "}") throw bad("Expected '}' after '->'");
      pad = true;
      i += 2;
    } else if (/[\p{L}\p{N}_]/u.test(ch)) {
      name += ch;
      i++;
    } else throw bad(`Invalid char '${ch}'`);
  }
  throw bad("'ident' is not closed");
}

/** A pattern as its parts: literal splits and `%{…}` keys, in order. */
function parseParts(p: string, bad: Bad): Part[] {
  const parts: Part[] = [];
  let split = "";
  const chars = [...p];
  let i = 0;
  while (i < chars.length) {
    if (chars[i] === "%" && chars[i + 1] === "{") {
      if (split) parts.push({ split });
      split = "";
      const { part, next } = readKey(chars, i + 2, bad);
      const prev = parts[parts.length - 1];
      const name = (part as { name: string }).name;
      if (prev && "name" in prev) throw bad(`consecutive names are not allowed: '${prev.name}' '${name}'`);
      parts.push(part);
      i = next;
      continue;
    }
    split += chars[i++];
  }
  if (split) parts.push({ split });
  return parts;
}

/** Reference keys (`%{*k}`) and values (`%{&k}`) must pair up one to one. */
function checkReferences(parts: Part[], bad: Bad): void {
  const named = (mod: Modifier) =>
    parts.filter((x) => "name" in x && x.mod === mod).map((x) => (x as { name: string }).name);
  const keys = named("mapKey"), vals = named("mapVal");
  const seen = new Set<string>();
  for (const k of keys) {
    if (seen.has(k)) throw bad(`Duplicate map key: '${k}'`);
    seen.add(k);
  }
  const unmatched = [...keys.filter((k) => !vals.includes(k)), ...vals.filter((v) => !keys.includes(v))];
  if (unmatched.length) throw bad(`key and value not matched: '${unmatched.join(",")}'`);
}

/** Compiles one pattern; throws Error(message) with GreptimeDB's texts. */
function compileDissect(p: string, separator = " "): DissectPattern {
  if (p === "") throw new Error("Empty pattern is not allowed");
  const bad: Bad = (m) => new Error(`Invalid Pattern: '${p}'. ${m}`);
  const parts = parseParts(p, bad);
  checkReferences(parts, bad);
  const splits = parts.map((x) => ("split" in x ? x.split : null));
  const stops = parts.map((
    x,
    i,
  ) => ("split" in x ? "" : (parts[i + 1] as { split: string } | undefined)?.split[0] ?? ""));
  const pads = parts.map((x) => ("split" in x ? false : x.pad));
  const emitAt: number[] = [];
  const emitNames: string[] = [];
  parts.forEach((x, i) => {
    if ("split" in x || x.mod !== undefined) return;
    // An anonymous `%{}` is skipped unless it is the last part (quirk 18).
    if (x.name !== "" || i === parts.length - 1) {
      emitAt.push(i);
      emitNames.push(x.name);
    }
  });
  const hasAppend = parts.some((x) => "name" in x && x.mod === "append");
  return {
    parts,
    separator,
    splits,
    stops,
    pads,
    emitAt,
    emitNames,
    hasAppend,
    scratch: new Array(parts.length),
  };
}

/** Matches `s`; writes captures into `out` and returns true, or returns false on mismatch. */
function matchDissect(pat: DissectPattern, s: string, out: Record<string, unknown>): boolean {
  const { splits, stops, pads, scratch: caps } = pat;
  const n = splits.length;
  const len = s.length;
  let cur = 0;
  // Captures go to a scratch array first so a failed match writes nothing.
  for (let i = 0; i < n; i++) {
    const sp = splits[i];
    if (sp !== null) {
      if (sp.length === 1 ? s.charCodeAt(cur) !== sp.charCodeAt(0) : !s.startsWith(sp, cur)) return false;
      cur += sp.length;
      continue;
    }
    const ch = stops[i];
    if (ch === "") {
      caps[i] = cur === 0 ? s : s.slice(cur);
      cur = len;
      continue;
    }
    const idx = s.indexOf(ch, cur);
    if (idx < 0) {
      if (pads[i]) return false;
      caps[i] = s.slice(cur);
      cur = len;
    } else {
      caps[i] = s.slice(cur, idx);
      cur = idx;
      if (pads[i]) { while (s[cur] === ch && s[cur + 1] === ch) cur++; }
    }
  }
  const at = pat.emitAt;
  const names = pat.emitNames;
  for (let k = 0; k < at.length; k++) out[names[k]] = caps[at[k]];
  if (pat.hasAppend) {
    const parts = pat.parts;
    const byName = new Map<string, { order: number; value: string }[]>();
    for (let i = 0; i < n; i++) {
      const part = parts[i];
      if ("split" in part || part.mod !== "append") continue;
      const list = byName.get(part.name);
      const item = { order: part.order, value: caps[i] };
      if (list) list.push(item);
      else byName.set(part.name, [item]);
    }
    for (const [name, list] of byName) {
      list.sort((a, b) => a.order - b.order);
      out[name] = list.map((x) => x.value).join(pat.separator);
    }
  }
  return true;
}

/** Compiles a `dissect` processor. */
export const compileDissectProcessor: ProcessorCompiler = (o) => {
  let sources: string[] = [];
  let key = "pattern";
  for (const p of o.node.pairs) {
    const k = keyString(p);
    if (k === "pattern") {
      sources = o.string("pattern") !== undefined ? [p.value.t === "str" ? p.value.v : ""] : [];
      key = k;
    } else if (k === "patterns") {
      sources = o.stringList("patterns") ?? [];
      key = k;
    }
  }
  if (sources.length === 0) o.fail("Pattern is required", key);
  const sep = o.string("append_separator") ?? " ";
  const patterns = sources.map((src) => {
    try {
      return compileDissect(src, sep);
    } catch (e) {
      return o.fail((e as Error).message, key);
    }
  });
  return fieldProcessor("dissect", o.fields(), o.ignoreMissing(), (v, _f, entry) => {
    const s = expectString("dissect", v);
    for (const pat of patterns) if (matchDissect(pat, s, entry)) return;
    throw execError("No matching pattern found");
  });
};
