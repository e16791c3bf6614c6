/** OTLP/HTTP responses: Export*ServiceResponse with partial_success and google.rpc.Status, both encodings. */
import assert from "node:assert/strict";
import { encodeExportResponse, encodeRpcStatus } from "../../../src/protocols/otlp/mod.ts";
import { types } from "./proto_oracle.ts";

const text = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("otlp response: no partial success is an empty message", () => {
  for (const signal of ["metrics", "traces", "logs"] as const) {
    const pb = encodeExportResponse(signal, "protobuf");
    assert.deepStrictEqual([pb.body.length, pb.contentType], [0, "application/x-protobuf"]);
    const js = encodeExportResponse(signal, "json", { rejected: 0, errorMessage: "" });
    assert.deepStrictEqual([text(js.body), js.contentType], ["{}", "application/json"]);
  }
});

Deno.test("otlp response: partial success decodes with protobufjs and reads as OTLP JSON", () => {
  const cases = [
    ["metrics", types.metricsResponse, "rejectedDataPoints"],
    ["traces", types.tracesResponse, "rejectedSpans"],
    ["logs", types.logsResponse, "rejectedLogRecords"],
  ] as const;
  for (const [signal, type, field] of cases) {
    const partial = { rejected: 300, errorMessage: "Accepted 1 spans, rejected 300 spans: ✗" };
    const pb = encodeExportResponse(signal, "protobuf", partial);
    const decoded = type.toObject(type.decode(pb.body), { longs: Number });
    assert.deepStrictEqual(decoded, { partialSuccess: { [field]: 300, errorMessage: partial.errorMessage } });
    const js = JSON.parse(text(encodeExportResponse(signal, "json", partial).body));
    assert.deepStrictEqual(js, { partialSuccess: { [field]: "300", errorMessage: partial.errorMessage } });
  }
});

Deno.test("otlp response: google.rpc.Status in both encodings", () => {
  const pb = encodeRpcStatus("protobuf", 3, "bad request");
  assert.deepStrictEqual(types.status.toObject(types.status.decode(pb.body)), {
    code: 3,
    message: "bad request",
  });
  assert.deepStrictEqual(JSON.parse(text(encodeRpcStatus("json", 0, "none accepted").body)), {
    code: 0,
    message: "none accepted",
  });
  assert.equal(encodeRpcStatus("protobuf", 0, "").body.length, 0);
});
