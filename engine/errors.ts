/**
 * Pipeline errors. Compile errors carry GreptimeDB's message (reference §13) plus where in the YAML
 * it happened; run-time errors carry the message only, with the status code GreptimeDB's error kind
 * maps to: InvalidArguments → 400 (GreptimeDB's IllegalState/Unexpected 500s for bad entries are 400 here).
 */
import { PetrelError, StatusCode } from "../src/common/errors.ts";

/** Where in the pipeline document a compile error was found. */
export interface YamlLocation {
  line?: number;
  processor?: string;
  key?: string;
}

/** A compile error: `detail` is GreptimeDB's text, `message` adds the location. */
export class PipelineCompileError extends PetrelError {
  readonly detail: string;
  readonly location: YamlLocation;

  constructor(reason: string, location: YamlLocation = {}) {
    super(StatusCode.InvalidArguments, reason + formatLocation(location));
    this.detail = reason;
    this.location = location;
  }
}

function formatLocation(loc: YamlLocation): string {
  const parts: string[] = [];
  if (loc.processor) parts.push(`processor ${loc.processor}`);
  if (loc.key) parts.push(`key ${loc.key}`);
  if (loc.line) parts.push(`line ${loc.line}`);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

/** Throws a compile error at `loc`. */
export function compileError(reason: string, loc: YamlLocation = {}): never {
  throw new PipelineCompileError(reason, loc);
}

/** A per-entry error; skippable with `skip_error`. */
export function execError(message: string): PetrelError {
  return new PetrelError(StatusCode.InvalidArguments, message);
}

/**
 * A per-entry error GreptimeDB reports as an illegal state (HTTP 500). Petrel answers 400: the entry
 * is bad input, and a 5xx makes log shippers retry it forever.
 */
export function illegalState(message: string): PetrelError {
  return new PetrelError(StatusCode.InvalidArguments, message);
}

/** A per-entry error of kind "Unexpected" in GreptimeDB (HTTP 500), e.g. `Failed to cast type, msg: …`; 400 here. */
export function unexpected(message: string): PetrelError {
  return new PetrelError(StatusCode.InvalidArguments, message);
}

/** `Processor <name>: missing field: <field>`. */
export function missingField(processor: string, field: string): PetrelError {
  return execError(`Processor ${processor}: missing field: ${field}`);
}
