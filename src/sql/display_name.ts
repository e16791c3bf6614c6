/**
 * DataFusion's names of unaliased output columns (its `SchemaDisplay`): `Int64(1)`, `Utf8("a")`,
 * `abs(Int64(-1))`, `monitor.cpu > Int64(0)`, `round(avg(monitor.cpu),Int64(2))`. Only expressions of
 * literals, columns, calls and operators are named; anything else (parentheses, intervals, typed
 * literals, subqueries, window calls, `AT TIME ZONE`) has no name here and keeps its text.
 */
import { isKeyword, isOp, type Token, tokenize } from "./lexer.ts";
import { NOW_NAMES, QueryTokens } from "./query_tokens.ts";
import { Cursor } from "./cursor.ts";
import { castAs } from "./cast_type.ts";
import { orderedCall } from "./rewrite/ordered_aggregates.ts";
import { type ArrayTyping, involvesArrays } from "./array_types.ts";
import { specialCall } from "./special_calls.ts";

/** DataFusion's own names of function aliases, as its column names print them. */
const CANONICAL: Record<string, string> = {
  list_length: "array_length",
  array_extract: "array_element",
  list_element: "array_element",
  list_extract: "array_element",
  array_contains: "array_has",
  list_has: "array_has",
  array_indexof: "array_position",
  list_position: "array_position",
  array_push_back: "array_append",
  list_append: "array_append",
  array_push_front: "array_prepend",
  list_prepend: "array_prepend",
  array_cat: "array_concat",
  list_concat: "array_concat",
  list_slice: "array_slice",
  list_sort: "array_sort",
  array_join: "array_to_string",
  list_to_string: "array_to_string",
  string_to_list: "string_to_array",
  length: "character_length",
  char_length: "character_length",
  mean: "avg",
  var_sample: "var",
  var_samp: "var",
  var_population: "var_pop",
  stddev_samp: "stddev",
  covar: "covar_samp",
  substring_index: "substr_index",
  datepart: "date_part",
  datetrunc: "date_trunc",
  substring: "substr",
  trim: "btrim",
  pow: "power",
  current_timestamp: "now",
  today: "current_date",
};

/** Binary operators by precedence (sqlparser's), with DataFusion's display of the operator. */
const BINARY: Record<string, { prec: number; shown: string }> = {
  OR: { prec: 5, shown: "OR" },
  AND: { prec: 10, shown: "AND" },
  "=": { prec: 20, shown: "=" },
  "!=": { prec: 20, shown: "!=" },
  "<>": { prec: 20, shown: "!=" },
  "<": { prec: 20, shown: "<" },
  "<=": { prec: 20, shown: "<=" },
  ">": { prec: 20, shown: ">" },
  ">=": { prec: 20, shown: ">=" },
  "~": { prec: 20, shown: "~" },
  "!~": { prec: 20, shown: "!~" },
  "~*": { prec: 20, shown: "~*" },
  "!~*": { prec: 20, shown: "!~*" },
  "+": { prec: 30, shown: "+" },
  "-": { prec: 30, shown: "-" },
  "*": { prec: 40, shown: "*" },
  "/": { prec: 40, shown: "/" },
  "%": { prec: 40, shown: "%" },
  "||": { prec: 40, shown: "||" },
};
const IS_PREC = 17;
const PATTERN_PREC = 20;
const NOT_PREC = 15;

/** Bare words that are no column: niladic functions and the heads of typed literals. */
const NOT_COLUMNS = new Set([
  ...NOW_NAMES,
  "current_date",
  "current_time",
  "current_user",
  "current_schema",
  "interval",
  "exists",
  "array",
  "case",
  "when",
  "then",
  "else",
  "end",
  "select",
]);

/**
 * The SQL-standard words sqlparser reads as calls without arguments, by the name of the function
 * DataFusion plans (`current_timestamp` is an alias of `now`).
 */
const NILADIC_NAMES = new Map([
  ["current_date", "current_date()"],
  ["current_time", "current_time()"],
  ["current_timestamp", "now()"],
]);

const isNiladic = (t: Token) => t.kind === "ident" && NILADIC_NAMES.has(t.text.toLowerCase());

const INT64_MAX = 2n ** 63n - 1n;

