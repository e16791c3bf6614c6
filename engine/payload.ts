/**
 * Log ingestion bodies by Content-Type (pipelines.md §12.7): a stream of JSON values, NDJSON, or
 * plain text lines, turned into the entries a pipeline runs over.
 */
import { invalidArguments } from "../src/common/errors.ts";
import { parseJsonText } from "../src/common/json_text.ts";

/** The content types `/v1/ingest` accepts. */
const INGEST_TYPES = ["application/json", "application/x-ndjson", "text/plain"];

/**
 * What happens to an entry that cannot be used (an NDJSON line that does not parse, a scalar in a
 * JSON stream): it fails the request, is dropped silently (`ignore_errors`), or is dropped and
 * counted (`skip_error`).
 */
type OnBad = "fail" | "ignore" | { skipped: number };

/** Parses a body into entries; `ignoreErrors` keeps what parses instead of failing. */
export function parsePayload(body: string, contentType: string, ignoreErrors = false): unknown[] {
  return parse(body, contentType, ignoreErrors ? "ignore" : "fail");
}

/**
 * Parses a body for a `skip_error` request: the spec skips "entries that fail", so an unusable entry
 * that is delimited on its own (an NDJSON line, a scalar value in a JSON stream) is dropped and
 * counted rather than failing the request (GreptimeDB fails it). A JSON syntax error in an
 * `application/json` body still fails: where the next entry begins is unknown.
 */
export function parsePayloadSkipping(
  body: string,
  contentType: string,
  ignoreErrors = false,
): { entries: unknown[]; skipped: number } {
  const counter = { skipped: 0 };
  const entries = parse(body, contentType, ignoreErrors ? "ignore" : counter);
  return { entries, skipped: counter.skipped };
}

function parse(body: string, contentType: string, onBad: OnBad): unknown[] {
  const mime = contentType.split(";")[0].trim().toLowerCase();
  if (mime === "application/json") return parseJsonStream(body, onBad);
  if (mime === "application/x-ndjson") return parseNdjson(body, onBad);
  if (mime === "text/plain") return parseText(body);
  throw invalidArguments(
    `Invalid request parameter: invalid content type: ${contentType}, expected: one of ${
      INGEST_TYPES.join(", ")
    }`,
  );
}

function parseText(body: string): unknown[] {
  const out: unknown[] = [];
  for (const raw of body.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line !== "") out.push({ message: line });
  }
  return out;
}

function parseNdjson(body: string, onBad: OnBad): unknown[] {
  const out: unknown[] = [];
  const lines = body.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.length === 0) continue;
    // JSON.parse skips surrounding whitespace itself; only a failed line pays for a trim.
    let value: unknown;
    try {
      value = parseJsonText(line);
    } catch (e) {
      if (line.trim() === "" || onBad === "ignore") continue;
      if (onBad !== "fail") {
        onBad.skipped++;
        continue;
      }
      throw invalidArguments(
        `Invalid request parameter: invalid JSON at index: ${i} (line ${i + 1}: ${(e as Error).message})`,
      );
    }
    out.push(value);
  }
  return out;
}

const SCALAR_ERROR = "Invalid request parameter: json format error, please check the date is valid JSON.";

/** A whitespace-separated stream of JSON values: objects are entries, arrays contribute their elements. */
function parseJsonStream(body: string, onBad: OnBad): unknown[] {
  const trimmed = body.trim();
  if (trimmed === "") return [];
  // Fast path: the common single document.
  try {
    return expand(parseJsonText(trimmed), onBad);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
  }
  const byLine = parseLines(trimmed, onBad);
  if (byLine !== undefined) return byLine;
  const out: unknown[] = [];
  for (const piece of splitJsonValues(trimmed)) {
    if ("error" in piece) {
      if (onBad === "ignore") break;
      throw invalidArguments(`Failed to parse payload as json: ${piece.error}`);
    }
    out.push(...expand(piece.value, onBad));
  }
  return out;
}

/** The usual stream shape, one whole value per line (NDJSON sent as JSON); undefined if a line is not. */
function parseLines(text: string, onBad: OnBad): unknown[] | undefined {
  const out: unknown[] = [];
  for (const line of text.split("\n")) {
    if (line.length === 0) continue;
    let value: unknown;
    try {
      value = parseJsonText(line);
    } catch {
      if (line.trim() === "") continue;
      return undefined;
    }
    if (value !== null && typeof value === "object" && !Array.isArray(value)) out.push(value);
    else if (Array.isArray(value)) { for (const v of value) out.push(v); }
    else out.push(...expand(value, onBad));
  }
  return out;
}

function expand(value: unknown, onBad: OnBad): unknown[] {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === "object") return [value];
  if (onBad === "fail") throw invalidArguments(SCALAR_ERROR);
  if (onBad !== "ignore") onBad.skipped++;
  return [];
}

/** Splits concatenated JSON values by tracking nesting and strings; each piece is parsed alone. */
function splitJsonValues(text: string): ({ value: unknown } | { error: string })[] {
  const pieces: ({ value: unknown } | { error: string })[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (i >= text.length) break;
    const start = i;
    let depth = 0;
    let inString = false;
    for (; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === "\\") i++;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') inString = true;
      else if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        depth--;
        if (depth === 0) {
          i++;
          break;
        }
      } else if (depth === 0 && /\s/.test(c)) break;
    }
    const chunk = text.slice(start, i);
    try {
      pieces.push({ value: parseJsonText(chunk) });
    } catch (e) {
      pieces.push({ error: `${(e as Error).message} (at byte ${start})` });
      break;
    }
  }
  return pieces;
}
