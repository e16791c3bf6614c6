/**
 * The `table` text format (GreptimeDB `http/result/table_result.rs`): a box-drawing table whose cells
 * are JSON renderings (strings keep their quotes).
 */
import type { QueryOutput } from "../../common/rows.ts";
import { cellEncoderFor } from "./json_text.ts";
import { CONTENT_TYPE, formatResponse, type LimitOptions, limitRows, singleOutput } from "./response.ts";

/** UTF-8 length of a string: GreptimeDB measures column widths with Rust's `str::len()` (bytes). */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff) {
      // A surrogate pair: 2 UTF-16 units, 4 bytes.
      i++;
      n += 2;
    } else n += 2;
  }
  return n;
}

/** Number of Unicode scalar values: Rust's `{:width$}` padding counts chars, not bytes. */
function charCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) i++;
    n++;
  }
  return n;
}

function padEnd(s: string, width: number, fill: string): string {
  const pad = width - charCount(s);
  return pad > 0 ? s + fill.repeat(pad) : s;
}

/** The table body of a single statement's output (empty when there is none). */
export function tableBody(output: QueryOutput | undefined, limit?: number): string {
  if (output === undefined) return "";
  if (output.kind === "affected") return `${output.rows}\n`;
  const columns = output.columns;
  const encoders = columns.map((c) => cellEncoderFor(c.data_type));
  const widths = columns.map((c) => utf8Length(c.name));
  const cells = limitRows(output.rows, limit).map((row) =>
    columns.map((_, i) => {
      const text = encoders[i](row[i] ?? null);
      const len = utf8Length(text);
      if (len > widths[i]) widths[i] = len;
      return text;
    })
  );
  let out = "┌" + columns.map((c, i) => "─" + padEnd(c.name, widths[i], "─") + "─").join("┬") + "┐\n";
  for (const row of cells) {
    out += "│" + row.map((text, i) => " " + padEnd(text, widths[i], " ") + " ").join("│") + "│\n";
  }
  out += "└" + widths.map((w) => "─".repeat(w + 2)).join("┴") + "┘\n";
  return out;
}

/** Renders a single statement as a box-drawing table; several statements are a 400. */
export function renderTable(outputs: QueryOutput[], opts: LimitOptions): Response {
  const body = tableBody(singleOutput(outputs, "table"), opts.limit);
  return formatResponse(body, CONTENT_TYPE.text, "table", opts.executionTimeMs);
}
