/**
 * Rewrites a GreptimeDB-dialect query into SQLite SQL: table names are resolved through the catalog
 * (quoted, ttl-filtered), `::` casts, `interval '…'`, timestamp strings compared with time columns
 * and time functions become integers or user functions in the unit of the time column they meet.
 */
import type { DataType } from "../storage/types.ts";
import type { TimeUnit } from "../storage/datatypes.ts";
import { isIntegerType, isTimestampType, timestampType, unitOf } from "../storage/datatypes.ts";
import type { Storage, TableMeta } from "../storage/mod.ts";
import { nullTagColumns, quoteIdent, quoteString } from "../storage/table.ts";
import { invalidArguments, unsupported } from "../http/errors.ts";
import type { Token } from "./lexer.ts";
import { isKeyword, isOp } from "./lexer.ts";
import { resolveTableRef, tableRefSql } from "./catalog_view.ts";
import { nsToUnit, parseIntervalNs, parseTimestampIn } from "./time.ts";
import { Cursor } from "./cursor.ts";

/** What a rewrite needs to know. */
export interface RewriteEnv {
  storage: Storage;
  db: string;
  sql: string;
  timezone?: string;
  /** Tables in scope that are not named in a FROM clause (the target of DELETE). */
  extraTables?: TableMeta[];
  /** Unit of time literals in expressions that meet no time column. */
  defaultUnit?: TimeUnit;
}

/** A rewritten query. */
export interface Rewritten {
  sql: string;
  /** Data types of output columns that SQLite cannot report (time functions), by position. */
  hints: Array<DataType | undefined>;
  /** The database whose connection must run the query (all its tables live there). */
  database: string;
  /** Types of columns that reach the result through an expression (null-tag mapping), by name. */
  nameTypes: Map<string, DataType>;
  usesInfoSchema: boolean;
}

const SYNTHETIC = -1;
const synth = (kind: Token["kind"], text: string): Token => ({ kind, text, value: text, pos: SYNTHETIC });

const SEPARATORS = new Set([
  "AND",
  "OR",
  "WHERE",
  "ON",
  "HAVING",
  "SELECT",
  "FROM",
  "GROUP",
  "ORDER",
  "BY",
  "LIMIT",
  "OFFSET",
  "WHEN",
  "THEN",
  "ELSE",
  "END",
  "JOIN",
  "UNION",
  "EXCEPT",
  "INTERSECT",
  "SET",
  "VALUES",
  "CASE",
  "USING",
  "WINDOW",
  "PARTITION",
]);

const NOT_ALIAS = new Set([
  ...SEPARATORS,
  "INNER",
  "LEFT",
  "RIGHT",
  "FULL",
  "OUTER",
  "CROSS",
  "NATURAL",
  "AS",
  "INTO",
  "NOT",
  "ALIGN",
  "FILL",
  "RANGE",
  "LATERAL",
]);

const CMP_OPS = ["=", "==", "<", ">", "<=", ">=", "<>", "!="];
const NOW_NAMES = new Set([
  "now",
  "current_timestamp",
  "localtimestamp",
  "statement_timestamp",
  "transaction_timestamp",
]);
const TIME_RESULT_FUNCS = new Set([...NOW_NAMES, "date_bin", "date_trunc", "__petrel_to_ts"]);
const KEEP_TYPE_AGGS = new Set(["min", "max", "first_value", "last_value", "last", "first"]);
const INTERVAL_UNITS = new Set([
  "YEAR",
  "YEARS",
  "MONTH",
  "MONTHS",
  "WEEK",
  "WEEKS",
  "DAY",
  "DAYS",
  "HOUR",
  "HOURS",
  "MINUTE",
  "MINUTES",
  "SECOND",
  "SECONDS",
  "MILLISECOND",
  "MILLISECONDS",
  "MICROSECOND",
  "MICROSECONDS",
  "NANOSECOND",
  "NANOSECONDS",
]);

function isOperandEnd(t: Token | undefined): boolean {
  return !!t && (t.kind !== "op" || t.text === ")" || t.text === "]");
}

