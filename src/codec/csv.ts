/** CSV fields as RFC 4180 writes them (the CSV output format and COPY … TO share it). */

const NEEDS_QUOTES = /[",\r\n]/;

/** A field quoted only when it holds a quote, comma, CR or LF; inner quotes doubled. */
export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? '"' + text.replaceAll('"', '""') + '"' : text;
}
