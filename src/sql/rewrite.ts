/**
 * Rewrites a GreptimeDB-dialect query into SQLite SQL: table names are resolved through the catalog
 * (quoted, ttl-filtered), `::` casts, `interval '…'`, timestamp strings compared with time columns
 * and time functions become integers or user functions in the unit of the time column they meet.
 */
import type { DataType } from "../common/rows.ts";
import { isTimestampType } from "../storage/datatypes.ts";
import type { Storage, TableMeta } from "../storage/mod.ts";
import { nullTagColumns, quoteIdent, quoteString } from "../storage/table.ts";
import { invalidArguments, PetrelError, StatusCode, unsupported } from "../common/errors.ts";
import type { Token } from "./lexer.ts";
import { isKeyword, isOp } from "./lexer.ts";
import { resolveTableRef, tableRefSql } from "./catalog_view.ts";
import { parseIntervalNs, parseTimestampIn } from "./time.ts";
import { Cursor } from "./cursor.ts";
import { FIXED_TRUNC_NS, fixedOffsetMinutes, NUMERIC_AGGREGATES, orderByNulls } from "./dialect_rules.ts";
import type { OutputContext } from "./output_columns.ts";
import { itemHint, outputName } from "./output_columns.ts";
import {
  aliasOf,
  CMP_OPS,
  errorAt,
  findTopSelect,
  INTERVAL_UNITS,
  isOperandEnd,
  NOT_ALIAS,
  NOW_NAMES,
  originalText,
  QueryTokens,
  SEPARATORS,
  SYNTHETIC,
} from "./query_tokens.ts";
import { NS_PER_UNIT, nsToUnit, timestampType, type TimeUnit, unitOf } from "../common/time_unit.ts";

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

