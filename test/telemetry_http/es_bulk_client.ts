/** Elasticsearch `_bulk` requests for the tests: one create action per document. */

/** Posts documents (each `[index, document text]`); the status and the response without `took`. */
export async function postBulk(base: string, docs: [string, string][]): Promise<[number, unknown]> {
  const body = docs.map(([index, doc]) => `{"create":{"_index":"${index}"}}\n${doc}\n`).join("");
  const r = await fetch(`${base}/v1/elasticsearch/_bulk`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json" },
  });
  const json = await r.json();
  delete json.took;
  return [r.status, json];
}
