/**
 * `SET name = value` and `SHOW VARIABLES name` as GreptimeDB answers them over HTTP (operator's
 * `set_variables`, query's `show_variable`): the session variables it keeps, and 1001 for any other
 * name (only its Postgres channel lets unknown ones pass with a warning, only MySQL takes
 * MAX_EXECUTION_TIME and `@@` names, only Postgres STATEMENT_TIMEOUT and SEARCH_PATH).
 */
import { invalidArguments, unsupported } from "../common/errors.ts";
import type { QueryOutput } from "../common/rows.ts";
import type { Cursor } from "./cursor.ts";
import type { Token } from "./lexer.ts";
import type { Session } from "./ddl_syntax.ts";
import { stringRecords } from "./show.ts";
import { canonicalTimezone } from "./time.ts";

/** Postgres' DateStyle output styles and field orders, with the aliases of the order. */
const DATE_STYLES: Record<string, string> = {
  ISO: "ISO",
  SQL: "SQL",
  POSTGRES: "Postgres",
  GERMAN: "German",
};
const DATE_ORDERS: Record<string, string> = {
  MDY: "MDY",
  US: "MDY",
  NONEURO: "MDY",
  NONEUROPEAN: "MDY",
  DMY: "DMY",
  EURO: "DMY",
  EUROPEAN: "DMY",
  YMD: "YMD",
};
const DEFAULT_DATESTYLE = "ISO, MDY";

/** GreptimeDB's session `ReadPreference` values (snake_case, as `SHOW VARIABLES` prints them). */
const READ_PREFERENCES = ["leader", "follower", "follower_preferred"];
const DEFAULT_READ_PREFERENCE = "leader";

/** Runs `SET [SESSION|LOCAL] name {=|TO} value[, …]` or `SET TIME ZONE value` (the cursor is after SET). */
export function setVariable(cur: Cursor, session: Session): QueryOutput {
  cur.acceptKw("SESSION") || cur.acceptKw("LOCAL");
  let name: string;
  if (cur.acceptKw("TIME", "ZONE")) name = "TIMEZONE";
  else {
    const parts: string[] = [];
    while (!cur.atEnd && !cur.acceptOp("=") && !cur.acceptKw("TO")) parts.push(cur.next().text);
    name = parts.join("").toUpperCase();
  }
  if (!name) throw cur.error(`Expected: a variable name, found: ${cur.describe()}`);
  const tokens: Token[] = [];
  do tokens.push(cur.next()); while (cur.acceptOp(","));
  cur.expectEnd();
  const values = tokens.map((t) => t.value);
  switch (name) {
    case "READ_PREFERENCE":
      session.readPreference = readPreference(tokens[0]);
      break;
    case "TIMEZONE":
    case "TIME_ZONE":
      session.timezone = canonicalTimezone(one(name, values));
      break;
    case "DATESTYLE":
      session.datestyle = dateStyle(values, session.datestyle ?? DEFAULT_DATESTYLE);
      break;
    case "BYTEA_OUTPUT":
      if (!/^(hex|escape)$/i.test(one(name, values))) {
        throw invalidArguments(`Invalid value for BYTEA_OUTPUT: ${values[0]} (hex or escape)`);
      }
      break;
    case "ALLOW_QUERY_FALLBACK":
      if (!/^(true|false)$/i.test(one(name, values))) {
        throw invalidArguments(`Invalid value for ALLOW_QUERY_FALLBACK: ${values[0]} (true or false)`);
      }
      break;
    case "CLIENT_ENCODING": {
      const encoding = one(name, values).toUpperCase();
      if (encoding !== "UTF8" && encoding !== "UNICODE") {
        throw unsupported(`Not supported: client encoding of '${encoding}'`);
      }
      break;
    }
    default:
      throw unsupported(`Not supported: Unsupported set variable ${name}`);
  }
  return { kind: "affected", rows: 0 };
}

/** GreptimeDB's `SHOW VARIABLES <name>`: one String column named by the upper-cased variable. */
export function showVariable(name: string, session: Session): QueryOutput {
  const variable = name.toUpperCase();
  const system = session.systemTimezone || "UTC";
  let value: string;
  if (variable === "SYSTEM_TIME_ZONE" || variable === "SYSTEM_TIMEZONE") value = system;
  else if (variable === "TIME_ZONE" || variable === "TIMEZONE") value = session.timezone || system;
  else if (variable === "DATESTYLE") value = session.datestyle ?? DEFAULT_DATESTYLE;
  else if (variable === "READ_PREFERENCE") value = session.readPreference ?? DEFAULT_READ_PREFERENCE;
  // MAX_EXECUTION_TIME and STATEMENT_TIMEOUT are answered on GreptimeDB's MySQL and Postgres channels only
  else throw unsupported(`Unsupported show variable: ${variable}`);
  return stringRecords([variable], [[value]]);
}

/**
 * GreptimeDB's `set_read_preference`: the first value, a quoted string naming a preference in any
 * case; a bare word or an unknown name is 1001.
 */
function readPreference(token: Token): string {
  if (token.kind !== "string") {
    throw unsupported(
      `Not supported: Unsupported read preference expr ${token.text} in set variable statement`,
    );
  }
  const preference = token.value.toLowerCase();
  if (!READ_PREFERENCES.includes(preference)) {
    throw unsupported(`Not supported: Invalid read preference expr ${token.value} in set variable statement`);
  }
  return preference;
}

function one(name: string, values: string[]): string {
  if (values.length !== 1) throw invalidArguments(`SET ${name} takes one value, got ${values.length}`);
  return values[0];
}

/** The DateStyle after `SET DATESTYLE` (`'ISO, DMY'`, `ISO, DMY`, `'SQL'`): a part not given is kept. */
function dateStyle(values: string[], current: string): string {
  let [style, order] = current.split(", ");
  let seenStyle = false, seenOrder = false;
  for (const word of values.flatMap((v) => v.split(",")).map((w) => w.trim().toUpperCase())) {
    if (DATE_STYLES[word] && !seenStyle) [style, seenStyle] = [DATE_STYLES[word], true];
    else if (DATE_ORDERS[word] && !seenOrder) [order, seenOrder] = [DATE_ORDERS[word], true];
    else throw invalidArguments(`Invalid value for DateStyle: ${word || "''"}`);
  }
  return `${style}, ${order}`;
}
