import assert from "node:assert/strict";
import {
  prometheusError,
  prometheusErrorFrom,
  prometheusQueryResponse,
  prometheusSuccess,
  promSample,
} from "../../src/http/formats/prometheus.ts";
import { internal, invalidArguments, PetrelError, tableNotFound } from "../../src/common/errors.ts";
import { HttpError } from "../../src/http/render_error.ts";

interface Case {
  name: string;
  response: () => Response;
  status: number;
  body: string;
}

const CASES: Case[] = [
  {
    name: "vector with sorted metric labels, float time and Display value",
    response: () =>
      prometheusQueryResponse({
        resultType: "vector",
        result: [
          { metric: { host: "host1", __name__: "demo" }, value: promSample(1700000000000, 2) },
          { metric: {}, value: promSample(1700000000500, 0.1) },
        ],
      }),
    status: 200,
    body: '{"status":"success","data":{"resultType":"vector","result":[' +
      '{"metric":{"__name__":"demo","host":"host1"},"value":[1700000000.0,"2"]},' +
      '{"metric":{},"value":[1700000000.5,"0.1"]}]}}',
  },
  {
    name: "matrix with special values",
    response: () =>
      prometheusQueryResponse({
        resultType: "matrix",
        result: [{
          metric: { job: "a" },
          values: [
            promSample(0, NaN),
            promSample(5000, Infinity),
            promSample(10000, -Infinity),
            promSample(15000, 1e21),
          ],
        }],
      }),
    status: 200,
    body: '{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"job":"a"},"values":' +
      '[[0.0,"NaN"],[5.0,"+Inf"],[10.0,"-Inf"],[15.0,"1000000000000000000000"]]}]}}',
  },
  {
    name: "empty matrix",
    response: () => prometheusQueryResponse({ resultType: "matrix", result: [] }),
    status: 200,
    body: '{"status":"success","data":{"resultType":"matrix","result":[]}}',
  },
  {
    name: "scalar",
    response: () => prometheusQueryResponse({ resultType: "scalar", result: promSample(1000, 2) }),
    status: 200,
    body: '{"status":"success","data":{"resultType":"scalar","result":[1.0,"2"]}}',
  },
  {
    name: "string result and warnings",
    response: () =>
      prometheusQueryResponse({ resultType: "string", result: [1.5, "hello"] }, {
        warnings: ["w1"],
        infos: [],
      }),
    status: 200,
    body:
      '{"status":"success","data":{"resultType":"string","result":[1.5,"hello"]},"warnings":["w1"],"infos":[]}',
  },
  {
    name: "native histogram samples",
    response: () =>
      prometheusQueryResponse({
        resultType: "vector",
        result: [{
          metric: { __name__: "h" },
          histogram: [2, { count: "6", sum: "20", buckets: [[0, "0.5", "1", "2"], [3, "1", "2", "4"]] }],
        }],
      }),
    status: 200,
    body: '{"status":"success","data":{"resultType":"vector","result":[{"metric":{"__name__":"h"},' +
      '"histogram":[2.0,{"count":"6","sum":"20","buckets":[[0,"0.5","1","2"],[3,"1","2","4"]]}]}]}}',
  },
  {
    name: "label names",
    response: () => prometheusSuccess(["__name__", "host"]),
    status: 200,
    body: '{"status":"success","data":["__name__","host"]}',
  },
  {
    name: "empty series",
    response: () => prometheusSuccess([]),
    status: 200,
    body: '{"status":"success","data":[]}',
  },
  {
    name: "format_query string",
    response: () => prometheusSuccess("foo / bar"),
    status: 200,
    body: '{"status":"success","data":"foo / bar"}',
  },
  {
    name: "invalid arguments error",
    response: () => prometheusError(1004, "match[] parameter is required"),
    status: 400,
    body: '{"status":"error","error":"match[] parameter is required","errorType":"InvalidArguments"}',
  },
  {
    name: "error with an explicit HTTP status",
    response: () => prometheusError(3000, "invalid promql query", 422),
    status: 422,
    body: '{"status":"error","error":"invalid promql query","errorType":"PlanQuery"}',
  },
  {
    name: "error from a PetrelError",
    response: () => prometheusErrorFrom(tableNotFound("demo")),
    status: 400,
    body: '{"status":"error","error":"Table not found: demo","errorType":"TableNotFound"}',
  },
  {
    name: "internal errors are masked",
    response: () => prometheusErrorFrom(internal("sqlite exploded")),
    status: 500,
    body: '{"status":"error","error":"Internal error: 1003","errorType":"Internal"}',
  },
  {
    name: "non-Petrel errors are internal",
    response: () => prometheusErrorFrom(new TypeError("x is undefined")),
    status: 500,
    body: '{"status":"error","error":"Internal error: 1003","errorType":"Internal"}',
  },
  {
    name: "auth errors keep their 401",
    response: () => prometheusErrorFrom(new PetrelError(7003, "Not found http or grpc authorization header")),
    status: 401,
    body:
      '{"status":"error","error":"Not found http or grpc authorization header","errorType":"AuthHeaderNotFound"}',
  },
];

for (const c of CASES) {
  Deno.test(`prometheus: ${c.name}`, async () => {
    const res = c.response();
    assert.equal(res.status, c.status);
    assert.equal(res.headers.get("content-type"), "application/json");
    const body = await res.text();
    assert.equal(body, c.body);
    JSON.parse(body);
  });
}

Deno.test("prometheus: error headers of a PetrelError are kept", () => {
  const err = invalidArguments("bad");
  const withHeaders = new HttpError(err, undefined, { "retry-after": "1" });
  const res = prometheusErrorFrom(withHeaders);
  assert.equal(res.headers.get("retry-after"), "1");
  assert.equal(res.headers.get("content-type"), "application/json");
});
