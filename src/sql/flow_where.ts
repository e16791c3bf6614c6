/**
 * The WHERE of a `CREATE FLOW` query: tests of the source's columns against literals (`=`, `!=`,
 * `<>`, `<`, `<=`, `>`, `>=`, `[NOT] IN (…)`, `[NOT] BETWEEN … AND …`, `IS [NOT] NULL`,
 * `[NOT] LIKE '…'`, a bare Boolean column) combined with AND, OR, NOT and parentheses. Anything
 * else (functions, arithmetic, subqueries, another table's columns) is refused (1001, naming it)
 * rather than evaluated differently. Column names are resolved against the source later
 * (`downsample/flow_compile.ts`).
 */
import { unsupported } from "../common/errors.ts";
import type { FlowComparison, FlowLiteral, FlowPredicate } from "../downsample/flow_spec.ts";
import type { Cursor } from "./cursor.ts";
import { isKeyword, isOp, type Token } from "./lexer.ts";

/** How deep parentheses and NOTs may nest (a deeper predicate is refused, not a stack overflow). */
const MAX_DEPTH = 64;

const COMPARISONS: Record<string, FlowComparison> = {
  "=": "=",
  "==": "=",
  "!=": "!=",
  "<>": "!=",
  "<": "<",
  "<=": "<=",
  ">": ">",
  ">=": ">=",
};

/** `a < 5` read as `5 > a`. */
const FLIPPED: Record<FlowComparison, FlowComparison> = {
  "=": "=",
  "!=": "!=",
  "<": ">",
  "<=": ">=",
  ">": "<",
  ">=": "<=",
};

/** Words that start an expression the flow engine does not evaluate. */
const EXPRESSIONS = ["CASE", "CAST", "EXISTS", "SELECT", "INTERVAL", "ARRAY", "TRY_CAST", "EXTRACT"];

const refuse = (what: string) => unsupported(`Unsupported in CREATE FLOW: ${what}`);

type Operand = { kind: "column"; name: string } | { kind: "literal"; value: FlowLiteral | null };

/**
 * Parses the predicate after `WHERE`; `qualifiers` are the names a column may be qualified with
 * (the source table's name and alias, lowercased).
 */
export function parseFlowWhere(cur: Cursor, qualifiers: string[]): FlowPredicate {
  const p = new WhereParser(cur, qualifiers);
  const predicate = p.or(0);
  if (!cur.atEnd && !isKeyword(cur.peek(), "GROUP")) {
    throw refuse(`the expression ${cur.describe()} in WHERE`);
  }
  return predicate;
}

class WhereParser {
  constructor(private readonly cur: Cursor, private readonly qualifiers: string[]) {}

  or(depth: number): FlowPredicate {
    const args = [this.and(depth)];
    while (this.cur.acceptKw("OR")) args.push(this.and(depth));
    return args.length === 1 ? args[0] : { op: "or", args };
  }

  private and(depth: number): FlowPredicate {
    const args = [this.not(depth)];
    while (this.cur.acceptKw("AND")) args.push(this.not(depth));
    return args.length === 1 ? args[0] : { op: "and", args };
  }

  private not(depth: number): FlowPredicate {
    if (depth > MAX_DEPTH) throw refuse(`a WHERE nested more than ${MAX_DEPTH} deep`);
    if (this.cur.acceptKw("NOT")) return { op: "not", arg: this.not(depth + 1) };
    if (this.cur.acceptOp("(")) {
      if (isKeyword(this.cur.peek(), "SELECT")) throw refuse("a subquery in WHERE");
      const inner = this.or(depth + 1);
      if (!this.cur.acceptOp(")")) throw refuse(`the expression ${this.cur.describe()} in WHERE`);
      return inner;
    }
    return this.test();
  }

