/**
 * GreptimeDB's `VECTOR(dim)` type (datatypes/src/types/vector_type.rs): a value is `dim` f32s,
 * little-endian, as one binary; its text form is `[1.0, 2.0]` going in and `[1,2]` coming out (each
 * element as Rust's `f32` Display prints it). Columns of it are declared `Vector(3)`.
 */
import type { DataType } from "./rows.ts";
import { invalidArguments } from "./errors.ts";

const TYPE_RE = /^Vector\((\d+)\)$/;

/** The data type name GreptimeDB shows (`Vector(3)`), after checking the dimension. */
export function vectorType(dim: number | undefined): DataType {
  if (dim === undefined || !Number.isInteger(dim) || dim < 1) {
    throw invalidArguments(`Invalid VECTOR(${dim ?? ""}): the dimension must be a positive integer`);
  }
  return `Vector(${dim})`;
}

/** The dimension of a vector data type name, or undefined for any other type. */
export function vectorDim(type: string): number | undefined {
  const m = TYPE_RE.exec(type);
  return m ? Number(m[1]) : undefined;
}

/** Whether a type is a vector. */
export function isVectorType(type: string): boolean {
  return type.startsWith("Vector(");
}

const ELEMENT_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * The elements of a vector's text form `[1.0, 2.0]`, each rounded to f32, with GreptimeDB's
 * messages for a value that is not one; `dim`, when given, is the length it must have.
 */
export function parseVectorText(text: string, dim?: number): Float32Array {
  const fail = (why: string) => invalidArguments(`Failed to parse ${text} to Vector value: ${why}`);
  const trimmed = text.trim();
  if (!trimmed.startsWith("[") || !trimmed.endsWith("]") || trimmed.length < 2) {
    throw fail("not properly enclosed in brackets");
  }
  const content = trimmed.slice(1, -1).trim();
  const parts = content === "" ? [] : content.split(",").map((p) => p.trim());
  if (parts.some((p) => !ELEMENT_RE.test(p))) throw fail("elements are not all float32");
  const out = Float32Array.from(parts, Number);
  if (out.some((x) => !Number.isFinite(x))) throw fail("elements are not all valid");
  if (dim !== undefined && out.length !== dim) {
    throw fail(`wrong dimension (expected ${dim} elements, got ${out.length})`);
  }
  return out;
}

/** The stored form of a vector: its f32s little-endian. */
export function vectorBytes(elements: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(elements.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < elements.length; i++) view.setFloat32(i * 4, elements[i], true);
  return out;
}

/** The elements of a stored vector; a length that is not whole f32s is an error. */
export function vectorElements(bytes: Uint8Array): Float32Array {
  if (bytes.length % 4 !== 0) {
    throw invalidArguments(
      `Invalid binary length of vector: must be a multiple of 4, but got ${bytes.length}`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const out = new Float32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

/** An f32 as Rust's Display prints it: the shortest digits that read back as the same f32, positional. */
export function formatF32(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  let shortest = x.toPrecision(9);
  for (let p = 1; p < 9; p++) {
    const s = x.toPrecision(p);
    if (Math.fround(Number(s)) === x) {
      shortest = s;
      break;
    }
  }
  const exp = Number(shortest).toExponential();
  const e = exp.indexOf("e");
  const negative = exp.startsWith("-");
  const mantissa = exp.slice(negative ? 1 : 0, e);
  const digits = mantissa.replace(".", "");
  const point = Number(exp.slice(e + 1)) + 1;
  const sign = negative ? "-" : "";
  if (point >= digits.length) return sign + digits + "0".repeat(point - digits.length);
  if (point > 0) return sign + digits.slice(0, point) + "." + digits.slice(point);
  return sign + "0." + "0".repeat(-point) + digits;
}

/** A vector's text as GreptimeDB shows it: `[1,2.5,3]`. */
export function formatVector(elements: ArrayLike<number>): string {
  let out = "[";
  for (let i = 0; i < elements.length; i++) out += (i > 0 ? "," : "") + formatF32(elements[i]);
  return out + "]";
}

/** A stored vector value's text, or undefined when the bytes are not whole f32s. */
export function vectorText(bytes: Uint8Array): string | undefined {
  return bytes.length % 4 === 0 ? formatVector(vectorElements(bytes)) : undefined;
}

/**
 * The stored bytes of a value written into the vector column `column` of `dim` elements: its text
 * form, or binary of exactly `dim` f32s.
 */
export function vectorValueFor(v: string | Uint8Array, dim: number, column: string): Uint8Array {
  const elements = typeof v === "string" ? parseVectorColumnText(v, dim, column) : v;
  if (elements instanceof Uint8Array) {
    if (v.length !== dim * 4) {
      throw invalidArguments(
        `Invalid vector value for column ${column} of type VECTOR(${dim}): expected ${dim} dimensions ` +
          `(${dim * 4} bytes), got ${v.length} bytes`,
      );
    }
    return elements;
  }
  return vectorBytes(elements);
}

function parseVectorColumnText(text: string, dim: number, column: string): Float32Array {
  let elements: Float32Array;
  try {
    elements = parseVectorText(text);
  } catch (e) {
    throw invalidArguments(`Invalid vector value for column ${column}: ${(e as Error).message}`);
  }
  if (elements.length !== dim) {
    throw invalidArguments(
      `Invalid vector value ${text} for column ${column} of type VECTOR(${dim}): expected ${dim} ` +
        `dimensions, got ${elements.length}`,
    );
  }
  return elements;
}