/**
 * Whether `[s, k)` casts a string to a time type (`'2024-01-01'::timestamp`), the `k`th token naming
 * it: a timestamp literal, whose DataFusion name is not known here.
 */
function isTimeLiteral(toks: Token[], s: number, k: number): boolean {
  return toks[s]?.kind === "string" && /^(timestamp|date|time|interval)/i.test(toks[k]?.text ?? "");
}

/** DataFusion's display of a number literal (`Int64(-1)`, `Float64(1.5)`); undefined past its forms. */
function numberName(text: string, negative: boolean): string | undefined {
  if (/^\d+$/.test(text)) {
    const n = BigInt(text);
    return n <= INT64_MAX ? `Int64(${negative && n > 0n ? "-" : ""}${n})` : undefined;
  }
  if (!/^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return undefined;
  // Rust prints a float without an exponent; JavaScript's short form is the same until it uses one
  const shown = String(Number(text) * (negative ? -1 : 1));
  return /e/i.test(shown) ? undefined : `Float64(${shown})`;
}

/** An identifier as DataFusion normalizes it: unquoted ones lowercase. */
function identName(t: Token): string {
  return t.kind === "ident" ? t.text.toLowerCase() : t.value;
}

const isName = (t: Token | undefined): t is Token => t?.kind === "ident" || t?.kind === "qident";

/**
 * DataFusion's name of the expression `[s, e)`; undefined when it is not one of the named forms.
 * Columns are qualified by their relation, as inside any expression.
 */
export function displayName(c: ArrayTyping, s: number, e: number): string | undefined {
  const { q } = c;
  const { toks, match } = q;
  let k = s;
  const at = (word: string) => k < e && isKeyword(toks[k], word);

  /** An operand and the operators binding tighter than `min`. */
  const expr = (min: number): string | undefined => {
    let left = unary();
    while (left !== undefined && k < e) {
      const t = toks[k];
      const negated = isKeyword(t, "NOT") ? 1 : 0;
      const word = toks[k + negated];
      if (negated === 0 && isKeyword(t, "IS")) {
        if (IS_PREC < min) break;
        const not = isKeyword(toks[k + 1], "NOT") ? 1 : 0;
        const what = toks[k + 1 + not];
        if (isKeyword(what, "DISTINCT") && isKeyword(toks[k + 2 + not], "FROM")) {
          k += 3 + not;
          const right = expr(IS_PREC + 1);
          if (right === undefined) return undefined;
          left = `${left} IS ${not ? "NOT " : ""}DISTINCT FROM ${right}`;
          continue;
        }
        if (!isKeyword(what, "NULL", "TRUE", "FALSE", "UNKNOWN")) return undefined;
        left = `${left} IS ${not ? "NOT " : ""}${what.text.toUpperCase()}`;
        k += 2 + not;
      } else if (isKeyword(word, "BETWEEN")) {
        if (PATTERN_PREC < min) break;
        k += 1 + negated;
        const low = expr(PATTERN_PREC + 1);
        if (!at("AND")) return undefined;
        k++;
        const high = expr(PATTERN_PREC + 1);
        if (low === undefined || high === undefined) return undefined;
        left = `${left} ${negated ? "NOT " : ""}BETWEEN ${low} AND ${high}`;
      } else if (isKeyword(word, "LIKE", "ILIKE")) {
        if (PATTERN_PREC < min) break;
        k += 1 + negated;
        const pattern = expr(PATTERN_PREC + 1);
        if (pattern === undefined || at("ESCAPE")) return undefined;
        left = `${left} ${negated ? "NOT " : ""}${word.text.toUpperCase()} ${pattern}`;
      } else if (isKeyword(word, "SIMILAR") && isKeyword(toks[k + negated + 1], "TO")) {
        if (PATTERN_PREC < min) break;
        k += 2 + negated;
        const pattern = expr(PATTERN_PREC + 1);
        if (pattern === undefined) return undefined;
        left = `${left} ${negated ? "NOT " : ""}SIMILAR TO ${pattern}`;
      } else if (isKeyword(word, "IN")) {
        if (PATTERN_PREC < min) break;
        const open = k + 1 + negated;
        if (!isOp(toks[open], "(") || isKeyword(toks[open + 1], "SELECT", "WITH")) return undefined;
        const list = q.args(open).map(([a, b]) => displayName(c, a, b));
        if (list.length === 0 || list.some((x) => x === undefined)) return undefined;
        left = `${left} ${negated ? "NOT " : ""}IN ([${list.join(", ")}])`;
        k = match[open] + 1;
      } else {
        const op = BINARY[t.kind === "op" ? t.text : isKeyword(t, "AND", "OR") ? t.text.toUpperCase() : ""];
        if (!op || negated || op.prec < min) break;
        k++;
        const right = expr(op.prec + 1);
        if (right === undefined) return undefined;
        left = `${left} ${op.shown} ${right}`;
      }
    }
    return left;
  };

  /** A prefixed operand: `NOT x`, `-1` (one literal), `- x` (DataFusion's `(- x)`). */
  const unary = (): string | undefined => {
    const t = toks[k];
    if (isKeyword(t, "NOT")) {
      k++;
      const x = expr(NOT_PREC);
      return x === undefined ? undefined : `NOT ${x}`;
    }
    if (isOp(t, "-")) {
      const n = toks[k + 1];
      if (n?.kind === "number" && !isOp(toks[k + 2], "::", "[")) {
        k += 2;
        return numberName(n.text, true);
      }
      k++;
      const x = postfixed();
      return x === undefined ? undefined : `(- ${x})`;
    }
    return postfixed();
  };

  /** A primary with any `::type` after it (a cast is transparent). */
  const postfixed = (): string | undefined => {
    const head = k;
    const x = primary();
    while (x !== undefined && k < e && isOp(toks[k], "::")) {
      k++;
      if (!isName(toks[k]) || isTimeLiteral(toks, head, k)) return undefined;
      k++;
      if (isOp(toks[k], "(")) k = match[k] + 1;
    }
    return x;
  };

  const primary = (): string | undefined => {
    const t = toks[k];
    if (!t || k >= e) return undefined;
    k++;
    if (t.kind === "number") return numberName(t.text, false);
    if (t.kind === "string") return `Utf8("${t.value}")`;
    if (isKeyword(t, "NULL")) return "NULL";
    if (isKeyword(t, "TRUE", "FALSE")) return `Boolean(${t.text.toLowerCase()})`;
    if (isKeyword(t, "CASE")) return caseName();
    if (!isName(t)) return undefined;
    if (isOp(toks[k], "(")) {
      const close = match[k];
      const call = callName(c, k - 1, close + 1);
      k = close + 1;
      // a window or filtered call is named otherwise
      return isKeyword(toks[k], "OVER", "FILTER", "WITHIN") ? undefined : call;
    }
    if (isOp(toks[k], ".") && isName(toks[k + 1])) {
      k += 2;
      return isOp(toks[k], ".") ? undefined : `${identName(t)}.${identName(toks[k - 1])}`;
    }
    const niladic = t.kind === "ident" ? NILADIC_NAMES.get(t.text.toLowerCase()) : undefined;
    if (niladic !== undefined) return niladic;
    if (t.kind === "ident" && (NOT_COLUMNS.has(t.text.toLowerCase()) || toks[k]?.kind === "string")) {
      return undefined;
    }
    // a column is qualified by the relation it reads (the query's only one, else as resolved)
    const relation = (t.pos >= 0 ? c.qualifierAt?.(t.pos) : undefined) ??
      (c.relations.length === 1 ? c.relations[0] : undefined);
    return relation === undefined ? undefined : `${relation}.${identName(t)}`;
  };

  /** `CASE [x] WHEN a THEN b … [ELSE c] END`, the CASE keyword read. */
  const caseName = (): string | undefined => {
    let out = "CASE ";
    if (!at("WHEN")) {
      const operand = expr(0);
      if (operand === undefined) return undefined;
      out += `${operand} `;
    }
    while (at("WHEN")) {
      k++;
      const when = expr(0);
      if (when === undefined || !at("THEN")) return undefined;
      k++;
      const then = expr(0);
      if (then === undefined) return undefined;
      out += `WHEN ${when} THEN ${then} `;
    }
    if (at("ELSE")) {
      k++;
      const other = expr(0);
      if (other === undefined) return undefined;
      out += `ELSE ${other} `;
    }
    if (!at("END")) return undefined;
    k++;
    return `${out}END`;
  };

  const name = expr(0);
  return k === e ? name : undefined;
}

/** A call `name(…)` spanning `[s, e)`: `round(avg(m.cpu),Int64(2))`, `count(*)`, `count(DISTINCT m.h)`. */
function callName(c: ArrayTyping, s: number, e: number): string | undefined {
  const { q } = c;
  const { toks } = q;
  const open = s + 1;
  const fn = toks[s].kind === "ident" ? toks[s].text.toLowerCase() : toks[s].value;
  if (fn === "cast" || fn === "try_cast") {
    const as = castAs(toks, q.match, open, e - 1);
    return as < 0 || isTimeLiteral(toks, open + 1, as + 1) ? undefined : displayName(c, open + 1, as);
  }
  if (orderedCall(q, open).order.length > 0) return fn === "array_agg" ? aggregateName(c, open) : undefined;
  const special = specialCall(q, open);
  if (special) {
    const named = special.args.map((a) => "range" in a ? displayName(c, a.range[0], a.range[1]) : a.name);
    return named.some((a) => a === undefined) ? undefined : `${special.fn}(${named.join(",")})`;
  }
  const parts = q.args(open);
  if (
    fn === "count" && parts.length === 1 && parts[0][1] - parts[0][0] === 1 && isOp(toks[parts[0][0]], "*")
  ) {
    return "count(*)";
  }
  const distinct = parts.length > 0 && isKeyword(toks[parts[0][0]], "DISTINCT");
  if (distinct) parts[0] = [parts[0][0] + 1, parts[0][1]];
  const args = parts.map(([a, b]) => displayName(c, a, b));
  if (args.some((a) => a === undefined)) return undefined;
  const canonical = CANONICAL[fn] ?? fn;
  if (!distinct) {
    if (canonical === "array_element" && args.length === 2) return `${args[0]}[${args[1]}]`;
    if (canonical === "array_slice" && args.length === 3) return `${args[0]}[${args[1]}:${args[2]}]`;
    if (canonical === "unnest") return `UNNEST(${args.join(",")})`;
  }
  return `${canonical}(${distinct ? "DISTINCT " : ""}${args.join(",")})`;
}

/** `array_agg(DISTINCT t.v)`, `array_agg(t.v) ORDER BY [t.ts DESC NULLS FIRST]`. */
function aggregateName(c: ArrayTyping, open: number): string | undefined {
  const { values, order } = orderedCall(c.q, open);
  if (values.length !== 1) return undefined;
  const distinct = isKeyword(c.q.toks[values[0][0]], "DISTINCT");
  const value = displayName(c, values[0][0] + (distinct ? 1 : 0), values[0][1]);
  const keys = order.map((o) => {
    const k = displayName(c, ...o.expr);
    return k && `${k} ${o.desc ? "DESC" : "ASC"} NULLS ${o.nullsFirst ? "FIRST" : "LAST"}`;
  });
  if (value === undefined || keys.some((k) => k === undefined)) return undefined;
  const call = `array_agg(${distinct ? "DISTINCT " : ""}${value})`;
  return keys.length ? `${call} ORDER BY [${keys.join(", ")}]` : call;
}

/** DataFusion's name of an unaliased output column that involves arrays; undefined otherwise. */
export function arrayOutputName(c: ArrayTyping, s: number, e: number): string | undefined {
  return involvesArrays(c.q, s, e) ? displayName(c, s, e) : undefined;
}

/**
 * DataFusion's name of a select item from its text as written, which starts at SQL offset `offset`
 * (rewrites before naming reorder and make up tokens); undefined for a lone column (`cpu`, `m.cpu` keep their bare name) and for what
 * is not a named form.
 */
export function writtenName(c: Omit<ArrayTyping, "q">, text: string, offset: number): string | undefined {
  let q: QueryTokens;
  try {
    const toks = tokenize(text);
    q = new QueryTokens(toks, new Cursor(toks, text));
  } catch {
    return undefined;
  }
  const n = q.toks.length;
  const lone = (n === 1 || (n === 3 && isOp(q.toks[1], "."))) && isName(q.toks[n - 1]) &&
    !isKeyword(q.toks[0], "NULL", "TRUE", "FALSE") && !(n === 1 && isNiladic(q.toks[0]));
  const qualifierAt = c.qualifierAt && ((pos: number) => c.qualifierAt!(pos + offset));
  return n === 0 || lone ? undefined : displayName({ ...c, q, qualifierAt }, 0, n);
}
