/**
 * Calls the rewriter answers from the request or the query's shape rather than per row: the session
 * (`timezone()`, `build()`, `current_schemas(…)`), `isnull(x)` (an SQLite keyword), and
 * `date_add`/`date_sub`, whose interval argument is read as text so months stay calendar months.
 */
import { invalidArguments } from "../../common/errors.ts";
import { knownBuildInfo } from "../../build_info.ts";
import { quoteString } from "../../storage/table.ts";
import { isKeyword } from "../lexer.ts";
import { INTERVAL_UNITS } from "../query_tokens.ts";
import type { QueryTokens } from "../query_tokens.ts";
import type { DataType } from "../../common/rows.ts";
import type { RewriteCtx, TokenRewrite } from "./context.ts";

/** A call being rewritten: its name, brackets, argument ranges and rendered arguments. */
export interface SessionCall {
  name: string;
  open: number;
  close: number;
  args: Array<[number, number]>;
  unit: string;
  arg(k: number): string;
}

function arity(call: SessionCall, min: number, max = min): void {
  const n = call.args.length;
  if (n < min || n > max) {
    const want = min === max ? `${min}` : `${min} to ${max}`;
    throw invalidArguments(`Function '${call.name}' expects ${want} argument(s), got ${n}`);
  }
}

/** GreptimeDB's `build()` text: one `key: value` line per fact. */
function buildText(): string {
  const b = knownBuildInfo();
  const commit = b?.commit ?? "unknown";
  return [
    `branch: ${b?.branch ?? "unknown"}`,
    `commit: ${commit}`,
    `commit_short: ${commit === "unknown" ? commit : commit.slice(0, 8)}`,
    `version: ${b?.version ?? "unknown"}`,
  ].join("\n");
}

/** Calls whose result is a Date whatever their arguments. */
const DATE_CALLS = new Set(["to_date", "make_date", "current_date", "today"]);

/**
 * Whether the argument range is a DATE value: a Date column (`d`, `t.d`), a cast to DATE, a call
 * answering a Date (`to_date`, `date_add` of a date…).
 */
export function isDateArg(
  q: QueryTokens,
  columnTypeAt: (i: number) => DataType | undefined,
  [s, e]: [number, number],
): boolean {
  const { toks } = q;
  const last = toks[e - 1];
  const named = (k: number) => toks[k]?.kind === "ident" || toks[k]?.kind === "qident";
  if (named(e - 1) && (e - s === 1 || (e - s === 3 && named(s) && toks[s + 1].text === "."))) {
    return columnTypeAt(e - 1) === "Date" ||
      (e - s === 1 && last.kind === "ident" && last.text.toLowerCase() === "current_date");
  }
  if (isKeyword(last, "DATE") && toks[e - 2]?.text === "::") return true;
  if (
    isKeyword(toks[s], "CAST", "TRY_CAST") && isKeyword(toks[e - 2], "DATE") && isKeyword(toks[e - 3], "AS")
  ) {
    return true;
  }
  if (toks[s].kind === "ident" && toks[s + 1]?.text === "(" && q.match[s + 1] === e - 1) {
    const name = toks[s].text.toLowerCase();
    if (DATE_CALLS.has(name)) return true;
    const first = q.args(s + 1)[0];
    if ((name === "date_add" || name === "date_sub") && first) return isDateArg(q, columnTypeAt, first);
  }
  return isKeyword(toks[s], "DATE") && toks[s + 1]?.kind === "string" && e - s === 2;
}

/** The text of an interval argument: `INTERVAL '1 day'`, `INTERVAL '2' HOUR` or a string. */
function intervalText(c: RewriteCtx, [s, e]: [number, number], name: string): string {
  const { toks } = c;
  if (e - s === 1 && toks[s].kind === "string") return toks[s].value;
  if (isKeyword(toks[s], "INTERVAL") && toks[s + 1]?.kind === "string") {
    if (e - s === 2) return toks[s + 1].value;
    if (e - s === 3 && INTERVAL_UNITS.has(toks[s + 2].text.toUpperCase())) {
      return `${toks[s + 1].value} ${toks[s + 2].text}`;
    }
  }
  throw invalidArguments(`${name} expects an interval literal as its second argument (INTERVAL '1 day')`);
}

/** `date_add(t, INTERVAL …)` / `date_sub(…)`: the interval applied in the unit of `t` (days for a DATE). */
function dateShift(c: RewriteCtx, call: SessionCall): TokenRewrite {
  arity(call, 2);
  const sign = call.name === "date_sub" ? -1 : 1;
  const text = intervalText(c, call.args[1], call.name);
  const kind = isDateArg(c.q, c.time.columnTypeAt, call.args[0]) ? "date" : call.unit;
  return {
    text: `__petrel_date_add(${call.arg(0)}, ${quoteString(text)}, ${sign}, '${kind}', ${c.tz})`,
    next: call.close + 1,
  };
}

type SessionRewrite = (c: RewriteCtx, call: SessionCall) => TokenRewrite | undefined;

/** The session and shape-dependent calls, by name. */
export const SESSION_CALLS = new Map<string, SessionRewrite>([
  ["timezone", (c, call) => {
    arity(call, 0);
    return { text: c.tz, next: call.close + 1 };
  }],
  ["build", (_c, call) => {
    arity(call, 0);
    return { text: quoteString(buildText()), next: call.close + 1 };
  }],
  ["current_schemas", (c, call) => {
    arity(call, 1);
    const implicit = `(${call.arg(0)})`;
    const own = JSON.stringify([c.env.db]);
    const all = JSON.stringify([c.env.db, "information_schema", "pg_catalog"]);
    return {
      text: `(CASE WHEN ${implicit} IS NULL THEN NULL WHEN ${implicit} THEN ${quoteString(all)} ELSE ${
        quoteString(own)
      } END)`,
      next: call.close + 1,
    };
  }],
  ["isnull", (_c, call) => {
    arity(call, 1);
    return { text: `((${call.arg(0)}) IS NULL)`, next: call.close + 1 };
  }],
  ["date_add", dateShift],
  ["date_sub", dateShift],
]);