/** Turns `x::type` into `CAST(x AS type)` so later steps handle one form. */
function expandDoubleColonCasts(tokens: Token[], cur: Cursor): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!isOp(t, "::")) {
      out.push(t);
      continue;
    }
    let start = out.length - 1;
    if (start < 0) throw errorAt(cur, t, "Expected: an expression before ::");
    if (isOp(out[start], ")")) {
      let depth = 0;
      for (; start >= 0; start--) {
        if (isOp(out[start], ")")) depth++;
        else if (isOp(out[start], "(")) depth--;
        if (depth === 0) break;
      }
      if (start > 0 && (out[start - 1].kind === "ident" || out[start - 1].kind === "qident")) start--;
    } else {
      while (start >= 2 && isOp(out[start - 1], ".")) start -= 2;
    }
    if (start > 0 && isKeyword(out[start - 1], "INTERVAL")) start--;
    const operand = out.splice(start);
    const type: Token[] = [];
    i++;
    if (!tokens[i] || (tokens[i].kind !== "ident" && tokens[i].kind !== "qident")) {
      throw errorAt(cur, tokens[i] ?? t, "Expected: a data type after ::");
    }
    type.push(tokens[i]);
    if (isOp(tokens[i + 1], "(")) {
      while (i + 1 < tokens.length && !isOp(tokens[i], ")")) type.push(tokens[++i]);
    }
    while (isKeyword(tokens[i + 1], "UNSIGNED", "WITH", "WITHOUT", "TIME", "ZONE")) type.push(tokens[++i]);
    out.push(
      synth("ident", "CAST"),
      synth("op", "("),
      ...operand,
      synth("ident", "AS"),
      ...type,
      synth("op", ")"),
    );
  }
  return out;
}

function errorAt(cur: Cursor, t: Token, message: string): Error {
  const idx = cur.tokens.indexOf(t);
  if (idx >= 0) cur.i = idx;
  return cur.error(message);
}

