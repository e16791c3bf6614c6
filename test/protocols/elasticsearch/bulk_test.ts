/** Elasticsearch `_bulk`: the real @elastic/elasticsearch client's bulk helper against the decoder and responses. */
import assert from "node:assert/strict";
import { Client } from "@elastic/elasticsearch";
import { PetrelError, StatusCode } from "../../../src/common/errors.ts";
import {
  bulkErrorResponse,
  bulkItemsResponse,
  type BulkRequest,
  bulkSuccessJson,
  decodeBulk,
} from "../../../src/protocols/elasticsearch/mod.ts";

interface Seen {
  path: string;
  contentType: string | null;
  request: BulkRequest | PetrelError;
}

/** Runs the client's bulk helper against a server that decodes with `decodeBulk` and answers as GreptimeDB does. */
async function runBulk(
  docs: Record<string, unknown>[],
  action: (d: Record<string, unknown>) => unknown,
  seen: Seen[] = [],
) {
  const headers = { "content-type": "application/json", "x-elastic-product": "Elasticsearch" };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (!path.endsWith("/_bulk")) {
      return Response.json({ version: { number: "8.16.0" }, tagline: "You Know, for Search" }, { headers });
    }
    const body = new Uint8Array(await req.arrayBuffer());
    try {
      const request = decodeBulk(body);
      seen.push({ path, contentType: req.headers.get("content-type"), request });
      return new Response(bulkSuccessJson(3, request.items.length), { headers });
    } catch (e) {
      seen.push({ path, contentType: req.headers.get("content-type"), request: e as PetrelError });
      return Response.json(bulkErrorResponse(1, 400, (e as Error).message), { status: 400, headers });
    }
  });
  const client = new Client({ node: `http://127.0.0.1:${server.addr.port}/v1/elasticsearch` });
  try {
    const stats = await client.helpers.bulk({
      datasource: docs,
      onDocument: action as never,
      retries: 0,
      onDrop: () => {},
    });
    return { stats, seen };
  } finally {
    await client.close();
    await server.shutdown();
  }
}

const DOCS = [
  { "@timestamp": "2024-05-01T00:00:00Z", message: "one", level: "info", n: 1 },
  { "@timestamp": "2024-05-01T00:00:01Z", message: "two ✓", nested: { a: [1, 2] } },
  { message: "three" },
];

Deno.test("es bulk: the client's create and index actions decode, and it accepts GreptimeDB's response", async () => {
  for (const action of ["create", "index"] as const) {
    const { stats, seen } = await runBulk(DOCS, () => ({ [action]: { _index: "app-logs" } }));
    assert.deepStrictEqual([stats.total, stats.successful, stats.failed], [3, 3, 0]);
    assert.equal(seen.length, 1);
    assert(seen[0].path.endsWith("/v1/elasticsearch/_bulk"));
    assert(seen[0].contentType?.includes("x-ndjson"), String(seen[0].contentType));
    const req = seen[0].request as BulkRequest;
    assert.deepStrictEqual(
      req.items.map((i) => [i.action, i.index, i.id]),
      DOCS.map(() => [action, "app-logs", null]),
    );
    assert.deepStrictEqual(req.items.map((i) => i.document), DOCS);
  }
});

