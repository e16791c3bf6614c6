/** What the parts of one query rewrite share: the request, the tokens and the time scope. */
import type { DecimalSpec } from "../../common/decimal.ts";
import type { DataType } from "../../common/rows.ts";
import type { TimeUnit } from "../../common/time_unit.ts";
import type { Storage, TableMeta } from "../../storage/mod.ts";
import type { Token } from "../lexer.ts";
import type { QueryTokens } from "../query_tokens.ts";
import type { PlannedView } from "./views.ts";

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
  /** The views being expanded around this query, outermost first (`greptime.db.name`). */
  views?: string[];
  /** The CTEs of the queries around this one, rewritten on their own (it may name them). */
  ctes?: readonly PlannedCte[];
}

/** A CTE rewritten on its own, so that a subquery rewritten apart from its query still sees it. */
export interface PlannedCte {
  /** Its lowercased name. */
  name: string;
  /** Its SQLite definition, `name(columns) AS (query)`, to prefix to a subquery that names it. */
  definition: string;
  planned: PlannedView;
}

/** The replacement of the tokens from some index up to (not including) `next`. */
export interface TokenRewrite {
  text: string;
  next: number;
}

/** How time literals and time columns are read in each expression segment of a query. */
export interface TimeScope {
  /** Types of the columns of every table in scope, by lowercased name. */
  colTypes: Map<string, DataType>;
  /** The type of the column token `i` names (`col`, or the `col` of `rel.col`), read through its scope. */
  columnTypeAt(i: number): DataType | undefined;
  /** The unit of the time column token `i` names, if it names one. */
  isTsColumn(i: number): TimeUnit | undefined;
  /** Whether the segment of token `i` names a time column. */
  hasTimeColumn(i: number): boolean;
  /** The unit time values take in the segment of token `i`. */
  unitAt(i: number): TimeUnit;
  /** Whether the string token `i` is compared with a time column (so it is a time literal). */
  isTimeComparison(i: number): boolean;
  /** The string token `i` as an integer in `unit`, when it parses as a timestamp. */
  timeLiteral(i: number, unit: TimeUnit): string | undefined;
}

/** What the token and function rewriters see of one query. */
export interface RewriteCtx {
  q: QueryTokens;
  toks: Token[];
  env: RewriteEnv;
  time: TimeScope;
  /** The session time zone as a SQL string literal. */
  tz: string;
  /** The rewritten SQL of tokens `a` up to (not including) `b`. */
  emit(a: number, b: number): string;
  /** Whether tokens `[s, e)` are the whole expression of an output column of the outermost SELECT. */
  isOutputItem(s: number, e: number): boolean;
  /** Whether tokens `[s, e)` are the whole expression of an item of a subquery's SELECT. */
  isSubqueryItem(s: number, e: number): boolean;
  /**
   * The unscaled-integer SQL and type of `[s, e)` when it is a decimal expression (`decimal_arith.ts`,
   * reached through the context: casts and calls inside decimal expressions hold decimals again).
   */
  decimalExprAt(s: number, e: number): { sql: string; spec: DecimalSpec } | undefined;
}
