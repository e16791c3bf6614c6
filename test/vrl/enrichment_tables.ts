/** The enrichment tables the VRL enrichment tests configure (CSV fixtures in `fixtures/`). */

import type { FileTableConfig } from "../../src/config/enrichment_tables.ts";

const dir = new URL("./fixtures/", import.meta.url).pathname;

/** `people`: headers, a schema of every kind; `codes`: no headers, `;`-separated. */
export const TEST_TABLES: FileTableConfig[] = [
  {
    name: "people",
    type: "file",
    file: {
      path: `${dir}enrichment_people.csv`,
      encoding: { type: "csv", delimiter: ",", include_headers: true },
    },
    schema: {
      id: "integer",
      date_of_birth: "date",
      score: "float",
      active: "boolean",
      seen: "timestamp|%d/%m/%Y %H:%M",
    },
  },
  {
    name: "codes",
    type: "file",
    file: {
      path: `${dir}enrichment_codes.csv`,
      encoding: { type: "csv", delimiter: ";", include_headers: false },
    },
    schema: { "0": "int", "2": "timestamp" },
  },
];