Deno.test("es bulk: update and delete fail the whole request, as GreptimeDB does", async () => {
  const seen: Seen[] = [];
  await assert.rejects(
    runBulk(DOCS, () => ({ update: { _index: "x", _id: "1" } }), seen),
    (e: { meta?: { statusCode?: number; body?: { errors?: boolean } } }) =>
      e.meta?.statusCode === 400 && e.meta.body?.errors === true,
  );
  const err = seen[0].request;
  assert(err instanceof PetrelError && err.code === StatusCode.InvalidArguments);
  assert.match(err.message, /expected 'create' or 'index' but got \{"update":/);
});

Deno.test("es bulk: bodies decode by line", () => {
  const body =
    '{"create":{"_index":"a","_id":7}}\r\n{"x":1}\n\n{"index":{}}\n{"y":"z"}\n{"create":{"_index":"dangling"}}\n';
  const req = decodeBulk(body);
  assert.deepStrictEqual(req.items, [
    { action: "create", index: "a", id: "7", document: { x: 1 } },
    { action: "index", index: null, id: null, document: { y: "z" } },
  ]);
  const bad: [string, RegExp][] = [
    ["", /empty bulk request/],
    ["\n\n", /empty bulk request/],
    ['{"delete":{"_index":"a","_id":"1"}}\n', /expected 'create' or 'index'/],
    ['{"create":{"_index":"a"}}\n{bad json}\n', /line 2 is not valid JSON/],
    ['{"create":{"_index":5}}\n{}\n', /'_index' must be a string/],
    ['{"create":[]}\n{}\n', /'create' must be an object/],
    ["[1]\n{}\n", /expected 'create' or 'index'/],
  ];
  for (const [b, why] of bad) {
    assert.throws(
      () => decodeBulk(b),
      (e) => e instanceof PetrelError && e.code === 1004 && why.test(e.message),
      b,
    );
  }
  assert.throws(() => decodeBulk(new Uint8Array([0x7b, 0xff])), /not valid UTF-8/);
});

Deno.test("es bulk: UTF-8 bodies: a real U+FFFD is text, a bad byte anywhere is a 400, a BOM is dropped", () => {
  const enc = new TextEncoder();
  const good = enc.encode('{"create":{"_index":"a"}}\n{"s":"\uFFFD é"}\n');
  assert.deepStrictEqual(decodeBulk(good).items.map((i) => i.document), [{ s: "\uFFFD é" }]);
  const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...good]);
  assert.deepStrictEqual(decodeBulk(withBom).items.map((i) => i.document), [{ s: "\uFFFD é" }]);
  // a bad byte after a real U+FFFD
  const bad = new Uint8Array([...good.subarray(0, good.length - 3), 0xc3, 0x28, 0x7d, 0x0a]);
  assert.throws(() => decodeBulk(bad), /body is not valid UTF-8/);
});

Deno.test("es bulk: repeated action lines each keep their own meta, and a document like an action is a document", () => {
  const a = '{"create":{"_index":"a"}}', b = '{"index":{"_index":"b","_id":"k"}}';
  const req = decodeBulk([a, '{"n":1}', a, a, b, '{"n":9007199254740993}', a, '{"n":3}', ""].join("\n"));
  assert.deepStrictEqual(req.items, [
    { action: "create", index: "a", id: null, document: { n: 1 } },
    { action: "create", index: "a", id: null, document: { create: { _index: "a" } } },
    { action: "index", index: "b", id: "k", document: { n: 9007199254740993n } },
    { action: "create", index: "a", id: null, document: { n: 3 } },
  ]);
  assert.notStrictEqual(req.items[0], req.items[1]);
});

Deno.test("es bulk: response shapes", () => {
  assert.deepStrictEqual(JSON.parse(bulkSuccessJson(5, 2)), {
    took: 5,
    errors: false,
    items: [{ create: { status: 201 } }, { create: { status: 201 } }],
  });
  assert.deepStrictEqual(JSON.parse(bulkSuccessJson(0.5, 0)), { took: 0.5, errors: false, items: [] });
  assert.deepStrictEqual(bulkErrorResponse(1, 400, "why"), {
    took: 1,
    errors: true,
    items: [{ create: { status: 400, error: { type: "illegal_argument_exception", reason: "why" } } }],
  });
  const mixed = bulkItemsResponse(2, [
    { status: 201, action: "index", index: "a" },
    { status: 400, error: { type: "mapper_parsing_exception", reason: "bad" } },
  ]);
  assert.deepStrictEqual(mixed, {
    took: 2,
    errors: true,
    items: [{ index: { _index: "a", status: 201 } }, {
      create: { status: 400, error: { type: "mapper_parsing_exception", reason: "bad" } },
    }],
  });
});
