/**
 * `match_datadog_query`: Datadog's log search syntax (as Vector implements it) evaluated against an object.
 * Bare words and phrases match whole words of `message`; `@a.b:v` reads attributes; `host`, `source`,
 * `status`, `service`, `trace_id`, `message` and `timestamp` are top-level fields; any other `key:v` looks
 * in the `tags` (and `ddtags`) arrays for `key:v` entries.
 */

import { K } from "../types.ts";
import { type VrlObject, VrlTimestamp, type VrlValue } from "../value.ts";
import { fail, type FnDef, req } from "./def.ts";

const RESERVED = new Set(["host", "source", "status", "service", "trace_id", "message", "timestamp"]);

/** Where a term looks. */
type Field =
  | { kind: "default" }
  | { kind: "reserved"; name: string }
  | { kind: "attribute"; path: string[] }
  | { kind: "tag"; name: string };

/** What a term asks of the field's values. */
type Test =
  | { op: "exists" }
  | { op: "missing" }
  | { op: "equals"; value: string; phrase: boolean }
  | { op: "wildcard"; re: RegExp; pattern: string }
  | { op: "compare"; cmp: "<" | "<=" | ">" | ">="; value: string }
  | { op: "range"; lo: string | null; hi: string | null; loIncl: boolean; hiIncl: boolean };

/** A parsed query. */
export type Query =
  | { t: "and" | "or"; items: Query[] }
  | { t: "not"; item: Query }
  | { t: "term"; field: Field; test: Test }
  | { t: "all" };

