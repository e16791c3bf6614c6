/**
 * `get_enrichment_table_record` and `find_enrichment_table_records`, as Vector's `lib/enrichment`
 * defines them: `table` must be a literal naming a configured table (E610 otherwise), `condition` an
 * object whose entries are equalities or date ranges (`{"from": t, "to": t}`, either end optional),
 * `select` the columns to return, `case_sensitive` a literal boolean, `wildcard` a cell value that
 * matches anything. `get_` fails unless exactly one row matches.
 */

import { type ArgInfo, type FnDef, opt, req, typeError } from "../stdlib/def.ts";
import { K, type TypeDef } from "../types.ts";
import { type VrlObject, VrlTimestamp, type VrlValue } from "../value.ts";
import { VrlFailure } from "../diagnostic.ts";
import { enrichmentTable, enrichmentTableNames } from "./registry.ts";
import type { Condition, Lookup } from "./table.ts";

const PARAMS = [
  req("table", K.BYTES),
  req("condition", K.OBJECT),
  opt("select", K.ARRAY),
  opt("case_sensitive", K.BOOLEAN),
  opt("wildcard", K.BYTES),
];

/** VRL's compile-time checks: a known table by literal name, a literal `case_sensitive`. */
function checkArgs(a: (ArgInfo | undefined)[]): string | undefined {
  const table = a[0]?.constant?.value;
  const names = enrichmentTableNames();
  if (typeof table !== "string") {
    return `argument "table" must be a literal string naming an enrichment table`;
  }
  if (!names.includes(table)) {
    const known = names.length
      ? `expected one of: ${names.map((n) => JSON.stringify(n)).join(", ")}`
      : "no enrichment tables are configured";
    return `invalid enum variant for argument "table": received ${JSON.stringify(table)}, ${known}`;
  }
  if (a[3] && typeof a[3].constant?.value !== "boolean") {
    return `argument "case_sensitive" must be a literal boolean`;
  }
}

/** Runs the lookup a call describes. */
function lookup(args: (VrlValue | undefined)[]): { rows: VrlObject[]; notFound: string } {
  const [table, condition, select, caseSensitive, wildcard] = args;
  const t = enrichmentTable(table as string);
  if (!t) throw new VrlFailure(`enrichment table "${table}" is not loaded`);
  const q: Lookup = {
    conditions: [...(condition as VrlObject)].map(([field, v]) => conditionOf(field, v)),
    caseSensitive: caseSensitive !== false,
    select: Array.isArray(select) ? select.map(selectName) : undefined,
    wildcard: wildcard ?? undefined,
  };
  return { rows: t.find(q), notFound: t.notFound };
}

/** Vector's `evaluate_condition`: an object with `from` and/or `to` is a date range, anything else equality. */
function conditionOf(field: string, v: VrlValue): Condition {
  if (v instanceof Map && (v.has("from") || v.has("to"))) {
    const end = (name: "from" | "to") => {
      if (!v.has(name)) return undefined;
      const x = v.get(name);
      if (!(x instanceof VrlTimestamp)) throw new VrlFailure(`${name} in condition must be a timestamp`);
      return x.ns;
    };
    return { kind: "dates", field, from: end("from"), to: end("to") };
  }
  return { kind: "equals", field, value: v };
}

function selectName(v: VrlValue): string {
  if (typeof v !== "string") throw new VrlFailure(typeError(K.BYTES, v));
  return v;
}

const ROWS: TypeDef = { kind: K.ARRAY, items: { kind: K.OBJECT } };

/** The enrichment-table functions. */
export const ENRICHMENT_FNS: Record<string, FnDef> = {
  get_enrichment_table_record: {
    params: PARAMS,
    fallible: true,
    fresh: true,
    returns: K.OBJECT,
    check: checkArgs,
    call: (args) => {
      const { rows, notFound } = lookup(args);
      if (rows.length > 1) throw new VrlFailure("More than 1 row found");
      if (rows.length === 0) throw new VrlFailure(notFound);
      return rows[0];
    },
  },
  find_enrichment_table_records: {
    params: PARAMS,
    fallible: true,
    fresh: true,
    returns: ROWS,
    check: checkArgs,
    call: (args) => lookup(args).rows,
  },
};