/** Rewrites the tokens of one query (or of a DELETE's WHERE clause). */
export function rewriteQuery(tokensIn: Token[], env: RewriteEnv): Rewritten {
  const cursor = new Cursor(tokensIn, env.sql);
  const q = new QueryTokens(tokensIn, cursor);
  const { toks, match, parent, lower, funcOf, args, primaryEnd } = q;
  const n = toks.length;
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
  let usesNumbers = false;
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
      if (resolved.kind === "numbers") usesNumbers = true;
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
  if (usesNumbers) colTypes.set("number", "UInt32");
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

  const nullsOrder = orderByNulls(q);
  // LIKE is case-sensitive (as in DataFusion; the connection sets case_sensitive_like), so ILIKE
  // compares lowercased operands
  const lazy = new Map<number, { end: number; render: () => string }>();
  const active = new Set<number>();
  for (let k = 0; k < n; k++) {
    if (!isKeyword(toks[k], "ILIKE")) continue;
    const negated = isKeyword(toks[k - 1], "NOT");
    const leftEnd = negated ? k - 1 : k;
    const start = q.primaryStart(leftEnd);
    const end = primaryEnd(k + 1);
    if (start === leftEnd || end === k + 1) throw errorAt(cursor, toks[k], "Expected: operands around ILIKE");
    lazy.set(start, {
      end,
      render: () => {
        active.add(start);
        try {
          const left = emit(start, leftEnd).trim();
          return `lower(${left}) ${negated ? "NOT " : ""}LIKE lower(${emit(k + 1, end).trim()})`;
        } finally {
          active.delete(start);
        }
      },
    });
  }
  const emit = (a: number, b: number): string => {
    let out = "";
    for (let i = a; i < b;) {
      const l = active.has(i) ? undefined : lazy.get(i);
      const r = l ? { end: l.end, text: l.render() } : replacements.get(i);
      const s = r ? undefined : special(i);
      const next = r ? r.end : s ? s.next : i + 1;
      out += gap(i) + (r ? r.text : s ? s.text : tokenText(toks[i]));
      for (let k = i; k < next; k++) {
        const suffix = nullsOrder.get(k);
        if (suffix) out += suffix;
      }
      i = next;
    }
    return out;
  };

  const special = (i: number): { text: string; next: number } | undefined => {
    const t = toks[i];
    const unit = unitAt(i);
    if (
      t.kind === "string" &&
      (isOp(toks[i + 1], "+", "*", "/", "%") ||
        (isOp(toks[i - 1], "+", "-", "*", "/", "%") && isOperandEnd(toks[i - 2])) ||
        (isOp(toks[i + 1], "-") && !isTimeComparison(i)))
    ) {
      // SQLite's affinity would read 'a' + 1 as 1; DataFusion fails the cast
      if (!/^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(t.value)) {
        throw invalidArguments(`Cannot cast string '${t.value}' to a number for arithmetic`);
      }
    }
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
    if (
      ["database", "current_schema", "current_database", "schema"].includes(name) && match[i + 1] === i + 2
    ) {
      return { text: quoteString(env.db), next: i + 3 };
    }
    const open = i + 1;
    const close = match[open];
    const a = args(open);
    if (NUMERIC_AGGREGATES.has(name) && a.length === 1 && a[0][1] - a[0][0] === 1) {
      const argType = colTypes.get(lower(toks[a[0][0]]));
      if (argType === "String" || argType === "Binary" || argType === "Json") {
        throw new PetrelError(
          StatusCode.PlanQuery,
          `Failed to plan SQL: The function '${name}' does not support inputs of type ${argType}`,
        );
      }
    }
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
        const operand = emit(open + 1, as).trim();
        const numericOperand = as === open + 2 &&
          (toks[open + 1].kind === "number" ||
            ((toks[open + 1].kind === "ident" || toks[open + 1].kind === "qident") &&
              /^(U?Int|Float|Boolean|Timestamp|Date)/.test(colTypes.get(lower(toks[open + 1])) ?? "")));
        if (mapped === "TEXT" || numericOperand) {
          return { text: `CAST(${operand} AS ${mapped})`, next: close + 1 };
        }
        // SQLite casts 'abc' to 0; DataFusion fails
        return { text: `__petrel_cast_number(${operand}, '${mapped}')`, next: close + 1 };
      }
      case "date_bin": {
        let stride: string | undefined;
        if (a[0] && a[0][1] - a[0][0] === 1 && toks[a[0][0]].kind === "string") {
          // DataFusion coerces a string stride to an interval
          stride = nsToUnit(parseIntervalNs(toks[a[0][0]].value), unit).toString();
        }
        let origin = "";
        if (a[2]) {
          const lit = a[2][1] - a[2][0] === 1 ? timeLiteral(a[2][0], unit) : undefined;
          origin = `, ${lit ?? e(2)}`;
        }
        const interval = stride ?? e(0);
        if (/^-?\d+$/.test(interval) && BigInt(interval) <= 0n) {
          throw invalidArguments(`date_bin stride must be a positive interval, got ${interval}`);
        }
        if (/^\d+$/.test(interval) && BigInt(interval) > 0n) {
          // plain integer arithmetic: a user function per row costs several times more
          const x = `(${e(1)})`, o = origin ? `(${origin.slice(2)})` : "0";
          return {
            text: `(${x} - (((${x} - ${o}) % ${interval}) + ${interval}) % ${interval})`,
            next: close + 1,
          };
        }
        return { text: `__petrel_date_bin(${interval}, ${e(1)}${origin})`, next: close + 1 };
      }
      case "date_trunc": {
        const field = a[0] && a[0][1] - a[0][0] === 1 && toks[a[0][0]].kind === "string"
          ? toks[a[0][0]].value.toLowerCase().replace(/s$/, "")
          : undefined;
        const perField = field === undefined ? undefined : FIXED_TRUNC_NS[field];
        const offsetMin = fixedOffsetMinutes(env.timezone);
        if (perField !== undefined && offsetMin !== undefined) {
          const d = perField / NS_PER_UNIT[unit];
          if (d <= 1n) return { text: `(${e(1)})`, next: close + 1 };
          const off = (BigInt(offsetMin) * 60_000_000_000n) / NS_PER_UNIT[unit];
          const x = `(${e(1)})`;
          return { text: `(${x} - (((${x} + ${off}) % ${d}) + ${d}) % ${d})`, next: close + 1 };
        }
        return { text: `__petrel_date_trunc(${e(0)}, ${e(1)}, '${unit}', ${tz})`, next: close + 1 };
      }
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
  const outCtx: OutputContext = { q, relations, colTypes, isTsColumn, unitAt };
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
        : outputName(outCtx, s, exprEnd, original, rewritten !== plain);
      out += itemText + (name !== undefined ? ` AS ${quoteIdent(name)}` : "");
      if (toks.slice(s, e).some((t) => isOp(t, "*")) && e - s <= 3) starSeen = true;
      if (!starSeen) hints[idx] = itemHint(outCtx, s, exprEnd);
    });
    out += emit(top.items[top.items.length - 1][1], n);
    sql = out;
  } else sql = emit(0, n);

  const nameTypes = new Map<string, DataType>();
  if (usesNumbers) nameTypes.set("number", "UInt32");
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
