/**
 * A Goessner-style JSONPath evaluator covering what jsonpath-rust 0.7 accepts (reference §4.12):
 * `$`, `.key`, `['key']`, `[n]`, `[*]`, `.*`, `..key`, `..*`, slices, unions, filters with
 * `== != < <= > >= ~= in nin size noneOf anyOf subsetOf`, `! && ||`, and `.length()`.
 */

import { compileRustRegex } from "./rust_regex.ts";
import { formatJsonText } from "../src/common/json_text.ts";

type Selector =
  | { k: "key"; names: string[] }
  | { k: "wild" }
  | { k: "index"; idx: number[] }
  | { k: "slice"; start?: number; end?: number; step?: number }
  | { k: "filter"; f: Expr }
  | { k: "length" };
type Step = { desc: boolean; sel: Selector };
type Operand = { k: "path"; root: "@" | "$"; steps: Step[] } | { k: "lit"; v: unknown };
type Expr =
  | { k: "or" | "and"; a: Expr; b: Expr }
  | { k: "not"; e: Expr }
  | { k: "exists"; o: Operand }
  | { k: "cmp"; op: string; a: Operand; b: Operand };

/** A compiled JSONPath query. */
export interface JsonPath {
  steps: Step[];
}

const OPS = ["==", "!=", "<=", ">=", "<", ">", "~=", "nin", "in", "size", "noneOf", "anyOf", "subsetOf"];

/** Parses a JSONPath; throws Error on syntax errors. */
export function parseJsonPath(src: string): JsonPath {
  const p = new Parser(src.trim());
  p.expect("$");
  const steps = p.steps();
  if (!p.done()) throw new Error(`unexpected input at ${p.pos}`);
  return { steps };
}

