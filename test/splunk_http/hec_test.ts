/**
 * Splunk HEC against a real server: a case table of bodies → status, HEC answer and the rows then
 * stored (read back by SQL); every rejected request leaves the tables as they were.
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { post } from "../protocols_http/util.ts";

const HEC = "/v1/splunk/services/collector";
const SUCCESS = { text: "Success", code: 0 };

/** `[greptime_timestamp as text, host, source, sourcetype, event or message]` of one table. */
async function stored(base: string, table: string): Promise<unknown[][]> {
  const r = await fetch(`${base}/v1/sql?sql=${encodeURIComponent(`SHOW TABLES LIKE '${table}'`)}`);
  if ((await r.json()).output[0].records.rows.length === 0) return [];
  const cols = await columnsOf(base, table);
  const body = cols.includes("event") ? "event" : cols.includes("message") ? "message" : "NULL";
  const sql = `SELECT CAST(CAST(greptime_timestamp AS BIGINT) AS STRING), host, source, sourcetype, ${body}
    FROM "${table}" ORDER BY greptime_timestamp, ${body}`;
  const q = await fetch(`${base}/v1/sql?sql=${encodeURIComponent(sql)}`);
  const out = await q.json();
  assert.equal(q.status, 200, JSON.stringify(out));
  return out.output[0].records.rows;
}

async function columnsOf(base: string, table: string): Promise<string[]> {
  const r = await fetch(`${base}/v1/sql?sql=${encodeURIComponent(`DESC TABLE "${table}"`)}`);
  return (await r.json()).output[0].records.rows.map((row: unknown[]) => String(row[0]));
}

interface Case {
  name: string;
  path?: string;
  body: string;
  headers?: Record<string, string>;
  status: number;
  /** The whole answer, or its code and a pattern its text matches. */
  response: Record<string, unknown> | [number, RegExp];
  /** The table to read back and its rows (none: nothing may be stored in `splunk_logs`). */
  table?: string;
  rows?: unknown[][];
}

