/**
 * The pieces of a `CREATE FLOW` both of its forms read (`flow_parse.ts`, `flow_general.ts`): the
 * window key `date_bin(INTERVAL …, <ts>)` / `date_trunc('<unit>', <ts>)`, intervals and string
 * literals.
 */
import { invalidArguments, unsupported } from "../common/errors.ts";
import { parseDuration } from "../common/humantime.ts";
import type { Cursor } from "./cursor.ts";
import { isOp } from "./lexer.ts";

/** A refusal of a part of a flow the engine does not compute (1001, naming it). */
export const refuse = (what: string) => unsupported(`Unsupported in CREATE FLOW: ${what}`);

/** `date_trunc` units of a fixed length (week, month, quarter and year follow the calendar). */
const TRUNC_UNITS: Record<string, number> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

/** The window function a call name is (`datetrunc` is DataFusion's alias of `date_trunc`), if any. */
export function windowFunction(name: string): "date_bin" | "date_trunc" | undefined {
  const fn = name.toLowerCase();
  return fn === "date_bin" ? fn : fn === "date_trunc" || fn === "datetrunc" ? "date_trunc" : undefined;
}

/** The arguments of a window call after its name: its length (ms) and the column it bins. */
export function windowCall(cur: Cursor, fn: string): { interval: number; ts: string } {
  cur.expectOp("(");
  let interval: number;
  if (fn === "date_bin") {
    interval = intervalMs(cur, "date_bin");
    cur.expectOp(",");
  } else {
    const unit = stringLiteral(cur, "date_trunc").toLowerCase();
    interval = TRUNC_UNITS[unit] ?? 0;
    if (interval === 0) {
      throw refuse(`date_trunc('${unit}', …) (calendar units; use second, minute, hour or day)`);
    }
    cur.expectOp(",");
  }
  const ts = columnRef(cur);
  if (isOp(cur.peek(), ",")) throw refuse(`${fn} with an origin (windows start at the Unix epoch)`);
  if (!cur.acceptOp(")")) throw refuse(`the arguments of ${fn}(…)`);
  if (interval < 1000 || interval % 1000 !== 0) {
    throw refuse(`a window of ${interval} ms (a whole number of seconds, at least 1 s)`);
  }
  return { interval, ts };
}

/** `INTERVAL '5 minutes'`, `INTERVAL '5' MINUTE`, `'5 minutes'::INTERVAL` or `'5 minutes'`, in ms. */
export function intervalMs(cur: Cursor, where: string): number {
  const keyword = cur.acceptKw("INTERVAL");
  let text = stringLiteral(cur, where);
  const unit = cur.peek();
  if (unit?.kind === "ident" && /^(second|minute|hour|day)s?$/i.test(unit.text)) {
    cur.next();
    text += ` ${unit.text.toLowerCase()}`;
  } else if (!keyword && cur.acceptOp("::")) cur.expectKw("INTERVAL"); // GreptimeDB's docs write '10s'::INTERVAL
  const ms = parseDuration(text);
  if (ms === null || ms <= 0) throw invalidArguments(`${where}: invalid interval '${text}'`);
  return ms;
}

/** A string literal, `where` naming what expected it. */
export function stringLiteral(cur: Cursor, where: string): string {
  const t = cur.next();
  if (t.kind !== "string") throw invalidArguments(`${where}: expected a string, found ${t.text}`);
  return t.value;
}

/** A column, possibly qualified by its table (`cpu.usage`): the column's name. */
export function columnRef(cur: Cursor): string {
  const parts = cur.objectName();
  return parts[parts.length - 1];
}