  /** One test of a column: a comparison, IN, BETWEEN, IS NULL, LIKE, or a bare Boolean column. */
  private test(): FlowPredicate {
    const cur = this.cur;
    const left = this.operand();
    const t = cur.peek();
    const cmp = t?.kind === "op" ? COMPARISONS[t.text] : undefined;
    if (cmp !== undefined) {
      cur.next();
      const right = this.operand();
      if (left.kind === "column" && right.kind === "literal") return compare(left.name, cmp, right.value);
      if (left.kind === "literal" && right.kind === "column") {
        return compare(right.name, FLIPPED[cmp], left.value);
      }
      throw refuse(
        left.kind === "column"
          ? `comparing two columns in WHERE (${left.name} ${t!.text} …): compare a column with a literal`
          : `a comparison of two literals in WHERE`,
      );
    }
    if (left.kind !== "column") throw refuse(`a literal where WHERE expects a column (${describe(t)})`);
    const column = left.name;
    if (cur.acceptKw("IS")) {
      const negated = cur.acceptKw("NOT");
      if (!cur.acceptKw("NULL")) throw refuse(`IS ${negated ? "NOT " : ""}${describe(cur.peek())} in WHERE`);
      return { op: "null", column, negated };
    }
    const negated = cur.acceptKw("NOT");
    if (cur.acceptKw("IN")) return { op: "in", column, values: this.list(), negated };
    if (cur.acceptKw("BETWEEN")) {
      const low = this.literal("BETWEEN");
      cur.expectKw("AND");
      return { op: "between", column, low, high: this.literal("BETWEEN … AND"), negated };
    }
    if (cur.acceptKw("LIKE")) {
      const pattern = cur.peek();
      if (pattern?.kind !== "string") {
        throw refuse(`LIKE ${describe(pattern)} (the pattern must be a string)`);
      }
      cur.next();
      if (isKeyword(cur.peek(), "ESCAPE")) throw refuse("LIKE … ESCAPE (\\ escapes % and _)");
      return { op: "like", column, pattern: pattern.value, negated };
    }
    if (negated) throw refuse(`NOT ${describe(cur.peek())} after ${column} in WHERE`);
    const next = cur.peek();
    if (next === undefined || isKeyword(next, "AND", "OR", "GROUP") || isOp(next, ")")) {
      return { op: "compare", column, cmp: "=", value: { type: "boolean", value: true } };
    }
    throw refuse(
      `${describe(next)} after ${column} in WHERE (functions, arithmetic and casts are not evaluated)`,
    );
  }

  /** A column or a literal; anything else is refused. */
  private operand(): Operand {
    const cur = this.cur;
    const t = cur.peek();
    if (t === undefined) throw cur.error("Expected: an expression, found: EOF");
    if (t.kind === "ident" && isOp(cur.peek(1), "(")) {
      throw refuse(`function ${t.text.toLowerCase()}(…) in WHERE (compare a column with a literal)`);
    }
    if (isKeyword(t, ...EXPRESSIONS)) throw refuse(`${t.text.toUpperCase()} in WHERE`);
    if (isOp(t, "(")) throw refuse("a parenthesised expression as an operand in WHERE");
    if (t.kind === "param") throw refuse(`the placeholder ${t.text} in WHERE`);
    if (t.kind === "ident" && isKeyword(t, "NULL")) {
      cur.next();
      return { kind: "literal", value: null };
    }
    if (t.kind === "ident" && isKeyword(t, "TRUE", "FALSE")) {
      cur.next();
      return { kind: "literal", value: { type: "boolean", value: isKeyword(t, "TRUE") } };
    }
    if (t.kind === "ident" || t.kind === "qident") {
      const parts = cur.objectName();
      if (parts.length > 1 && !this.qualifiers.includes(parts[parts.length - 2].toLowerCase())) {
        throw refuse(`the column ${parts.join(".")} of another table in WHERE (a flow reads one table)`);
      }
      if (isOp(cur.peek(), "(")) throw refuse(`function ${parts.join(".")}(…) in WHERE`);
      return { kind: "column", name: parts[parts.length - 1] };
    }
    if (t.kind === "string") {
      cur.next();
      return { kind: "literal", value: { type: "string", value: t.value } };
    }
    return { kind: "literal", value: this.number() };
  }

  /** A number, with its sign. */
  private number(): FlowLiteral {
    const cur = this.cur;
    const sign = isOp(cur.peek(), "-", "+") ? cur.next().text : "";
    const t = cur.peek();
    if (t?.kind !== "number") throw refuse(`${sign}${describe(t)} in WHERE (expected a column or a literal)`);
    cur.next();
    return { type: "number", text: sign === "-" ? `-${t.text}` : t.text };
  }

  private literal(where: string): FlowLiteral {
    const o = this.operand();
    if (o.kind === "column") throw refuse(`the column ${o.name} after ${where} (a literal is expected)`);
    if (o.value === null) throw refuse(`NULL after ${where} (use IS NULL)`);
    return o.value;
  }

  private list(): FlowLiteral[] {
    this.cur.expectOp("(");
    if (isKeyword(this.cur.peek(), "SELECT")) throw refuse("a subquery in WHERE … IN (…)");
    const values: FlowLiteral[] = [];
    do values.push(this.literal("IN (")); while (this.cur.acceptOp(","));
    this.cur.expectOp(")");
    return values;
  }
}

function compare(column: string, cmp: FlowComparison, value: FlowLiteral | null): FlowPredicate {
  // GreptimeDB evaluates `x = NULL` to NULL, which keeps no row: surely not what was meant
  if (value === null) throw refuse(`comparing ${column} with NULL (use IS NULL or IS NOT NULL)`);
  return { op: "compare", column, cmp, value };
}

function describe(t: Token | undefined): string {
  return t === undefined ? "EOF" : t.text;
}
