/**
 * `validate_json_schema`: checks a JSON text against a JSON Schema file with Ajv (drafts 7, 2019-09, 2020-12,
 * with ajv-formats' formats). VRL calls are synchronous, so Ajv is imported ahead, by `loadAjv()`, which the
 * pipeline engine and the VRL command await when they load (`loadVrlLibraries`); a plain import would make
 * every start-up pay for it, and `require` cannot find the package inside the bundled release file.
 */

import type { AnySchema, ErrorObject, ValidateFunction } from "ajv";
import { K } from "../types.ts";
import type { VrlValue } from "../value.ts";
import { fail, flag, type FnDef, opt, req } from "./def.ts";

interface AjvLike {
  compile(schema: AnySchema): ValidateFunction;
  addFormat(name: string, format: boolean): unknown;
  formats: Record<string, unknown>;
}
type AjvClass = new (opts: Record<string, unknown>) => AjvLike;

let classes:
  | { draft7: AjvClass; v2019: AjvClass; v2020: AjvClass; addFormats: (a: AjvLike) => void }
  | undefined;

/** Imports Ajv and its formats once; `validate_json_schema` needs it done. */
export async function loadAjv(): Promise<void> {
  if (classes) return;
  const [draft7, v2019, v2020, formats] = await Promise.all([
    import("ajv"),
    import("ajv/dist/2019.js"),
    import("ajv/dist/2020.js"),
    import("ajv-formats"),
  ]);
  classes = {
    draft7: draft7.default as unknown as AjvClass,
    v2019: v2019.default as unknown as AjvClass,
    v2020: v2020.default as unknown as AjvClass,
    addFormats: formats.default as unknown as (a: AjvLike) => void,
  };
}

function ajvFor(schema: unknown): AjvLike {
  if (!classes) throw new Error("Ajv is not loaded: await loadVrlLibraries() first");
  const draft = typeof schema === "object" && schema !== null
    ? String((schema as { $schema?: string }).$schema)
    : "";
  const Class = draft.includes("2020-12")
    ? classes.v2020
    : draft.includes("2019-09")
    ? classes.v2019
    : classes.draft7;
  const ajv = new Class({ allErrors: true, strict: false, verbose: true });
  classes.addFormats(ajv);
  return ajv;
}

/** Every `format` keyword value in a schema. */
function formatsIn(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) schema.forEach((s) => formatsIn(s, out));
  else if (schema !== null && typeof schema === "object") {
    for (const [k, v] of Object.entries(schema)) {
      if (k === "format" && typeof v === "string") out.add(v);
      else formatsIn(v, out);
    }
  }
  return out;
}

const validators = new Map<string, ValidateFunction>();

/** The compiled validator of the schema file at `path` (cached per path and unknown-format choice). */
export function schemaValidator(path: string, ignoreUnknownFormats: boolean): ValidateFunction {
  const id = `${ignoreUnknownFormats}:${path}`;
  const cached = validators.get(id);
  if (cached) return cached;
  let schema: unknown;
  try {
    schema = JSON.parse(Deno.readTextFileSync(path));
  } catch (e) {
    return fail(`Failed to read schema definition ${path}: ${(e as Error).message}`);
  }
  const ajv = ajvFor(schema);
  for (const f of formatsIn(schema)) {
    if (f in ajv.formats) continue;
    if (!ignoreUnknownFormats) {
      return fail(
        `Failed to compile schema: Unknown format: '${f}'. Adjust configuration to ignore unrecognized formats`,
      );
    }
    ajv.addFormat(f, true);
  }
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema as AnySchema);
  } catch (e) {
    return fail(`Failed to compile schema: ${(e as Error).message}`);
  }
  validators.set(id, validate);
  return validate;
}

const show = (v: unknown) => JSON.stringify(v);

/** One Ajv error in the words of Rust's `jsonschema` crate, which VRL reports. */
function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  const data = show(e.data);
  switch (e.keyword) {
    case "type":
      return `${data} is not of type ${show(p.type)}`;
    case "format":
      return `${data} is not a ${show(p.format)}`;
    case "required":
      return `${show(p.missingProperty)} is a required property`;
    case "enum":
      return `${data} is not one of ${show(p.allowedValues)}`;
    case "const":
      return `${show(p.allowedValue)} was expected`;
    case "pattern":
      return `${data} does not match ${show(p.pattern)}`;
    case "minimum":
      return `${data} is less than the minimum of ${p.limit}`;
    case "maximum":
      return `${data} is greater than the maximum of ${p.limit}`;
    case "minLength":
      return `${data} is shorter than ${p.limit} character${p.limit === 1 ? "" : "s"}`;
    case "maxLength":
      return `${data} is longer than ${p.limit} character${p.limit === 1 ? "" : "s"}`;
    case "maxItems":
      return `${data} has more than ${p.limit} item${p.limit === 1 ? "" : "s"}`;
    case "minItems":
      return `${data} has less than ${p.limit} item${p.limit === 1 ? "" : "s"}`;
    case "additionalProperties":
      return `Additional properties are not allowed (${show(p.additionalProperty)} was unexpected)`;
    default:
      return `${data} ${e.message ?? "is invalid"}`;
  }
}

function validateJsonSchema(text: string, path: string, ignoreUnknownFormats: boolean): boolean {
  const validate = schemaValidator(path, ignoreUnknownFormats);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return fail(`Failed to parse JSON: ${(e as Error).message}`);
  }
  if (validate(doc)) return true;
  const errors = (validate.errors ?? []).map((e) => `${describe(e)} at ${e.instancePath}`);
  return fail(`JSON schema validation failed: ${errors.join(", ")}`);
}

/** The JSON Schema function by name. */
export const JSON_SCHEMA_FNS: Record<string, FnDef> = {
  validate_json_schema: {
    params: [
      req("value", K.BYTES),
      req("schema_definition", K.BYTES),
      opt("ignore_unknown_formats", K.BOOLEAN),
    ],
    returns: K.BOOLEAN,
    fallible: true,
    check: (a) => {
      const path = a[1]?.constant?.value, ignore = a[2]?.constant?.value;
      if (typeof path !== "string" || (a[2] && typeof ignore !== "boolean")) return undefined;
      try {
        schemaValidator(path, ignore === true);
      } catch (e) {
        return (e as Error).message;
      }
    },
    call: ([v, path, ignore]: (VrlValue | undefined)[]) =>
      validateJsonSchema(v as string, path as string, flag(ignore, false)),
  },
};