/** Rewrites the tokens of one query (or of a DELETE's WHERE clause). */
export function rewriteQuery(tokensIn: Token[], env: RewriteEnv): Rewritten {
  const cursor = new Cursor(tokensIn, env.sql);
  const toks = expandDoubleColonCasts(tokensIn, cursor);
  const n = toks.length;
  const match = new Array<number>(n).fill(-1);
  const parent = new Array<number>(n).fill(-1);
  {
    const stack: number[] = [];
    for (let i = 0; i < n; i++) {
      parent[i] = stack.length ? stack[stack.length - 1] : -1;
      if (isOp(toks[i], "(")) stack.push(i);
      else if (isOp(toks[i], ")")) {
        const open = stack.pop();
        if (open === undefined) throw errorAt(cursor, toks[i], "Expected: end of statement, found: )");
        match[open] = i;
        match[i] = open;
        parent[i] = stack.length ? stack[stack.length - 1] : -1;
      }
    }
    if (stack.length) throw errorAt(cursor, toks[stack[stack.length - 1]], "Expected: ), found: EOF");
  }
  const lower = (t: Token) => (t.kind === "qident" ? t.value : t.value.toLowerCase());
  const funcOf = (open: number): string | undefined => {
    const f = toks[open - 1];
    return open > 0 && f && f.kind === "ident" ? f.value.toLowerCase() : undefined;
  };

  // CTE names are not tables
  const ctes = new Set<string>();
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (t.kind !== "ident" && t.kind !== "qident") continue;
    const prev = toks[i - 1];
    if (!(isKeyword(prev, "WITH", "RECURSIVE") || (isOp(prev, ",") && parent[i] === -1))) continue;
    let j = i + 1;
    if (isOp(toks[j], "(")) j = match[j] + 1;
    if (isKeyword(toks[j], "AS") && isOp(toks[j + 1], "(")) ctes.add(lower(t));
  }

  let limit: number | undefined;
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (isKeyword(t, "LIMIT", "OFFSET") && isOp(toks[i + 1], "-")) {
      throw invalidArguments(`${t.text.toUpperCase()} must not be negative`);
    }
    if (isKeyword(t, "LIMIT") && toks[i + 1]?.kind === "number") limit = Number(toks[i + 1].text);
    // SQLite would bind placeholders to NULL; a SQL request has no values to bind
    const next = toks[i + 1];
    if (
      t.kind === "param" ||
      (isOp(t, ":", "@", "$") && next && next.pos === t.pos + 1 &&
        (next.kind === "ident" || next.kind === "number"))
    ) {
      throw errorAt(
        cursor,
        t,
        `Placeholders are not supported, found: ${t.text}${isOp(t, ":", "@", "$") ? next!.text : ""}`,
      );
    }
  }

  // table references
  const replacements = new Map<number, { end: number; text: string }>();
  const tables: TableMeta[] = [...(env.extraTables ?? [])];
  let usesInfoSchema = false;
  const relations: string[] = [];
  const parseRef = (start: number, inList: boolean): void => {
    let j = start;
    if (!toks[j] || (toks[j].kind !== "ident" && toks[j].kind !== "qident")) return;
    if (isKeyword(toks[j], "LATERAL", "UNNEST")) return;
    const parts = [lower(toks[j])];
    j++;
    while (
      isOp(toks[j], ".") && toks[j + 1] && (toks[j + 1].kind === "ident" || toks[j + 1].kind === "qident")
    ) {
      parts.push(lower(toks[j + 1]));
      j += 2;
    }
    if (isOp(toks[j], "(")) return;
    let alias: string | undefined;
    let after = j;
    if (isKeyword(toks[j], "AS") && toks[j + 1]) {
      alias = toks[j + 1].value;
      after = j + 2;
    } else if (
      toks[j] &&
      (toks[j].kind === "qident" || (toks[j].kind === "ident" && !NOT_ALIAS.has(toks[j].text.toUpperCase())))
    ) {
      alias = toks[j].value;
      after = j + 1;
    }
    const isCte = parts.length === 1 && ctes.has(parts[0]);
    if (parent[start] === -1) relations.push(alias ?? parts[parts.length - 1]);
    if (!isCte) {
      const resolved = resolveTableRef(env.storage, env.db, parts);
      if (resolved.kind === "table") tables.push(resolved.table);
      if (resolved.kind === "info") usesInfoSchema = true;
      replacements.set(start, { end: j, text: tableRefSql(resolved, alias, limit) });
    }
    if (inList && isOp(toks[after], ",")) parseRef(after + 1, true);
  };
  for (let i = 0; i < n; i++) {
    if (isKeyword(toks[i], "FROM")) {
      if (isKeyword(toks[i - 1], "DISTINCT")) continue;
      const p = parent[i];
      if (p >= 0 && ["extract", "substring", "trim", "position", "overlay"].includes(funcOf(p) ?? "")) {
        continue;
      }
      parseRef(i + 1, true);
    } else if (isKeyword(toks[i], "JOIN")) parseRef(i + 1, false);
  }

  // timestamp columns in scope, and the unit each expression segment works in
  const tsCols = new Map<string, TimeUnit>();
  for (const t of tables) {
    for (const c of t.columns) {
      if (isTimestampType(c.type) && !tsCols.has(c.name.toLowerCase())) {
        tsCols.set(c.name.toLowerCase(), unitOf(c.type));
      }
    }
  }
  const isTsColumn = (i: number): TimeUnit | undefined => {
    const t = toks[i];
    if (t.kind !== "ident" && t.kind !== "qident") return undefined;
    if (isOp(toks[i + 1], "(") || isOp(toks[i + 1], ".") || isKeyword(toks[i - 1], "AS")) return undefined;
    return tsCols.get(lower(t));
  };
  const colTypes = new Map<string, DataType>();
  for (const t of tables) {
    for (const c of t.columns) {
      if (!colTypes.has(c.name.toLowerCase())) colTypes.set(c.name.toLowerCase(), c.type);
    }
  }
  const segOf = new Array<number>(n).fill(0);
  const betweenAnd = new Array<boolean>(n).fill(false);
  {
    let seg = 0;
    const kinds: boolean[] = [];
    let betweenDepth = -1;
    for (let i = 0; i < n; i++) {
      const t = toks[i];
      if (isOp(t, "(")) {
        const sub = isKeyword(toks[i + 1], "SELECT", "WITH", "VALUES");
        kinds.push(sub);
        if (sub) seg++;
      } else if (isOp(t, ")")) {
        if (kinds.pop()) seg++;
      } else if (t.kind === "ident" && SEPARATORS.has(t.text.toUpperCase())) {
        if (isKeyword(t, "AND") && betweenDepth === kinds.length) {
          betweenAnd[i] = true;
          betweenDepth = -1;
        } else seg++;
      } else if (isKeyword(t, "BETWEEN")) betweenDepth = kinds.length;
      else if (isOp(t, ",") && (kinds.length === 0 || kinds[kinds.length - 1])) seg++;
      segOf[i] = seg;
    }
  }
  const segUnit = new Map<number, TimeUnit>();
  for (let i = 0; i < n; i++) {
    const u = isTsColumn(i);
    if (u && !segUnit.has(segOf[i])) segUnit.set(segOf[i], u);
  }
  const unitAt = (i: number): TimeUnit => segUnit.get(segOf[i]) ?? env.defaultUnit ?? "ms";
  const tz = quoteString(env.timezone ?? "UTC");

  const gap = (i: number): string => {
    if (i === 0) return "";
    const a = toks[i - 1], b = toks[i];
    if (a.pos === SYNTHETIC || b.pos === SYNTHETIC) {
      return (isOp(b, "(") && a.kind === "ident") || isOp(b, ")") || isOp(a, "(") ? "" : " ";
    }
    return a.pos + a.text.length === b.pos ? "" : " ";
  };
  const tokenText = (t: Token): string => {
    if (t.kind === "qident") return quoteIdent(t.value);
    if (t.kind === "string") return quoteString(t.value);
    return t.text;
  };
  const args = (open: number): Array<[number, number]> => {
    const close = match[open];
    const out: Array<[number, number]> = [];
    let s = open + 1;
    for (let k = open + 1; k < close; k++) {
      if (isOp(toks[k], "(")) k = match[k];
      else if (isOp(toks[k], ",")) {
        out.push([s, k]);
        s = k + 1;
      }
    }
    if (close > open + 1) out.push([s, close]);
    return out;
  };
  const timeLiteral = (i: number, unit: TimeUnit): string | undefined => {
    const t = toks[i];
    if (t.kind !== "string") return undefined;
    const v = parseTimestampIn(t.value, unit, env.timezone);
    return v === undefined ? undefined : v.toString();
  };
  const isTimeComparison = (i: number): boolean => {
    if (!segUnit.has(segOf[i])) return false;
    const prev = toks[i - 1], next = toks[i + 1];
    if (isOp(prev, ...CMP_OPS) || isOp(next, ...CMP_OPS) || isKeyword(prev, "BETWEEN")) return true;
    if (isKeyword(prev, "AND") && betweenAnd[i - 1]) return true;
    const p = parent[i];
    return (isOp(prev, "(") || isOp(prev, ",")) && p > 0 && isKeyword(toks[p - 1], "IN");
  };

  /** The end of the operand (unary sign, literal, name, call, cast or parenthesized group) at `i`; `i` if none. */
  const primaryEnd = (i: number): number => {
    let k = i;
    while (isOp(toks[k], "-", "+")) k++;
    const t = toks[k];
    if (!t) return i;
    if (t.kind === "number" || t.kind === "string") return k + 1;
    if (isOp(t, "(")) return match[k] + 1;
    if (t.kind === "ident" || t.kind === "qident") {
      if (isKeyword(t, "CASE", "NOT", "SELECT", "EXISTS")) return i;
      if (isOp(toks[k + 1], "(")) return match[k + 1] + 1;
      let j = k + 1;
      while (
        isOp(toks[j], ".") && toks[j + 1] && (toks[j + 1].kind === "ident" || toks[j + 1].kind === "qident")
      ) j += 2;
      return j;
    }
    return i;
  };

  const emit = (a: number, b: number): string => {
    let out = "";
    for (let i = a; i < b;) {
      const r = replacements.get(i);
      if (r) {
        out += gap(i) + r.text;
        i = r.end;
        continue;
      }
      const s = special(i);
      if (s) {
        out += gap(i) + s.text;
        i = s.next;
        continue;
      }
      out += gap(i) + tokenText(toks[i]);
      i++;
    }
    return out;
  };

  const special = (i: number): { text: string; next: number } | undefined => {
    const t = toks[i];
    const unit = unitAt(i);
    if (t.kind === "string" && isTimeComparison(i)) {
      const lit = timeLiteral(i, unit);
      if (lit !== undefined) return { text: lit, next: i + 1 };
      if (/^\s*-?\d+\s*$/.test(t.value)) return { text: t.value.trim(), next: i + 1 };
      throw invalidArguments(`Failed to cast '${t.value}' to ${timestampType(unit)}`);
    }
    if (t.kind === "op") {
      if ((t.text === "/" || t.text === "%") && isOperandEnd(toks[i - 1])) {
        // SQLite answers NULL for a division by zero; GreptimeDB fails the query
        const end = primaryEnd(i + 1);
        if (end > i + 1) return { text: `${t.text} __petrel_nonzero(${emit(i + 1, end).trim()})`, next: end };
        return undefined;
      }
      if (t.text === "~" && isOperandEnd(toks[i - 1])) return { text: "REGEXP", next: i + 1 };
      if (t.text === "~*") return { text: "REGEXP", next: i + 1 };
      if (t.text === "!~" || t.text === "!~*") return { text: "NOT REGEXP", next: i + 1 };
      return undefined;
    }
    if (t.kind !== "ident") return undefined;
    const word = t.text.toUpperCase();
    if (word === "ILIKE") return { text: "LIKE", next: i + 1 };
    if (word === "IS" && isKeyword(toks[i + 1], "DISTINCT") && isKeyword(toks[i + 2], "FROM")) {
      return { text: "IS NOT", next: i + 3 };
    }
    if (
      word === "IS" && isKeyword(toks[i + 1], "NOT") && isKeyword(toks[i + 2], "DISTINCT") &&
      isKeyword(toks[i + 3], "FROM")
    ) {
      return { text: "IS", next: i + 4 };
    }
    if (word === "INTERVAL" && toks[i + 1]?.kind === "string") {
      const unitWord = toks[i + 2]?.kind === "ident" && INTERVAL_UNITS.has(toks[i + 2].text.toUpperCase())
        ? toks[i + 2].text
        : undefined;
      const ns = parseIntervalNs(toks[i + 1].value, unitWord?.toLowerCase());
      return { text: nsToUnit(ns, unit).toString(), next: i + (unitWord ? 3 : 2) };
    }
    const isCall = isOp(toks[i + 1], "(");
    const name = t.text.toLowerCase();
    if (NOW_NAMES.has(name) && (isCall || name !== "now")) {
      const next = isCall ? match[i + 1] + 1 : i + 1;
      return { text: `__petrel_now('${unit}')`, next };
    }
    if (!isCall) return undefined;
    const open = i + 1;
    const close = match[open];
    const a = args(open);
    const e = (k: number) => (a[k] ? emit(a[k][0], a[k][1]).trim() : "NULL");
    switch (name) {
      case "cast": {
        let as = -1;
        for (let k = open + 1; k < close; k++) {
          if (isOp(toks[k], "(")) k = match[k];
          else if (isKeyword(toks[k], "AS")) as = k;
        }
        if (as < 0) return undefined;
        const typeWord = toks[as + 1]?.text.toUpperCase() ?? "";
        const single = as === open + 2 && toks[open + 1].kind === "string" ? toks[open + 1] : undefined;
        if (/^(TIMESTAMP|TIMESTAMPTZ|DATETIME|DATE|TIMESTAMP_\w+)$/.test(typeWord)) {
          if (single) {
            const v = parseTimestampIn(single.value, unit, env.timezone);
            if (v === undefined) throw invalidArguments(`Cannot cast '${single.value}' to ${typeWord}`);
            return { text: v.toString(), next: close + 1 };
          }
          return { text: `__petrel_to_ts(${emit(open + 1, as).trim()}, '${unit}', ${tz})`, next: close + 1 };
        }
        if (typeWord === "INTERVAL" && single) {
          return { text: nsToUnit(parseIntervalNs(single.value), unit).toString(), next: close + 1 };
        }
        const mapped = /^(STRING|TEXT|VARCHAR|CHAR|CHARACTER)$/.test(typeWord)
          ? "TEXT"
          : /^(U?INT\d*|BIGINT|SMALLINT|TINYINT|INTEGER|BOOLEAN|BOOL|UINT\d+)$/.test(typeWord)
          ? "INTEGER"
          : /^(DOUBLE|FLOAT\d*|REAL|DECIMAL|NUMERIC)$/.test(typeWord)
          ? "REAL"
          : undefined;
        if (!mapped) return undefined;
        return { text: `CAST(${emit(open + 1, as).trim()} AS ${mapped})`, next: close + 1 };
      }
      case "date_bin": {
        let origin = "";
        if (a[2]) {
          const lit = a[2][1] - a[2][0] === 1 ? timeLiteral(a[2][0], unit) : undefined;
          origin = `, ${lit ?? e(2)}`;
        }
        return { text: `__petrel_date_bin(${e(0)}, ${e(1)}${origin})`, next: close + 1 };
      }
      case "date_trunc":
        return { text: `__petrel_date_trunc(${e(0)}, ${e(1)}, '${unit}', ${tz})`, next: close + 1 };
      case "date_part":
      case "datepart":
        return { text: `__petrel_date_part(${e(0)}, ${e(1)}, '${unit}', ${tz})`, next: close + 1 };
      case "extract": {
        const field = toks[open + 1];
        if (!field || !isKeyword(toks[open + 2], "FROM")) return undefined;
        return {
          text: `__petrel_date_part(${quoteString(field.value.toLowerCase())}, ${
            emit(open + 3, close).trim()
          }, '${unit}', ${tz})`,
          next: close + 1,
        };
      }
      case "to_unixtime":
        return { text: `__petrel_to_unixtime(${e(0)}, '${unit}', ${tz})`, next: close + 1 };
      case "arrow_cast":
        return { text: `__petrel_arrow_cast(${e(0)}, ${e(1)}, '${unit}')`, next: close + 1 };
      case "date_format":
        return { text: `__petrel_date_format(${e(0)}, ${e(1)}, '${unit}')`, next: close + 1 };
      case "to_timestamp_millis":
      case "to_timestamp_micros":
      case "to_timestamp_nanos":
      case "to_timestamp_seconds":
      case "to_timestamp": {
        const from: TimeUnit = name.endsWith("millis")
          ? "ms"
          : name.endsWith("micros")
          ? "us"
          : name.endsWith("nanos")
          ? "ns"
          : "s";
        return {
          text: `__petrel_convert_unit(__petrel_to_ts(${e(0)}, '${from}', ${tz}), '${from}', '${unit}')`,
          next: close + 1,
        };
      }
      case "position": {
        let inAt = -1;
        for (let k = open + 1; k < close; k++) if (isKeyword(toks[k], "IN") && parent[k] === open) inAt = k;
        if (inAt < 0) return undefined;
        return {
          text: `instr(${emit(inAt + 1, close).trim()}, ${emit(open + 1, inAt).trim()})`,
          next: close + 1,
        };
      }
      case "character_length":
      case "char_length":
        return { text: `length(${e(0)})`, next: close + 1 };
    }
    return undefined;
  };

  // the outermost select list: output types SQLite cannot see, and names for rewritten expressions
  const hints: Array<DataType | undefined> = [];
  let sql: string;
  const top = findTopSelect(toks, match);
  if (top) {
    let out = emit(0, top.items[0][0]);
    let starSeen = false;
    top.items.forEach(([s, e], idx) => {
      if (idx > 0) out += emit(top.items[idx - 1][1], s);
      const itemText = emit(s, e);
      const { exprEnd, hasAlias } = aliasOf(toks, s, e);
      const original = originalText(env.sql, toks, s, exprEnd);
      const rewritten = emit(s, exprEnd).trim();
      const plain = toks.slice(s, exprEnd).map((t, k) => (k === 0 ? "" : gap(s + k)) + tokenText(t)).join("");
      const name = hasAlias || isOp(toks[e - 1], "*")
        ? undefined
        : outputName(s, exprEnd, original, rewritten !== plain);
      out += itemText + (name !== undefined ? ` AS ${quoteIdent(name)}` : "");
      if (toks.slice(s, e).some((t) => isOp(t, "*")) && e - s <= 3) starSeen = true;
      if (!starSeen) hints[idx] = itemHint(s, exprEnd);
    });
    out += emit(top.items[top.items.length - 1][1], n);
    sql = out;
  } else sql = emit(0, n);

  /**
   * The name of an unaliased output column when SQLite's own name would differ from GreptimeDB's:
   * rewritten expressions keep their original text, and `fn(col)` is qualified as DataFusion does
   * (`avg(monitor.cpu)`).
   */
  function outputName(s: number, e: number, original: string, rewritten: boolean): string | undefined {
    const t = toks[s];
    if (
      t?.kind === "ident" && isOp(toks[s + 1], "(") && match[s + 1] === e - 1 && relations.length === 1 &&
      (toks[s + 2]?.kind === "ident" || toks[s + 2]?.kind === "qident") && e - s === 4 &&
      !isKeyword(toks[s + 2], "DISTINCT", "ALL")
    ) {
      return `${t.text.toLowerCase()}(${relations[0]}.${toks[s + 2].value})`;
    }
    return rewritten && original !== "" ? original : undefined;
  }

  function depthZero(s: number, e: number): Token[] {
    const out: Token[] = [];
    for (let k = s; k < e; k++) {
      out.push(toks[k]);
      if (isOp(toks[k], "(")) k = match[k] - 1;
    }
    return out;
  }

  function itemHint(s: number, e: number): DataType | undefined {
    const t = toks[s];
    if (!t) return undefined;
    const flat = depthZero(s, e);
    if (
      !isKeyword(t, "CASE") &&
      flat.some((x) =>
        isOp(x, ...CMP_OPS, "~", "!~", "~*", "!~*") ||
        isKeyword(x, "IS", "LIKE", "ILIKE", "IN", "BETWEEN", "AND", "OR", "NOT", "REGEXP", "GLOB", "EXISTS")
      )
    ) return "Boolean";
    if (
      flat.some((x) => isKeyword(x, "INTERVAL")) &&
      flat.every((x) => x.kind !== "op" || isOp(x, "+", "-", "(", ")"))
    ) {
      const k = flat.findIndex((x) => isTsColumn(toks.indexOf(x)) !== undefined);
      if (k >= 0) return timestampType(isTsColumn(toks.indexOf(flat[k]))!);
    }
    if (t.kind !== "ident") return undefined;
    const name = t.text.toLowerCase();
    if (NOW_NAMES.has(name) || TIME_RESULT_FUNCS.has(name) || name.startsWith("to_timestamp")) {
      return timestampType(unitAt(s));
    }
    const isWholeCall = isOp(toks[s + 1], "(") && match[s + 1] === e - 1;
    if (name === "cast" && isOp(toks[s + 1], "(")) {
      const close = match[s + 1];
      const typeTok = toks.slice(s + 2, close).reverse().find((_, k, arr) => isKeyword(arr[k + 1], "AS"));
      if (typeTok && /^(TIMESTAMP|TIMESTAMPTZ|DATETIME)/i.test(typeTok.text)) return timestampType(unitAt(s));
    }
    if (["row_number", "rank", "dense_rank", "ntile"].includes(name) && isOp(toks[s + 1], "(")) {
      return "UInt64";
    }
    if (!isWholeCall) return undefined;
    const argCol = e - s === 4 && (toks[s + 2].kind === "ident" || toks[s + 2].kind === "qident")
      ? colTypes.get(lower(toks[s + 2]))
      : undefined;
    if (name === "arrow_cast") {
      const a = args(s + 1);
      const typeTok = a[1] && a[1][1] - a[1][0] === 1 ? toks[a[1][0]] : undefined;
      return typeTok?.kind === "string" ? arrowType(typeTok.value) : undefined;
    }
    if (["count", "approx_distinct"].includes(name)) return "Int64";
    if (AVERAGING.has(name)) return "Float64";
    if (KEEP_TYPE_AGGS.has(name) && argCol) return argCol;
    if (name === "sum" && argCol) {
      return isIntegerType(argCol) && !isTimestampType(argCol) ? "Int64" : "Float64";
    }
    return undefined;
  }

  const nameTypes = new Map<string, DataType>();
  for (const t of tables) {
    for (const c of nullTagColumns(t)) if (!nameTypes.has(c.name)) nameTypes.set(c.name, c.type);
  }
  const dbs = new Set(tables.map((t) => t.db));
  if (dbs.size > 1) {
    throw unsupported(`A query cannot join tables of different databases (${[...dbs].sort().join(", ")})`);
  }
  const database = [...dbs][0] ?? (env.db === "information_schema" ? "public" : env.db);
  return { sql, hints, database, nameTypes, usesInfoSchema };
}

