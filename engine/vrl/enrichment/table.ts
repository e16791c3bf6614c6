/**
 * An enrichment table in memory and Vector's row matching (`src/enrichment_tables/file.rs`): a row
 * matches when every condition holds; equality compares values of the same kind (strings ignoring
 * case when asked), and a row whose cell equals the wildcard matches any value; date conditions test
 * a timestamp cell against `from`/`to`, both inclusive.
 */

import { type VrlObject, VrlTimestamp, type VrlValue } from "../value.ts";

/** One condition of a lookup (Vector's `Condition`). */
export type Condition =
  | { kind: "equals"; field: string; value: VrlValue }
  | { kind: "dates"; field: string; from?: bigint; to?: bigint };

/** A lookup: the conditions, case sensitivity, selected columns and wildcard. */
export interface Lookup {
  conditions: Condition[];
  caseSensitive: boolean;
  select?: string[];
  wildcard?: VrlValue;
}

/** What the enrichment functions read: a CSV table (`EnrichmentTable`) or a MaxMind DB (`mmdb.ts`). */
export interface LookupTable {
  readonly name: string;
  /** The error `get_enrichment_table_record` gives when nothing matches. */
  readonly notFound: string;
  /** Every matching row as objects of the selected columns; throws a `VrlFailure` for a bad lookup. */
  find(q: Lookup): VrlObject[];
}

/** A loaded CSV table: column names and typed rows. */
export class EnrichmentTable implements LookupTable {
  readonly notFound = "no rows found";
  /** Hash indexes over equality fields, built on first use: `case|field,field` → key → row numbers. */
  private readonly indexes = new Map<string, Map<string, number[]>>();
  private readonly columns: Map<string, number>;

  constructor(readonly name: string, readonly headers: string[], readonly rows: VrlValue[][]) {
    this.columns = new Map(headers.map((h, i) => [h, i]));
  }

  /** Every matching row, in file order, as objects of the selected columns. */
  find(q: Lookup): VrlObject[] {
    return this.candidates(q).filter((r) => this.matches(r, q)).map((r) => this.project(r, q.select));
  }

  /** The rows worth testing: an index hit when the lookup has equality fields and no wildcard. */
  private candidates(q: Lookup): VrlValue[][] {
    const eq = q.conditions.filter((c) => c.kind === "equals");
    if (eq.length === 0 || q.wildcard !== undefined) return this.rows;
    const fields = eq.map((c) => c.field).sort();
    const cols = fields.map((f) => this.columns.get(f));
    if (cols.some((c) => c === undefined)) return [];
    const values = new Map(eq.map((c) => [c.field, c.value]));
    const key = rowKey(fields.map((f) => values.get(f)!), q.caseSensitive);
    if (key === undefined) return [];
    const id = `${q.caseSensitive}|${fields.join(",")}`;
    let index = this.indexes.get(id);
    if (!index) {
      index = new Map();
      this.rows.forEach((row, n) => {
        const k = rowKey(cols.map((c) => row[c!]), q.caseSensitive);
        if (k === undefined) return;
        const list = index!.get(k);
        if (list) list.push(n);
        else index!.set(k, [n]);
      });
      this.indexes.set(id, index);
    }
    return (index.get(key) ?? []).map((n) => this.rows[n]);
  }

  private matches(row: VrlValue[], q: Lookup): boolean {
    return q.conditions.every((c) => {
      const idx = this.columns.get(c.field);
      if (idx === undefined) return false;
      const cell = row[idx];
      if (c.kind === "dates") {
        if (!(cell instanceof VrlTimestamp)) return false;
        return (c.from === undefined || c.from <= cell.ns) && (c.to === undefined || cell.ns <= c.to);
      }
      if (cellEquals(cell, c.value, q.caseSensitive)) return true;
      return q.wildcard !== undefined && cellEquals(cell, q.wildcard, q.caseSensitive);
    });
  }

  private project(row: VrlValue[], select: string[] | undefined): VrlObject {
    const out: VrlObject = new Map();
    this.headers.forEach((h, i) => {
      if (!select || select.includes(h)) out.set(h, row[i]);
    });
    return out;
  }
}

/** VRL's value equality for table cells (kinds must agree); strings fold case when not sensitive. */
function cellEquals(cell: VrlValue, v: VrlValue, caseSensitive: boolean): boolean {
  if (typeof cell === "string" && typeof v === "string") {
    return caseSensitive ? cell === v : cell.toLowerCase() === v.toLowerCase();
  }
  if (cell instanceof VrlTimestamp) return v instanceof VrlTimestamp && v.ns === cell.ns;
  return typeof cell === typeof v && cell === v;
}

/** The index key of some values, or undefined for a value no cell can equal (objects, arrays, regexes). */
function rowKey(values: VrlValue[], caseSensitive: boolean): string | undefined {
  const parts: string[] = [];
  for (const v of values) {
    switch (typeof v) {
      case "string":
        parts.push("s" + (caseSensitive ? v : v.toLowerCase()));
        continue;
      case "bigint":
        parts.push("i" + v);
        continue;
      case "number":
        parts.push("f" + v);
        continue;
      case "boolean":
        parts.push("b" + v);
        continue;
    }
    if (v === null) parts.push("n");
    else if (v instanceof VrlTimestamp) parts.push("t" + v.ns);
    else return undefined;
  }
  return parts.join("\u0000");
}