class Parser {
  pos = 0;
  constructor(readonly s: string) {}
  done(): boolean {
    return this.pos >= this.s.length;
  }
  peek(n = 0): string {
    return this.s[this.pos + n] ?? "";
  }
  ws(): void {
    while (this.peek() === " ") this.pos++;
  }
  eat(t: string): boolean {
    if (this.s.startsWith(t, this.pos)) {
      this.pos += t.length;
      return true;
    }
    return false;
  }
  expect(t: string): void {
    if (!this.eat(t)) throw new Error(`expected '${t}' at ${this.pos}`);
  }
  steps(): Step[] {
    const out: Step[] = [];
    for (;;) {
      if (this.eat("..")) {
        if (this.peek() === "[") out.push({ desc: true, sel: this.bracket() });
        else if (this.eat("*")) out.push({ desc: true, sel: { k: "wild" } });
        else out.push({ desc: true, sel: { k: "key", names: [this.dotKey()] } });
      } else if (this.peek() === "." && this.peek(1) === "[") {
        this.pos++;
        out.push({ desc: false, sel: this.bracket() });
      } else if (this.eat(".length()")) {
        out.push({ desc: false, sel: { k: "length" } });
      } else if (this.eat(".")) {
        if (this.eat("*")) out.push({ desc: false, sel: { k: "wild" } });
        else out.push({ desc: false, sel: { k: "key", names: [this.dotKey()] } });
      } else if (this.peek() === "[") {
        out.push({ desc: false, sel: this.bracket() });
      } else return out;
    }
  }
  dotKey(): string {
    const m = /^[A-Za-z0-9_\-/\\#]+/.exec(this.s.slice(this.pos));
    if (!m) throw new Error(`expected a key at ${this.pos}`);
    this.pos += m[0].length;
    return m[0];
  }
  str(): string {
    const q = this.peek();
    this.pos++;
    let out = "";
    while (!this.done() && this.peek() !== q) {
      if (this.peek() === "\\") this.pos++;
      out += this.peek();
      this.pos++;
    }
    this.expect(q);
    return out;
  }
  int(): number | undefined {
    const m = /^-?[0-9]+/.exec(this.s.slice(this.pos));
    if (!m) return undefined;
    this.pos += m[0].length;
    return Number(m[0]);
  }
  bracket(): Selector {
    this.expect("[");
    this.ws();
    let sel: Selector;
    if (this.eat("*")) sel = { k: "wild" };
    else if (this.eat("?")) {
      this.ws();
      this.expect("(");
      const f = this.or();
      this.ws();
      this.expect(")");
      sel = { k: "filter", f };
    } else if (this.peek() === "'" || this.peek() === '"') {
      const names = [this.str()];
      this.ws();
      while (this.eat(",")) {
        this.ws();
        names.push(this.str());
        this.ws();
      }
      sel = { k: "key", names };
    } else {
      const a = this.int();
      this.ws();
      if (this.peek() === ":") {
        this.pos++;
        const b = this.int();
        let c: number | undefined;
        if (this.eat(":")) c = this.int();
        sel = { k: "slice", start: a, end: b, step: c };
      } else {
        if (a === undefined) throw new Error(`bad selector at ${this.pos}`);
        const idx = [a];
        while (this.eat(",")) {
          this.ws();
          const n = this.int();
          if (n === undefined) throw new Error(`bad index at ${this.pos}`);
          idx.push(n);
          this.ws();
        }
        sel = { k: "index", idx };
      }
    }
    this.ws();
    this.expect("]");
    return sel;
  }
  or(): Expr {
    let a = this.and();
    for (;;) {
      this.ws();
      if (!this.eat("||")) return a;
      a = { k: "or", a, b: this.and() };
    }
  }
  and(): Expr {
    let a = this.unary();
    for (;;) {
      this.ws();
      if (!this.eat("&&")) return a;
      a = { k: "and", a, b: this.unary() };
    }
  }
  unary(): Expr {
    this.ws();
    if (this.eat("!")) return { k: "not", e: this.unary() };
    if (this.peek() === "(") {
      this.pos++;
      const e = this.or();
      this.ws();
      this.expect(")");
      return e;
    }
    const a = this.operand();
    this.ws();
    for (const op of OPS) {
      if (this.s.startsWith(op, this.pos)) {
        this.pos += op.length;
        this.ws();
        return { k: "cmp", op, a, b: this.operand() };
      }
    }
    return { k: "exists", o: a };
  }
  operand(): Operand {
    this.ws();
    const c = this.peek();
    if (c === "@" || c === "$") {
      this.pos++;
      return { k: "path", root: c, steps: this.steps() };
    }
    if (c === "'" || c === '"') return { k: "lit", v: this.str() };
    if (c === "[") {
      this.pos++;
      const items: unknown[] = [];
      this.ws();
      while (!this.eat("]")) {
        const o = this.operand();
        if (o.k !== "lit") throw new Error("only literals are allowed in a list");
        items.push(o.v);
        this.ws();
        this.eat(",");
        this.ws();
      }
      return { k: "lit", v: items };
    }
    const m = /^(?:-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null)/.exec(this.s.slice(this.pos));
    if (!m) throw new Error(`bad operand at ${this.pos}`);
    this.pos += m[0].length;
    return { k: "lit", v: JSON.parse(m[0]) };
  }
}

// jsonpath-rust's `NoValue`: a key or index that addressed nothing (distinct from "no matches").
const NO_VALUE = Symbol("no value");

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isObj(v)) return Object.values(v);
  return [];
}

function descendants(v: unknown, out: unknown[]): void {
  out.push(v);
  for (const c of children(v)) descendants(c, out);
}

function apply(sel: Selector, v: unknown, root: unknown, out: unknown[]): void {
  switch (sel.k) {
    case "key":
      for (const n of sel.names) out.push(isObj(v) && Object.hasOwn(v, n) ? v[n] : NO_VALUE);
      return;
    case "wild":
      out.push(...children(v));
      return;
    case "index":
      for (const i of sel.idx) {
        const j = Array.isArray(v) ? (i < 0 ? v.length + i : i) : -1;
        out.push(Array.isArray(v) && j >= 0 && j < v.length ? v[j] : NO_VALUE);
      }
      return;
    case "slice": {
      if (!Array.isArray(v)) return;
      const n = v.length;
      const step = sel.step ?? 1;
      if (step === 0) return;
      const norm = (x: number | undefined, d: number) =>
        x === undefined ? d : x < 0 ? Math.max(n + x, 0) : Math.min(x, n);
      if (step > 0) {
        for (let i = norm(sel.start, 0); i < norm(sel.end, n); i += step) out.push(v[i]);
      } else {
        const start = sel.start === undefined ? n - 1 : Math.min(norm(sel.start, n - 1), n - 1);
        const end = sel.end === undefined ? -1 : norm(sel.end, -1);
        for (let i = start; i > end; i += step) out.push(v[i]);
      }
      return;
    }
    case "filter":
      for (const c of children(v)) if (test(sel.f, c, root)) out.push(c);
      return;
    case "length":
      if (Array.isArray(v)) out.push(v.length);
      return;
  }
}