function fieldOf(name: string): Field {
  if (name.startsWith("@")) return { kind: "attribute", path: name.slice(1).split(".") };
  if (RESERVED.has(name)) return { kind: "reserved", name };
  return { kind: "tag", name };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function wildcardSource(pattern: string): string {
  return pattern.split(/([*?])/).map((p) => p === "*" ? ".*" : p === "?" ? "." : escapeRe(p)).join("");
}

/** A recursive-descent parser over the query text (Lucene-like: implicit AND, `-`/`NOT`, groups, ranges). */
class Parser {
  pos = 0;
  constructor(readonly src: string) {}

  parse(): Query {
    this.ws();
    if (this.pos >= this.src.length) return { t: "all" };
    const q = this.or(null);
    this.ws();
    if (this.pos < this.src.length) this.error();
    return q;
  }
  error(): never {
    return fail(`invalid Datadog search query at position ${this.pos}: ${this.src}`);
  }
  ws(): void {
    while (/\s/.test(this.src[this.pos] ?? "")) this.pos++;
  }
  keyword(word: string): boolean {
    this.ws();
    const end = this.pos + word.length;
    if (this.src.startsWith(word, this.pos) && /[\s()]|^$/.test(this.src[end] ?? "")) {
      this.pos = end;
      return true;
    }
    return false;
  }
  atGroupEnd(): boolean {
    this.ws();
    return this.pos >= this.src.length || this.src[this.pos] === ")";
  }
  or(field: string | null): Query {
    const items = [this.and(field)];
    while (this.keyword("OR") || this.keyword("||")) items.push(this.and(field));
    return items.length === 1 ? items[0] : { t: "or", items };
  }
  and(field: string | null): Query {
    const items = [this.unary(field)];
    for (;;) {
      if (this.keyword("AND") || this.keyword("&&")) {
        items.push(this.unary(field));
        continue;
      }
      const save = this.pos;
      if (this.atGroupEnd() || this.keyword("OR") || this.keyword("||")) {
        this.pos = save;
        break;
      }
      items.push(this.unary(field));
    }
    return items.length === 1 ? items[0] : { t: "and", items };
  }
  unary(field: string | null): Query {
    this.ws();
    if (this.keyword("NOT")) return { t: "not", item: this.unary(field) };
    if (this.src[this.pos] === "-" || this.src[this.pos] === "!") {
      this.pos++;
      return { t: "not", item: this.unary(field) };
    }
    if (this.src[this.pos] === "(") {
      this.pos++;
      const q = this.or(field);
      this.ws();
      if (this.src[this.pos++] !== ")") this.error();
      return q;
    }
    return this.term(field);
  }
  /** A bare word (backslash escapes kept as literal characters); `stopAtColon` splits `field:value`. */
  word(stopAtColon: boolean): { text: string; wild: boolean } {
    let text = "", wild = false;
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (/[\s()[\]{}"]/.test(c) || (stopAtColon && c === ":")) break;
      if (c === "\\" && this.pos + 1 < this.src.length) {
        text += this.src[this.pos + 1] === "*" || this.src[this.pos + 1] === "?"
          ? "\\" + this.src[this.pos + 1]
          : this.src[this.pos + 1];
        this.pos += 2;
        continue;
      }
      if (c === "*" || c === "?") wild = true;
      text += c;
      this.pos++;
    }
    return { text, wild };
  }
  quoted(): string {
    const end = this.src.indexOf('"', this.pos + 1);
    if (end < 0) this.error();
    const s = this.src.slice(this.pos + 1, end);
    this.pos = end + 1;
    return s;
  }
  term(field: string | null): Query {
    this.ws();
    if (field === null && this.src[this.pos] !== '"') {
      const save = this.pos;
      const name = this.word(true).text;
      if (name !== "" && this.src[this.pos] === ":") {
        this.pos++;
        if (this.src[this.pos] === "(") {
          this.pos++;
          const q = this.or(name);
          this.ws();
          if (this.src[this.pos++] !== ")") this.error();
          return q;
        }
        return this.value(name);
      }
      this.pos = save;
    }
    return this.value(field);
  }
  value(name: string | null): Query {
    const field: Field = name === null ? { kind: "default" } : fieldOf(name);
    const c = this.src[this.pos];
    if (c === '"') return { t: "term", field, test: { op: "equals", value: this.quoted(), phrase: true } };
    if (c === "[" || c === "{") return { t: "term", field, test: this.range() };
    const cmp = /^(>=|<=|>|<)/.exec(this.src.slice(this.pos))?.[1] as "<" | "<=" | ">" | ">=" | undefined;
    if (cmp) {
      this.pos += cmp.length;
      const v = this.src[this.pos] === '"' ? this.quoted() : this.word(false).text;
      return { t: "term", field, test: { op: "compare", cmp, value: v } };
    }
    const { text, wild } = this.word(false);
    if (text === "") this.error();
    if (name === "_exists_" || name === "_missing_") {
      return { t: "term", field: fieldOf(text), test: { op: name === "_exists_" ? "exists" : "missing" } };
    }
    if (text === "*") return { t: "term", field, test: { op: "exists" } };
    if (!wild) {
      return {
        t: "term",
        field,
        test: { op: "equals", value: text.replace(/\\([*?])/g, "$1"), phrase: false },
      };
    }
    const source = text.split(/(\\[*?])/).map((p) => p.startsWith("\\") ? escapeRe(p[1]) : wildcardSource(p))
      .join("");
    return {
      t: "term",
      field,
      test: { op: "wildcard", re: new RegExp(`^${source}$`, "s"), pattern: source },
    };
  }
  range(): Test {
    const loIncl = this.src[this.pos++] === "[";
    this.ws();
    const bound = () => (this.src[this.pos] === '"' ? this.quoted() : this.word(false).text);
    const lo = bound();
    if (!this.keyword("TO")) this.error();
    this.ws();
    const hi = bound();
    this.ws();
    const close = this.src[this.pos++];
    if (close !== "]" && close !== "}") this.error();
    return {
      op: "range",
      lo: lo === "*" ? null : lo,
      hi: hi === "*" ? null : hi,
      loIncl,
      hiIncl: close === "]",
    };
  }
}

/** Parses a Datadog search query (fails on syntax errors). */
export function parseDatadogQuery(src: string): Query {
  return new Parser(src).parse();
}

function textOf(v: VrlValue): string | null {
  if (typeof v === "string") return v;
  if (typeof v === "bigint" || typeof v === "number" || typeof v === "boolean") return String(v);
  if (v instanceof VrlTimestamp) return new Date(v.ms).toISOString();
  return null;
}

/**
 * Orders a value against a query bound as Vector does: numbers numerically (a non-numeric bound never
 * matches them), strings lexically (`"10" < "9"`), anything else not at all.
 */
function compare(v: VrlValue, q: string): number | null {
  if (typeof v === "bigint" || typeof v === "number") {
    const n = Number(q);
    if (q.trim() === "" || Number.isNaN(n)) return null;
    return Number(v) < n ? -1 : Number(v) > n ? 1 : 0;
  }
  if (typeof v !== "string") return null;
  return v < q ? -1 : v > q ? 1 : 0;
}

function testValue(v: VrlValue, test: Test, word: boolean): boolean {
  if (Array.isArray(v)) return v.some((x) => testValue(x, test, word));
  switch (test.op) {
    case "exists":
      return true;
    case "missing":
      return false;
    case "equals": {
      if (word) {
        const s = textOf(v);
        return s !== null && new RegExp(`(^|\\W)${escapeRe(test.value)}($|\\W)`).test(s);
      }
      if (typeof v === "bigint" || typeof v === "number") return compare(v, test.value) === 0;
      return textOf(v) === test.value;
    }
    case "wildcard": {
      const s = textOf(v);
      if (s === null) return false;
      return word ? new RegExp(`(^|\\W)${test.pattern}($|\\W)`, "s").test(s) : test.re.test(s);
    }
    case "compare": {
      const c = compare(v, test.value);
      if (c === null) return false;
      return test.cmp === "<" ? c < 0 : test.cmp === "<=" ? c <= 0 : test.cmp === ">" ? c > 0 : c >= 0;
    }
    case "range": {
      if (test.lo !== null) {
        const c = compare(v, test.lo);
        if (c === null || c < 0 || (c === 0 && !test.loIncl)) return false;
      }
      if (test.hi !== null) {
        const c = compare(v, test.hi);
        if (c === null || c > 0 || (c === 0 && !test.hiIncl)) return false;
      }
      return true;
    }
  }
}

function lookup(obj: VrlObject, path: string[]): VrlValue | undefined {
  let cur: VrlValue | undefined = obj;
  for (const seg of path) {
    if (!(cur instanceof Map)) return undefined;
    cur = cur.get(seg);
  }
  return cur;
}

/** The values of `tags` entries `name:value` (a bare `name` entry yields no value but counts as present). */
function tagValues(obj: VrlObject, name: string): { present: boolean; values: string[] } {
  // Vector reads Datadog's `ddtags` as well as `tags`.
  const list = ["ddtags", "tags"].flatMap((k) => {
    const tags = obj.get(k);
    return Array.isArray(tags) ? tags : [];
  });
  let present = false;
  const values: string[] = [];
  for (const t of list) {
    if (typeof t !== "string") continue;
    if (t === name) present = true;
    else if (t.startsWith(name + ":")) {
      present = true;
      values.push(t.slice(name.length + 1));
    }
  }
  return { present, values };
}

function matchTerm(obj: VrlObject, field: Field, test: Test): boolean {
  if (field.kind === "tag") {
    const { present, values } = tagValues(obj, field.name);
    if (test.op === "exists") return present;
    if (test.op === "missing") return !present;
    return values.some((v) => testValue(v, test, false));
  }
  const v = field.kind === "default"
    ? obj.get("message")
    : lookup(obj, field.kind === "reserved" ? [field.name] : field.path);
  const present = v !== undefined && v !== null;
  if (test.op === "exists") return present;
  if (test.op === "missing") return !present;
  return present && testValue(v, test, field.kind === "default");
}

/** Evaluates a parsed query against an object. */
export function matchQuery(obj: VrlObject, q: Query): boolean {
  switch (q.t) {
    case "all":
      return true;
    case "and":
      return q.items.every((i) => matchQuery(obj, i));
    case "or":
      return q.items.some((i) => matchQuery(obj, i));
    case "not":
      return !matchQuery(obj, q.item);
    case "term":
      return matchTerm(obj, q.field, q.test);
  }
}

const cache = new Map<string, Query>();

/** The Datadog query function by name. */
export const DATADOG_FNS: Record<string, FnDef> = {
  match_datadog_query: {
    params: [req("value", K.OBJECT), req("query", K.BYTES)],
    returns: K.BOOLEAN,
    check: (a) => {
      const q = a[1]?.constant?.value;
      if (typeof q !== "string") return undefined;
      try {
        cache.set(q, parseDatadogQuery(q));
      } catch (e) {
        return (e as Error).message;
      }
    },
    fallibleFor: (a) => typeof a[1]?.constant?.value !== "string",
    call: ([v, q]) => {
      let parsed = cache.get(q as string);
      if (!parsed) {
        parsed = parseDatadogQuery(q as string);
        if (cache.size < 1000) cache.set(q as string, parsed);
      }
      return matchQuery(v as VrlObject, parsed);
    },
  },
};
