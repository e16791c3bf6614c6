/**
 * The sliver of InfluxQL that line-protocol shippers send to an InfluxDB 1.x `/query` at start-up:
 * Telegraf's `outputs.influxdb` runs `CREATE DATABASE "<db>"` before its first write (and again when a
 * write answers "database not found"), and tools list databases with `SHOW DATABASES`. Anything else
 * is refused by name: Petrel queries through SQL and PromQL, not InfluxQL.
 */
import { invalidArguments } from "../../common/errors.ts";

/** One statement of the subset. */
export type InfluxQlStatement =
  | { kind: "create_database"; name: string }
  | { kind: "show_databases" };

/** What a statement needs of the user: creating writes, listing reads. */
export function accessOf(statement: InfluxQlStatement): "read" | "write" {
  return statement.kind === "create_database" ? "write" : "read";
}

/** Splits `q` into statements (`;`-separated, outside quotes) and parses each; a 400 names the first bad one. */
export function parseInfluxQl(q: string | null): InfluxQlStatement[] {
  if (q === null || q.trim() === "") throw invalidArguments('missing required parameter "q"');
  return splitStatements(q).map(parseStatement);
}

function splitStatements(q: string): string[] {
  const out: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (let i = 0; i < q.length; i++) {
    const c = q[i];
    if (quote !== null) {
      current += c;
      if (c === "\\" && i + 1 < q.length) current += q[++i];
      else if (c === quote) quote = null;
    } else if (c === ";") {
      out.push(current);
      current = "";
    } else {
      if (c === '"' || c === "'") quote = c;
      current += c;
    }
  }
  out.push(current);
  return out.map((s) => s.trim()).filter((s) => s !== "");
}

function parseStatement(text: string): InfluxQlStatement {
  if (/^show\s+databases$/i.test(text)) return { kind: "show_databases" };
  const create = /^create\s+database\s+(.+)$/is.exec(text);
  if (create) return { kind: "create_database", name: identifier(create[1].trim(), text) };
  throw invalidArguments(
    `error parsing query: unsupported InfluxQL statement: ${text}; ` +
      "Petrel's /query runs only CREATE DATABASE and SHOW DATABASES (query with SQL or PromQL)",
  );
}

/** A bare identifier, or a double-quoted one with `\"` and `\\` escapes; a `WITH …` clause is refused. */
function identifier(s: string, statement: string): string {
  if (s.startsWith('"')) {
    const m = /^"((?:[^"\\]|\\.)*)"$/s.exec(s);
    if (m) return m[1].replace(/\\(.)/gs, "$1");
  } else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s)) return s;
  throw invalidArguments(
    `error parsing query: expected a database name in ${statement} (retention policy clauses are not supported)`,
  );
}

/** The InfluxDB 1.x answer to the statements: one result per statement, in order. */
export function influxQlResults(results: ({ databases: string[] } | null)[]): unknown {
  return {
    results: results.map((r, i) =>
      r === null ? { statement_id: i } : {
        statement_id: i,
        series: [{ name: "databases", columns: ["name"], values: r.databases.map((d) => [d]) }],
      }
    ),
  };
}