function evalSteps(steps: Step[], start: unknown, root: unknown): unknown[] {
  let cur: unknown[] = [start];
  for (const st of steps) {
    const next: unknown[] = [];
    for (const v of cur) {
      if (v === NO_VALUE) {
        next.push(NO_VALUE);
        continue;
      }
      if (st.desc) {
        const all: unknown[] = [];
        descendants(v, all);
        // Descent only collects what exists.
        const found: unknown[] = [];
        for (const d of all) apply(st.sel, d, root, found);
        for (const f of found) if (f !== NO_VALUE) next.push(f);
      } else apply(st.sel, v, root, next);
    }
    cur = next;
  }
  return cur;
}

function operandValues(o: Operand, cur: unknown, root: unknown): unknown[] {
  if (o.k === "lit") return [o.v];
  return evalSteps(o.steps, o.root === "@" ? cur : root, root).filter((v) => v !== NO_VALUE);
}

function jsonEq(a: unknown, b: unknown): boolean {
  // documents keep integers past 2^53 as bigints, which JSON.stringify throws on
  return formatJsonText(a) === formatJsonText(b);
}

function cmp(op: string, a: unknown, b: unknown): boolean {
  switch (op) {
    case "==":
      return jsonEq(a, b);
    case "!=":
      return !jsonEq(a, b);
    case "<":
    case "<=":
    case ">":
    case ">=": {
      if (
        !((typeof a === "number" && typeof b === "number") ||
          (typeof a === "string" && typeof b === "string"))
      ) {
        return false;
      }
      return op === "<" ? a < b : op === "<=" ? a <= b : op === ">" ? a > b : a >= b;
    }
    case "~=":
      try {
        return typeof a === "string" && typeof b === "string" && (rustRegex(b)?.test(a) ?? false);
      } catch {
        return false;
      }
    case "in":
      return Array.isArray(b) && b.some((x) => jsonEq(x, a));
    case "nin":
      return Array.isArray(b) && !b.some((x) => jsonEq(x, a));
    case "size":
      return typeof b === "number" &&
        ((Array.isArray(a) && a.length === b) || (typeof a === "string" && a.length === b) ||
          (isObj(a) && Object.keys(a).length === b));
    case "noneOf":
      return Array.isArray(a) && Array.isArray(b) && !a.some((x) => b.some((y) => jsonEq(x, y)));
    case "anyOf":
      return Array.isArray(a) && Array.isArray(b) && a.some((x) => b.some((y) => jsonEq(x, y)));
    case "subsetOf":
      return Array.isArray(a) && Array.isArray(b) && a.every((x) => b.some((y) => jsonEq(x, y)));
  }
  return false;
}

function test(e: Expr, cur: unknown, root: unknown): boolean {
  switch (e.k) {
    case "or":
      return test(e.a, cur, root) || test(e.b, cur, root);
    case "and":
      return test(e.a, cur, root) && test(e.b, cur, root);
    case "not":
      return !test(e.e, cur, root);
    case "exists":
      return operandValues(e.o, cur, root).length > 0;
    case "cmp": {
      const a = operandValues(e.a, cur, root);
      const b = operandValues(e.b, cur, root);
      if (a.length === 0 || b.length === 0) return e.op === "!=" && a.length !== b.length;
      return cmp(e.op, a.length === 1 ? a[0] : a, b.length === 1 ? b[0] : b);
    }
  }
}

/**
 * Evaluates `path` against `value`: the list of matches, or null when the path addressed nothing
 * at all (every result is a missing key/index), as jsonpath-rust's `find` returns.
 */
export function queryJsonPath(path: JsonPath, value: unknown): unknown[] | null {
  const res = evalSteps(path.steps, value, value);
  const found = res.filter((v) => v !== NO_VALUE);
  return res.length > 0 && found.length === 0 ? null : found;
}

/**
 * The filter's `~=` pattern as jsonpath-rust reads it: Rust regex syntax, matched in linear time where
 * V8 could backtrack (`compileRustRegex`, cached); null when Rust refuses it (the comparison is false).
 */
function rustRegex(pattern: string): RegExp | null {
  try {
    return compileRustRegex(pattern);
  } catch {
    return null;
  }
}
