/**
 * COPY … FROM's text readers: CSV (RFC 4180, a header row of column names, CRLF or LF) and JSON
 * lines, read in 1 MiB chunks with synchronous reads, so an import's single transaction never
 * waits on I/O with other requests' writes queued behind it, and a large file is never held whole.
 */
import { invalidArguments } from "../../common/errors.ts";
import type { Value } from "../../common/rows.ts";
import { openToRead } from "./paths.ts";

const CHUNK = 1 << 20;

/** The decoded text of a file, chunk by chunk. */
function* textChunks(path: string): Generator<string> {
  const file = openToRead(path);
  try {
    const decoder = new TextDecoder();
    const buf = new Uint8Array(CHUNK);
    let first = true;
    for (;;) {
      const n = file.readSync(buf);
      if (n === null) break;
      let text = decoder.decode(buf.subarray(0, n), { stream: true });
      if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
      yield text;
    }
    const rest = decoder.decode();
    if (rest !== "") yield rest;
  } finally {
    file.close();
  }
}

/** A file's rows: the column names it has, then its rows aligned with them. */
export interface FileRows {
  names: string[];
  rows: Iterable<Value[]>;
}

/** CSV records, fields as text (an empty unquoted field is null, as Arrow's CSV reader reads it). */
function* csvRecords(path: string): Generator<Value[]> {
  let record: Value[] = [];
  let field = "";
  let quoted = false, inQuotes = false, pendingQuote = false, sawAny = false;
  const endField = () => {
    record.push(field === "" && !quoted ? null : field);
    field = "";
    quoted = false;
  };
  for (const chunk of textChunks(path)) {
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i];
      if (inQuotes) {
        if (pendingQuote) {
          pendingQuote = false;
          if (ch === '"') {
            field += '"';
            continue;
          }
          inQuotes = false; // the quote closed the field: fall through to read ch
        } else if (ch === '"') {
          pendingQuote = true;
          continue;
        } else {
          field += ch;
          continue;
        }
      }
      if (ch === '"' && field === "" && !quoted) {
        inQuotes = quoted = sawAny = true;
      } else if (ch === ",") {
        endField();
        sawAny = true;
      } else if (ch === "\n" || ch === "\r") {
        if (ch === "\r" && chunk[i + 1] === "\n") i++;
        if (sawAny || field !== "") {
          endField();
          yield record;
        }
        record = [];
        sawAny = false;
      } else {
        field += ch;
        sawAny = true;
      }
    }
  }
  if (inQuotes && !pendingQuote) {
    throw invalidArguments(`COPY FROM ${path}: unterminated quoted field at the end`);
  }
  if (sawAny || field !== "") {
    endField();
    yield record;
  }
}

/** A CSV file: its header row names the columns. */
export function readCsv(path: string): FileRows {
  const records = csvRecords(path);
  const head = records.next();
  if (head.done) return { names: [], rows: [] };
  const names = head.value.map((v) => String(v ?? ""));
  function* rows(): Generator<Value[]> {
    let row = 0;
    for (const r of records) {
      row++;
      if (r.length !== names.length) {
        throw invalidArguments(
          `COPY FROM ${path}: row ${row} has ${r.length} fields but the header has ${names.length}`,
        );
      }
      yield r;
    }
  }
  return { names, rows: rows() };
}

/** Keeps integers past 2^53 exact (epoch nanoseconds, UInt64) by reading their source text. */
function reviver(this: unknown, _key: string, value: unknown, context?: { source?: string }): unknown {
  if (
    typeof value === "number" && !Number.isSafeInteger(value) && context?.source &&
    /^-?\d+$/.test(context.source)
  ) {
    return BigInt(context.source);
  }
  return value;
}

function jsonValue(v: unknown): Value {
  if (v === null || v === undefined) return null;
  if (typeof v === "object") return JSON.stringify(v);
  return v as Value;
}

/** A JSON lines file read for the columns `names` (keys matched case-insensitively, missing ones null). */
export function readJsonLines(path: string, names: string[]): FileRows {
  const at = new Map<string, number>();
  names.forEach((n, j) => at.set(n, j));
  const lower = new Map<string, number>();
  names.forEach((n, j) => lower.has(n.toLowerCase()) || lower.set(n.toLowerCase(), j));
  function* rows(): Generator<Value[]> {
    let rest = "", line = 0;
    const parse = (text: string): Value[] | undefined => {
      line++;
      if (text.trim() === "") return undefined;
      let obj: unknown;
      try {
        obj = JSON.parse(text, reviver as (k: string, v: unknown) => unknown);
      } catch (e) {
        throw invalidArguments(`COPY FROM ${path}: line ${line} is not JSON: ${(e as Error).message}`);
      }
      if (typeof obj !== "object" || obj === null || Array.isArray(obj)) {
        throw invalidArguments(`COPY FROM ${path}: line ${line} is not a JSON object`);
      }
      const row: Value[] = new Array(names.length).fill(null);
      for (const [k, v] of Object.entries(obj)) {
        const j = at.get(k) ?? lower.get(k.toLowerCase());
        if (j !== undefined) row[j] = jsonValue(v);
      }
      return row;
    };
    for (const chunk of textChunks(path)) {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop()!;
      for (const l of lines) {
        const row = parse(l);
        if (row) yield row;
      }
    }
    const row = parse(rest);
    if (row) yield row;
  }
  return { names, rows: rows() };
}