const T = "1700000000";
const CASES: Case[] = [
  {
    name: "one event with time, host, source, sourcetype",
    body: `{"time":${T}.5,"host":"h1","source":"app","sourcetype":"json","event":"hello"}`,
    status: 200,
    response: SUCCESS,
    table: "c1",
    rows: [[`${T}500000000`, "h1", "app", "json", "hello"]],
  },
  {
    name: "concatenated objects, with and without whitespace; time as text with ns digits",
    body:
      `{"time":"${T}.123456789","event":"a"}{"time":${T},"event":"b"}\n  {"time":${T}.000001,"event":"c"}`,
    status: 200,
    response: SUCCESS,
    table: "c2",
    rows: [[`${T}000000000`, null, null, null, "b"], [`${T}000001000`, null, null, null, "c"], [
      `${T}123456789`,
      null,
      null,
      null,
      "a",
    ]],
  },
  {
    name: "a number or array event is stored as its JSON text",
    body: `{"time":${T},"event":42}{"time":${T}.1,"event":[1,"x"]}`,
    status: 200,
    response: SUCCESS,
    table: "c3",
    rows: [[`${T}000000000`, null, null, null, "42"], [`${T}100000000`, null, null, null, '[1,"x"]']],
  },
  {
    name: "the event endpoint's /1.0 path and query defaults",
    path: "/event/1.0?host=qh&sourcetype=qst&time=1700000001",
    body: `{"event":"x"}{"event":"y","host":"own"}`,
    status: 200,
    response: SUCCESS,
    table: "c4",
    rows: [["1700000001000000000", "qh", null, "qst", "x"], ["1700000001000000000", "own", null, "qst", "y"]],
  },
  {
    name: "raw lines with host/source/sourcetype parameters",
    path: "/raw?host=rh&source=s&sourcetype=access_combined&time=1700000002.25",
    body: "GET /a 200\r\n\nGET /b 404\n",
    status: 200,
    response: SUCCESS,
    table: "c5",
    rows: [["1700000002250000000", "rh", "s", "access_combined", "GET /a 200"], [
      "1700000002250000000",
      "rh",
      "s",
      "access_combined",
      "GET /b 404",
    ]],
  },
  {
    name: "a channel GUID is accepted",
    path: "/raw/1.0?channel=0aeeac95-ac74-4aa9-b30d-6c4c0ac581ba&time=1700000003",
    body: "line",
    status: 200,
    response: SUCCESS,
    table: "c6",
    rows: [["1700000003000000000", null, null, null, "line"]],
  },
  { name: "empty body", body: "", status: 400, response: { text: "No data", code: 5 } },
  { name: "blank body", body: " \n\t", status: 400, response: { text: "No data", code: 5 } },
  {
    name: "raw without lines",
    path: "/raw",
    body: "\n\n",
    status: 400,
    response: { text: "No data", code: 5 },
  },
  {
    name: "missing event (after a good one: nothing stored)",
    body: `{"event":"ok"}{"host":"h"}`,
    status: 400,
    response: { text: "Event field is required", code: 12, "invalid-event-number": 1 },
  },
  {
    name: "null event",
    body: `{"event":null}`,
    status: 400,
    response: { text: "Event field is required", code: 12, "invalid-event-number": 0 },
  },
  {
    name: "blank event",
    body: `{"event":""}`,
    status: 400,
    response: { text: "Event field cannot be blank", code: 13, "invalid-event-number": 0 },
  },
  {
    name: "empty object event",
    body: `{"event":"a"}{"event":{}}`,
    status: 400,
    response: { text: "Event field cannot be blank", code: 13, "invalid-event-number": 1 },
  },
  { name: "an array body", body: `[{"event":"a"}]`, status: 400, response: [6, /array/] },
  {
    name: "not JSON",
    body: `{"event":"a"}{event:b}`,
    status: 400,
    response: [6, /event 1 is not valid JSON/],
  },
  { name: "truncated", body: `{"event":"a"`, status: 400, response: [6, /not complete JSON/] },
  { name: "a string at top level", body: `"event"`, status: 400, response: [6, /not a JSON object/] },
  { name: "bad time", body: `{"event":"a","time":"yesterday"}`, status: 400, response: [6, /'time'/] },
  { name: "negative time", body: `{"event":"a","time":-1}`, status: 400, response: [6, /'time'/] },
  { name: "time past 2262", body: `{"event":"a","time":1e19}`, status: 400, response: [6, /'time'/] },
  { name: "bad time parameter", path: "/raw?time=x", body: "l", status: 400, response: [6, /'time' param/] },
  { name: "host not a string", body: `{"event":"a","host":7}`, status: 400, response: [6, /'host'/] },
  {
    name: "nested indexed field",
    body: `{"event":"a","fields":{"k":{"x":1}}}`,
    status: 400,
    response: [15, /field 'k'/],
  },
  { name: "fields not an object", body: `{"event":"a","fields":[1]}`, status: 400, response: [15, /./] },
  {
    name: "an index that cannot be a table",
    body: `{"event":"a","index":"no such;index"}`,
    status: 400,
    response: [7, /Incorrect index/],
  },
  {
    name: "a bad ?table=",
    path: "?table=__petrel_x",
    body: `{"event":"a"}`,
    status: 400,
    response: [7, /./],
  },
  {
    name: "a channel that is not a GUID",
    path: "?channel=abc",
    body: `{"event":"a"}`,
    status: 400,
    response: { text: "Invalid data channel: the channel must be a GUID", code: 11 },
  },
  { name: "invalid UTF-8", body: "\xff", status: 400, response: [6, /UTF-8/] },
  {
    name: "an unknown pipeline",
    path: "?pipeline_name=nope",
    body: `{"event":"a"}`,
    status: 400,
    response: [8, /Pipeline not found, name: nope/],
  },
  {
    name: "an event object whose key changes type within the request",
    body: `{"event":{"n":1}}{"event":{"n":"one"}}`,
    status: 400,
    response: [8, /event\.n/],
  },
];

async function send(s: TestServer, c: Case) {
  const path = c.path ?? "";
  const table = c.table ? `${path.includes("?") ? "&" : "?"}table=${c.table}` : "";
  const body = c.body === "\xff" ? new Uint8Array([0xff]) : c.body;
  return await post(`${s.url}${HEC}${path}${table}`, body, c.headers);
}

Deno.test("HEC event and raw bodies: answers and stored rows", async (t) => {
  const s = await startTestServer();
  try {
    for (const c of CASES) {
      await t.step(c.name, async () => {
        const r = await send(s, c);
        assert.equal(r.status, c.status, r.text);
        const answer = JSON.parse(r.text);
        if (!Array.isArray(c.response)) assert.deepEqual(answer, c.response);
        else {
          assert.equal(answer.code, c.response[0], r.text);
          assert.match(answer.text, c.response[1]);
        }
        if (c.table) assert.deepEqual(await stored(s.url, c.table), c.rows);
        else assert.deepEqual(await stored(s.url, "splunk_logs"), [], "a rejected request stored rows");
      });
    }
  } finally {
    await s.stop();
  }
});
