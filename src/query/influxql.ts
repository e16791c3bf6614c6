/** Runs the InfluxQL start-up statements of line-protocol shippers (see src/protocols/lineproto/influxql.ts). */
import type { InfluxQlStatement } from "../protocols/lineproto/influxql.ts";
import type { Storage } from "../storage/mod.ts";

/**
 * Runs each statement: `CREATE DATABASE` is idempotent, as in InfluxDB 1.x; `SHOW DATABASES` lists
 * them all. One entry per statement: the listed databases, or null.
 */
export function runInfluxQl(
  storage: Storage,
  statements: InfluxQlStatement[],
): ({ databases: string[] } | null)[] {
  return statements.map((st) => {
    if (st.kind === "show_databases") return { databases: storage.listDatabases() };
    storage.createDatabase(st.name, true);
    return null;
  });
}
