/**
 * Vector's `mmdb` and `geoip` enrichment tables (`src/enrichment_tables/{mmdb,geoip}.rs`): a MaxMind DB
 * read once at start with `mmdb-lib`, looked up by one IP address. A lookup's condition must be exactly
 * one equality whose value parses as an IP address (its field name is not checked, as in Vector);
 * `case_sensitive` and `wildcard` mean nothing here. An address the database does not hold is no row.
 */

import { Buffer } from "node:buffer";
import { isIP } from "../../../src/common/ip_address.ts";
import { Reader } from "mmdb-lib";
import type { GeoipTableConfig, MmdbTableConfig } from "../../../src/config/enrichment_tables.ts";
import { VrlFailure } from "../diagnostic.ts";
import type { VrlObject, VrlValue } from "../value.ts";
import { markFloats, type MmdbRecord, toVrl } from "./mmdb_value.ts";
import type { Lookup, LookupTable } from "./table.ts";
import { geoipKind, geoipRecord } from "./geoip.ts";

/** One MaxMind DB as an enrichment table. */
export class MmdbTable implements LookupTable {
  /** Vector's geoip and mmdb tables say this, not the file table's "no rows found". */
  readonly notFound = "IP not found";

  private constructor(
    readonly name: string,
    private readonly reader: Reader<never>,
    private readonly shape: (record: MmdbRecord, select?: string[]) => VrlObject,
  ) {}

  /** Opens a configured `geoip` or `mmdb` table; throws an Error naming the table and file. */
  static async open(config: GeoipTableConfig | MmdbTableConfig): Promise<MmdbTable> {
    const where = `enrichment table "${config.name}" (${config.path})`;
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(config.path);
    } catch (e) {
      throw new Error(
        `${where}: ${e instanceof Deno.errors.NotFound ? "no such file" : (e as Error).message}`,
      );
    }
    let reader: Reader<never>;
    try {
      reader = new Reader(Buffer.from(bytes));
      markFloats(reader);
      // As Vector does: a lookup of 0.0.0.0 proves the tree and data section can be read.
      reader.get("0.0.0.0");
    } catch (e) {
      throw new Error(`${where}: not a MaxMind DB: ${(e as Error).message}`);
    }
    if (config.type === "mmdb") return new MmdbTable(config.name, reader, selectStored);
    const kind = geoipKind(reader.metadata.databaseType);
    return new MmdbTable(config.name, reader, (r, select) => geoipRecord(kind, r, config.locale, select));
  }

  /** `[]` or the one record of the condition's address (Vector's `find_table_rows`). */
  find(q: Lookup): VrlObject[] {
    const c = q.conditions;
    if (c.length === 0) throw new VrlFailure("IP condition must be specified");
    if (c.length > 1) throw new VrlFailure("Only one condition is allowed");
    if (c[0].kind !== "equals") throw new VrlFailure("Only equality condition is allowed");
    const ip = typeof c[0].value === "string" ? c[0].value : String(c[0].value);
    const version = ip.includes("%") ? 0 : isIP(ip);
    if (version === 0) throw new VrlFailure("Invalid IP address");
    // An IPv6 address cannot be looked up in an IPv4 tree (the Rust reader refuses; no row).
    if (version === 6 && this.reader.metadata.ipVersion === 4) return [];
    const record = this.reader.get(ip);
    return record === null ? [] : [this.shape(record, q.select)];
  }
}

/** Vector's `mmdb` table: the record as stored; `select` keeps those top-level keys, null when absent. */
function selectStored(record: MmdbRecord, select?: string[]): VrlObject {
  const value = toVrl(record);
  const all = value instanceof Map ? value : new Map<string, VrlValue>();
  if (!select) return all;
  return new Map(select.map((k) => [k, all.get(k) ?? null]));
}