const AVERAGING = new Set([
  "avg",
  "mean",
  "stddev",
  "stddev_samp",
  "stddev_pop",
  "variance",
  "var_samp",
  "var_pop",
  "median",
  "approx_median",
  "approx_percentile_cont",
  "percentile_cont",
  "corr",
]);

const ARROW_TYPES: Record<string, DataType> = {
  int8: "Int8",
  int16: "Int16",
  int32: "Int32",
  int64: "Int64",
  uint8: "UInt8",
  uint16: "UInt16",
  uint32: "UInt32",
  uint64: "UInt64",
  float32: "Float32",
  float64: "Float64",
  utf8: "String",
  largeutf8: "String",
  boolean: "Boolean",
};

/** GreptimeDB's type for an Arrow type name given to arrow_cast. */
function arrowType(name: string): DataType | undefined {
  const ts = /^Timestamp\((\w+)/i.exec(name.trim());
  if (ts) {
    const unit = ({ second: "s", millisecond: "ms", microsecond: "us", nanosecond: "ns" } as const)[
      ts[1].toLowerCase() as "second"
    ];
    return unit ? timestampType(unit) : undefined;
  }
  return ARROW_TYPES[name.trim().toLowerCase()];
}

function originalText(sql: string, toks: Token[], s: number, e: number): string {
  const real = toks.slice(s, e).filter((t) => t.pos !== SYNTHETIC);
  if (real.length === 0) return "";
  const first = real[0], last = real[real.length - 1];
  return sql.slice(first.pos, last.pos + last.text.length);
}

function aliasOf(toks: Token[], s: number, e: number): { exprEnd: number; hasAlias: boolean } {
  if (e - s >= 3 && isKeyword(toks[e - 2], "AS")) return { exprEnd: e - 2, hasAlias: true };
  const last = toks[e - 1], prev = toks[e - 2];
  if (
    e - s >= 2 && last &&
    (last.kind === "qident" || (last.kind === "ident" && !NOT_ALIAS.has(last.text.toUpperCase()))) &&
    prev &&
    (isOp(prev, ")") || prev.kind === "ident" || prev.kind === "qident" || prev.kind === "number" ||
      prev.kind === "string") &&
    !isKeyword(prev, "DISTINCT", "NOT", "IS", "INTERVAL")
  ) return { exprEnd: e - 1, hasAlias: true };
  return { exprEnd: e, hasAlias: false };
}

/** The items of the first depth-0 SELECT list (after any WITH clause), as token ranges. */
function findTopSelect(toks: Token[], match: number[]): { items: Array<[number, number]> } | undefined {
  let i = 0;
  for (; i < toks.length; i++) {
    if (isOp(toks[i], "(")) i = match[i];
    else if (isKeyword(toks[i], "SELECT")) break;
  }
  if (i >= toks.length) return undefined;
  let s = i + 1;
  if (isKeyword(toks[s], "DISTINCT", "ALL")) s++;
  const items: Array<[number, number]> = [];
  let k = s;
  for (; k < toks.length; k++) {
    const t = toks[k];
    if (isOp(t, "(")) {
      k = match[k];
      continue;
    }
    if (
      isKeyword(
        t,
        "FROM",
        "WHERE",
        "GROUP",
        "ORDER",
        "LIMIT",
        "UNION",
        "EXCEPT",
        "INTERSECT",
        "HAVING",
        "WINDOW",
        "OFFSET",
        "ALIGN",
      )
    ) break;
    if (isOp(t, ",")) {
      items.push([s, k]);
      s = k + 1;
    }
  }
  if (k > s) items.push([s, k]);
  return items.length ? { items } : undefined;
}
