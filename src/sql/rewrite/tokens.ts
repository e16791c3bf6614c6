/**
 * Rewrites of single tokens and short token runs whose meaning differs between GreptimeDB and
 * SQLite: string operands of arithmetic, time literals, regex and division operators,
 * `IS [NOT] DISTINCT FROM`, `INTERVAL '…'`, now(); function calls go to the call table.
 */
import { invalidArguments, PetrelError, StatusCode } from "../../common/errors.ts";
import { nsToUnit, timestampType } from "../../common/time_unit.ts";
import { isKeyword, isOp } from "../lexer.ts";
import { INTERVAL_UNITS, isOperandEnd, NOW_NAMES } from "../query_tokens.ts";
import { parseIntervalNs } from "../time.ts";
import { rewriteCall } from "./functions.ts";
import { decimalToken } from "./decimals.ts";
import { decimalArithmetic } from "./decimal_arith.ts";
import { dateIntervalArithmetic } from "./date_arith.ts";
import { quantifiedAsIn } from "./quantified.ts";
import { refuseIntervalScaling } from "./interval_arith.ts";
import { refuseNonBooleanTest } from "./boolean_tests.ts";
import type { RewriteCtx, TokenRewrite } from "./context.ts";

const NUMERIC_STRING = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/** The rewrite of the tokens starting at `i`, or undefined to copy token `i` as it is. */
export function rewriteToken(c: RewriteCtx, i: number): TokenRewrite | undefined {
  const t = c.toks[i];
  const arith = decimalArithmetic(c, i) ?? dateIntervalArithmetic(c, i);
  if (arith) return arith;
  if (t.kind === "string") return stringToken(c, i);
  if (t.kind === "op") return operatorToken(c, i);
  if (t.kind !== "ident" && t.kind !== "qident") return undefined;
  const dec = decimalToken(c, i);
  if (dec || t.kind !== "ident") return dec;
  return wordToken(c, i);
}

function stringToken(c: RewriteCtx, i: number): TokenRewrite | undefined {
  const { toks } = c;
  const t = toks[i];
  if (
    isOp(toks[i + 1], "+", "*", "/", "%") ||
    (isOp(toks[i - 1], "+", "-", "*", "/", "%") && isOperandEnd(toks[i - 2])) ||
    (isOp(toks[i + 1], "-") && !c.time.isTimeComparison(i))
  ) {
    // SQLite's affinity would read 'a' + 1 as 1; DataFusion fails the cast
    if (!NUMERIC_STRING.test(t.value)) {
      throw invalidArguments(`Cannot cast string '${t.value}' to a number for arithmetic`);
    }
  }
  if (!c.time.isTimeComparison(i)) return undefined;
  const unit = c.time.unitAt(i);
  const lit = c.time.timeLiteral(i, unit);
  if (lit !== undefined) return { text: lit, next: i + 1 };
  if (/^\s*-?\d+\s*$/.test(t.value)) return { text: t.value.trim(), next: i + 1 };
  throw invalidArguments(`Failed to cast '${t.value}' to ${timestampType(unit)}`);
}

function operatorToken(c: RewriteCtx, i: number): TokenRewrite | undefined {
  const { toks } = c;
  const t = toks[i];
  refuseIntervalScaling(c.q, i, c.time.columnTypeAt);
  const quantified = quantifiedAsIn(c, i);
  if (quantified) return quantified;
  if ((t.text === "/" || t.text === "%") && isOperandEnd(toks[i - 1])) {
    // SQLite answers NULL for a division by zero; GreptimeDB fails the query
    const end = c.q.primaryEnd(i + 1);
    if (end > i + 1) return { text: `${t.text} __petrel_nonzero(${c.emit(i + 1, end).trim()})`, next: end };
    return undefined;
  }
  if (t.text === "~" && isOperandEnd(toks[i - 1])) return { text: "REGEXP", next: i + 1 };
  if (t.text === "!~") return { text: "NOT REGEXP", next: i + 1 };
  if (t.text === "~*" || t.text === "!~*") {
    // SQLite's REGEXP has no flags: the pattern carries the case-insensitive mark (functions/regex.ts)
    const end = c.q.primaryEnd(i + 1);
    if (end <= i + 1) return undefined;
    const not = t.text === "!~*" ? "NOT " : "";
    return { text: `${not}REGEXP __petrel_icase(${c.emit(i + 1, end).trim()})`, next: end };
  }
  return undefined;
}

