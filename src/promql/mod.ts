/**
 * The PromQL engine (Prometheus' `promql/` package): parse, print, prettify, evaluate.
 * Storage plugs in through {@link Queryable}; the HTTP layer renders {@link QueryResult}s with
 * {@link promQLResultJson} / {@link toPromQueryData} and errors by {@link promErrorType}.
 */
export type * from "./ast.ts";
export { type AstJson, astJson } from "./ast_json.ts";
export { formatPromTime, formatPromValue, promQLResultJson, toPromQueryData } from "./encode.ts";
export { type EngineOptions, PromQLEngine, type QueryOptions, rangeQueryTypeError } from "./engine.ts";
export { checkAbort, type PromErrorType, promErrorType, PromQLError } from "./errors.ts";
export { FUNCTIONS } from "./functions/mod.ts";
export { ParseError } from "./parse_error.ts";
export { parseExpr } from "./parser.ts";
export { type PlannedSelect, planSelects, type QueryFrame } from "./prepare.ts";
export { prettify } from "./prettify.ts";
export { exprString, selectorString } from "./printer.ts";
export { type RecordColumns, resultRecords } from "./records.ts";
export { MemoryQueryable, type Queryable, type SelectHints, type SelectRequest } from "./queryable.ts";
export type {
  Labels,
  MatrixResult,
  MatrixSeries,
  QueryResult,
  ScalarResult,
  StringResult,
  VectorResult,
  VectorSample,
} from "./values.ts";
