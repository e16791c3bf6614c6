/**
 * The SQL/JSON path predicates `json_path_match` evaluates, a subset of what GreptimeDB's jsonb
 * crate reads: paths of `$`, `.key`, `."key"`, `[n]`, `[*]` and `.*`; comparisons (`==`, `!=`, `<>`,
 * `<`, `<=`, `>`, `>=`) between a path and a literal (number, "string", true, false, null); `&&`,
 * `||`, `!` and brackets. A comparison holds when any item the path selects satisfies it. Filters
 * (`?(…)`), arithmetic and methods are refused with a message saying so.
 */

type Step = { key: string } | { index: number } | { wild: true };
type Operand = { path: Step[] } | { value: unknown };
type Pred =
  | { op: "&&" | "||"; a: Pred; b: Pred }
  | { op: "!"; a: Pred }
  | { op: string; left: Operand; right: Operand }
  | { op: "path"; path: Step[] };

const TOKEN =
  /\s*(\$|@|\.\*|\.[A-Za-z_][\w]*|\."(?:[^"\\]|\\.)*"|\[\s*\*\s*\]|\[\s*-?\d+\s*\]|==|!=|<>|<=|>=|<|>|&&|\|\||!|\(|\)|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true\b|false\b|null\b|\S)/y;

function tokenize(text: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (TOKEN.lastIndex < text.length && (m = TOKEN.exec(text))) {
    if (m[1] !== undefined) out.push(m[1]);
  }
  return out;
}

class PathParser {
  private at = 0;
  constructor(private readonly toks: string[], private readonly source: string) {}

  parse(): Pred {
    const p = this.or();
    if (this.at < this.toks.length) this.refuse(`unexpected '${this.toks[this.at]}'`);
    return p;
  }

  private refuse(why: string): never {
    throw new Error(`json_path_match: unsupported JSON path predicate '${this.source}': ${why}`);
  }

  private or(): Pred {
    let a = this.and();
    while (this.toks[this.at] === "||") {
      this.at++;
      a = { op: "||", a, b: this.and() };
    }
    return a;
  }

  private and(): Pred {
    let a = this.unary();
    while (this.toks[this.at] === "&&") {
      this.at++;
      a = { op: "&&", a, b: this.unary() };
    }
    return a;
  }

  private unary(): Pred {
    const t = this.toks[this.at];
    if (t === "!") {
      this.at++;
      return { op: "!", a: this.unary() };
    }
    if (t === "(") {
      this.at++;
      const p = this.or();
      if (this.toks[this.at++] !== ")") this.refuse("missing ')'");
      return p;
    }
    const left = this.operand();
    const op = this.toks[this.at];
    if (["==", "!=", "<>", "<", "<=", ">", ">="].includes(op)) {
      this.at++;
      return { op: op === "<>" ? "!=" : op, left, right: this.operand() };
    }
    if ("path" in left) return { op: "path", path: left.path };
    return this.refuse(op === undefined ? "a predicate is expected" : `unexpected '${op}'`);
  }

  private operand(): Operand {
    const t = this.toks[this.at++];
    if (t === undefined) this.refuse("unexpected end");
    if (t === "$") {
      const path: Step[] = [];
      for (;;) {
        const s = this.toks[this.at];
        if (s === undefined) break;
        if (s === ".*" || /^\[\s*\*\s*\]$/.test(s)) path.push({ wild: true });
        else if (s.startsWith('."')) path.push({ key: JSON.parse(s.slice(1)) });
        else if (s.startsWith(".")) path.push({ key: s.slice(1) });
        else if (s.startsWith("[")) path.push({ index: Number(s.slice(1, -1)) });
        else break;
        this.at++;
      }
      if (this.toks[this.at] === "?" || this.toks[this.at] === "@") this.refuse("filters are not supported");
      return { path };
    }
    if (t === "@") this.refuse("filters are not supported");
    if (t.startsWith('"')) return { value: JSON.parse(t) };
    if (t === "true" || t === "false" || t === "null") return { value: JSON.parse(t) };
    if (/^-?\d/.test(t)) return { value: Number(t) };
    return this.refuse(`unexpected '${t}'`);
  }
}

function select(doc: unknown, path: Step[]): unknown[] {
  let items = [doc];
  for (const step of path) {
    const next: unknown[] = [];
    for (const v of items) {
      if (v === null || typeof v !== "object") continue;
      if ("wild" in step) next.push(...(Array.isArray(v) ? v : Object.values(v)));
      else if ("index" in step) {
        if (Array.isArray(v)) {
          const i = step.index < 0 ? v.length + step.index : step.index;
          if (i >= 0 && i < v.length) next.push(v[i]);
        }
      } else if (!Array.isArray(v) && Object.hasOwn(v, step.key)) {
        next.push((v as Record<string, unknown>)[step.key]);
      }
    }
    items = next;
  }
  return items;
}

function compare(op: string, a: unknown, b: unknown): boolean {
  const comparable = (typeof a === "number" && typeof b === "number") ||
    (typeof a === "string" && typeof b === "string");
  if (op === "==") return a === b;
  if (op === "!=") return a !== b && (comparable || typeof a === typeof b);
  if (!comparable) return false;
  const x = a as number | string, y = b as number | string;
  return op === "<" ? x < y : op === "<=" ? x <= y : op === ">" ? x > y : x >= y;
}

function evaluate(p: Pred, doc: unknown): boolean {
  if (p.op === "&&" && "b" in p) return evaluate(p.a, doc) && evaluate(p.b, doc);
  if (p.op === "||" && "b" in p) return evaluate(p.a, doc) || evaluate(p.b, doc);
  if (p.op === "!" && "a" in p) return !evaluate(p.a, doc);
  if (p.op === "path" && "path" in p) {
    const items = select(doc, p.path);
    if (items.length !== 1 || typeof items[0] !== "boolean") {
      throw new Error("json_path_match: the path must select a single boolean");
    }
    return items[0];
  }
  const { left, right } = p as { op: string; left: Operand; right: Operand };
  const side = (o: Operand) => ("path" in o ? select(doc, o.path) : [o.value]);
  const ls = side(left), rs = side(right);
  return ls.some((a) => rs.some((b) => compare(p.op, a, b)));
}

const parsed = new Map<string, Pred>();

/** Whether the JSON document satisfies the path predicate (`$.a == 1 && $.b[*] > 2`). */
export function jsonPathMatch(doc: unknown, predicate: string): boolean {
  let p = parsed.get(predicate);
  if (!p) {
    p = new PathParser(tokenize(predicate), predicate).parse();
    if (parsed.size > 256) parsed.clear();
    parsed.set(predicate, p);
  }
  return evaluate(p, doc);
}