function wordToken(c: RewriteCtx, i: number): TokenRewrite | undefined {
  const { toks } = c;
  const t = toks[i];
  const word = t.text.toUpperCase();
  const not = (k: number) => (isKeyword(toks[k], "NOT") ? 1 : 0);
  if (word === "IS" && isKeyword(toks[i + 1], "DISTINCT") && isKeyword(toks[i + 2], "FROM")) {
    return { text: "IS NOT", next: i + 3 };
  }
  if (
    word === "IS" && isKeyword(toks[i + 1], "NOT") && isKeyword(toks[i + 2], "DISTINCT") &&
    isKeyword(toks[i + 3], "FROM")
  ) {
    return { text: "IS", next: i + 4 };
  }
  if (word === "IS") refuseNonBooleanTest({ q: c.q, columnTypeAt: c.time.columnTypeAt }, i);
  // DataFusion's IS [NOT] UNKNOWN of a boolean is IS [NOT] NULL
  if (word === "IS" && isKeyword(toks[i + 1 + not(i + 1)], "UNKNOWN")) {
    return { text: not(i + 1) ? "IS NOT NULL" : "IS NULL", next: i + 2 + not(i + 1) };
  }
  if (word === "SIMILAR" && isKeyword(toks[i + 1], "TO") && i > 0) return similarTo(c, i);
  if (word === "INTERVAL" && toks[i + 1]?.kind === "string") {
    const unitWord = toks[i + 2]?.kind === "ident" && INTERVAL_UNITS.has(toks[i + 2].text.toUpperCase())
      ? toks[i + 2].text
      : undefined;
    const ns = parseIntervalNs(toks[i + 1].value, unitWord?.toLowerCase());
    return { text: nsToUnit(ns, c.time.unitAt(i)).toString(), next: i + (unitWord ? 3 : 2) };
  }
  const isCall = isOp(toks[i + 1], "(");
  const name = t.text.toLowerCase();
  if (NOW_NAMES.has(name) && (isCall || name !== "now")) {
    const next = isCall ? c.q.match[i + 1] + 1 : i + 1;
    return { text: `__petrel_now('${c.time.unitAt(i)}')`, next };
  }
  if ((name === "current_date" || name === "current_time") && (!isCall || c.q.match[i + 1] === i + 2)) {
    // SQLite's own CURRENT_DATE is text; DataFusion's is a Date (days since the epoch)
    return { text: `__petrel_${name}()`, next: isCall ? i + 3 : i + 1 };
  }
  // DataFusion's today() is its current_date()
  if (name === "today" && isCall && c.q.match[i + 1] === i + 2) {
    return { text: "__petrel_current_date()", next: i + 3 };
  }
  return isCall ? rewriteCall(c, i) : undefined;
}

/**
 * `x [NOT] SIMILAR TO p`: DataFusion plans it as the regex match `x [!]~ p` (its `similar_to` builds
 * the same binary expression), so `p` is a Rust regex matched anywhere in `x`. An ESCAPE clause is
 * refused as DataFusion's physical planner refuses it.
 */
function similarTo(c: RewriteCtx, i: number): TokenRewrite {
  const end = c.q.primaryEnd(i + 2);
  if (isKeyword(c.toks[end], "ESCAPE")) {
    throw new PetrelError(
      StatusCode.PlanQuery,
      "Failed to plan SQL: Execution error: SIMILAR TO does not support escape_char yet",
    );
  }
  return { text: "REGEXP", next: i + 2 };
}
