/** `json_path`: queries a value with JSONPath (reference §4.12). */
import { parseJsonPath, queryJsonPath } from "../jsonpath.ts";
import { Timestamp } from "../value.ts";
import { fieldProcessor, type ProcessorCompiler } from "./common.ts";

/** Compiles a `json_path` processor. */
export const compileJsonPathProcessor: ProcessorCompiler = (o) => {
  const src = o.string("json_path");
  if (src === undefined) return o.fail("Processor json_path: missing field: json_path", "json_path");
  let path;
  try {
    path = parseJsonPath(src);
  } catch {
    return o.fail("Parse json path error", "json_path");
  }
  const idxNode = o.get("result_index");
  let index: number | undefined;
  if (idxNode && idxNode.t !== "null") {
    if (idxNode.t !== "int") return o.fail("Json path result index not number", "result_index");
    index = idxNode.v;
  }
  return fieldProcessor("json_path", o.fields(), o.ignoreMissing(), (v, f, entry) => {
    // The value goes through generic JSON first, so timestamps become strings.
    const doc = v instanceof Timestamp ? v.toRfc3339() : v;
    const matches = queryJsonPath(path, doc);
    entry[f.target] = index === undefined ? matches : (matches?.[index] ?? null);
  }, { nullIsPresent: true });
};
