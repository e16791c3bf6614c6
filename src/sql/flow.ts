/**
 * The flow statements: `CREATE FLOW`, `DROP FLOW [IF EXISTS]`, `SHOW FLOWS [LIKE …]`,
 * `SHOW CREATE FLOW` (`ADMIN FLUSH_FLOW` is in `admin.ts`). Creating and dropping need the
 * server's flows (`src/downsample/flows.ts`), handed in by the caller; the listings read the stored
 * flows (`greptime_private.flows`).
 */
import { PetrelError, StatusCode, unsupported } from "../common/errors.ts";
import { formatDuration } from "../common/humantime.ts";
import type { QueryOutput, Value } from "../common/rows.ts";
import { listFlows } from "../downsample/flow_store.ts";
import type { FlowSpec } from "../downsample/flow_spec.ts";
import type { FlowService } from "../downsample/flows.ts";
import type { Storage } from "../storage/mod.ts";
import { Cursor } from "./cursor.ts";
import type { Session } from "./ddl.ts";
import { isKeyword, type Token } from "./lexer.ts";
import { filterShow } from "./mod.ts";
import { flowName, parseCreateFlow } from "./flow_parse.ts";
import { stringRecords } from "./show.ts";

/** What the flow statements change through: the server's flows. */
export type FlowCatalog = Pick<FlowService, "create" | "drop" | "flush">;

/** Whether a statement is one of the flow statements. */
export function isFlowStatement(tokens: Token[]): boolean {
  const [a, b, c, d] = tokens;
  if (isKeyword(a, "CREATE")) return isKeyword(b, "FLOW") || isKeyword(b, "OR") && isKeyword(d, "FLOW");
  if (isKeyword(a, "DROP")) return isKeyword(b, "FLOW");
  return isKeyword(a, "SHOW") && (isKeyword(b, "FLOWS") || isKeyword(b, "CREATE") && isKeyword(c, "FLOW"));
}

/** Runs a flow statement; `flows` absent (an internal caller) refuses the changing ones. */
export async function executeFlowStatement(
  storage: Storage,
  tokens: Token[],
  sql: string,
  session: Session,
  flows: FlowCatalog | undefined,
): Promise<QueryOutput> {
  const cur = new Cursor(tokens, sql);
  const need = (): FlowCatalog => {
    if (flows === undefined) throw unsupported("Flow statements are not available here");
    return flows;
  };
  if (isKeyword(tokens[0], "CREATE")) {
    const { spec, orReplace, ifNotExists } = parseCreateFlow(tokens, sql, session.db);
    await need().create(spec, { orReplace, ifNotExists });
    // GreptimeDB answers `Affected Rows: 0`, as for CREATE TABLE
    return { kind: "affected", rows: 0 };
  }
  if (cur.acceptKw("DROP", "FLOW")) {
    const ifExists = cur.acceptKw("IF", "EXISTS");
    const name = flowName(cur);
    cur.expectEnd();
    await need().drop(name, ifExists);
    return { kind: "affected", rows: 0 };
  }
  if (cur.acceptKw("SHOW", "FLOWS")) {
    if (cur.acceptKw("FROM") || cur.acceptKw("IN")) cur.ident("a database name");
    const rows = listFlows(storage).map((f): Value[] => [f.spec.name]);
    return stringRecords(["Flows"], filterShow(storage, cur, session, ["Flows"], rows));
  }
  if (cur.acceptKw("SHOW", "CREATE", "FLOW")) {
    const name = flowName(cur);
    cur.expectEnd();
    const flow = listFlows(storage).find((f) => f.spec.name === name);
    if (flow === undefined) {
      throw new PetrelError(StatusCode.FlowNotFound, `Flow not found: greptime.${name}`);
    }
    return stringRecords(["Flow", "Create Flow"], [[name, renderCreateFlow(flow.spec)]]);
  }
  throw cur.error(`Expected: a flow statement, found: ${cur.describe()}`);
}

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** GreptimeDB's `SHOW CREATE FLOW` text. */
export function renderCreateFlow(spec: FlowSpec): string {
  const sink = spec.sinkDatabase === spec.database ? spec.sink : `${spec.sinkDatabase}.${spec.sink}`;
  const lines = [`CREATE FLOW IF NOT EXISTS ${spec.name}`, `SINK TO ${sink}`];
  if (spec.expireAfter !== null) lines.push(`EXPIRE AFTER ${quote(formatDuration(spec.expireAfter))}`);
  if (spec.evalInterval !== undefined) {
    lines.push(`EVAL INTERVAL ${quote(formatDuration(spec.evalInterval))}`);
  }
  if (spec.comment !== "") lines.push(`COMMENT ${quote(spec.comment)}`);
  lines.push(`AS ${spec.query}`);
  return lines.join("\n");
}
