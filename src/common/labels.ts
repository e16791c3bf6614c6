/**
 * Prometheus label names (validated, set safely) and GreptimeDB's special labels, which pick the
 * database, the physical table or the value column of a series instead of being stored as tags.
 */
import { invalidArguments } from "./errors.ts";

const validNames = new Set<string>();

/** Checks a label name against `[A-Za-z_][A-Za-z0-9_]*`; a bad one is a 400. */
function validateLabelName(name: string): void {
  if (validNames.has(name)) return;
  let ok = name.length > 0;
  for (let i = 0; ok && i < name.length; i++) {
    const c = name.charCodeAt(i);
    ok = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (i > 0 && c >= 48 && c <= 57);
  }
  if (!ok) throw invalidArguments(`Invalid label name: \`${name}\``);
  if (validNames.size > 100_000) validNames.clear();
  validNames.add(name);
}

/** Sets a label after validating its name (a plain assignment would turn `__proto__` into a prototype). */
export function setLabel(labels: Record<string, string>, name: string, value: string): void {
  validateLabelName(name);
  setOwn(labels, name, value);
}

/** Sets a key as an own property; `__proto__` is a valid label name, which a plain assignment would not set. */
function setOwn(labels: Record<string, string>, name: string, value: string): void {
  if (name === "__proto__") Object.defineProperty(labels, name, { value, enumerable: true, writable: true });
  else labels[name] = value;
}

/** Where a series goes and what its tags are, once the special labels (reference §7.2) are taken out. */
export interface SeriesTarget {
  metric: string;
  /** From `__schema__` (wins), `__database__` or `x_greptime_database`. */
  database?: string;
  /** From `__physical_table__` or `x_greptime_physical_table`. */
  physicalTable?: string;
  tags: Record<string, string>;
}

/** The label that picks the value column of an ordinary table in a selector (GreptimeDB's `__field__`). */
export const FIELD_LABEL = "__field__";

/** Labels that name the database of a series (`__schema__` wins). */
export const DATABASE_LABELS = ["__schema__", "__database__", "x_greptime_database"];
const PHYSICAL_LABELS = ["__physical_table__", "x_greptime_physical_table"];
const SPECIAL = new Set(["__name__", ...DATABASE_LABELS, ...PHYSICAL_LABELS]);

/**
 * Splits a label set into metric name, database/physical-table selectors and tags; no `__name__` → 400.
 * Tag names are taken as they are (remote write checked them when parsing): OTLP's `NoTranslation`
 * strategies keep dotted names such as `service.name`, as GreptimeDB does.
 */
export function splitSpecialLabels(labels: Record<string, string>): SeriesTarget {
  if (!Object.isFrozen(labels)) return split(labels);
  let target = splits.get(labels);
  if (target === undefined) {
    target = split(labels);
    Object.freeze(target.tags);
    splits.set(labels, Object.freeze(target));
  }
  return target;
}

/**
 * The split of frozen label sets (remote write's, shared from request to request: see
 * `protocols/remote_write/label_cache.ts`), frozen in turn so the series key can be kept by them.
 */
const splits = new WeakMap<Record<string, string>, SeriesTarget>();

function split(labels: Record<string, string>): SeriesTarget {
  const metric = labels.__name__;
  if (metric === undefined || metric === "") {
    throw invalidArguments("Invalid prometheus remote request, msg: missing '__name__' label in timeseries");
  }
  const target: SeriesTarget = { metric, tags: {} };
  for (const k of DATABASE_LABELS) {
    if (labels[k] !== undefined && Object.hasOwn(labels, k)) {
      target.database = labels[k];
      break;
    }
  }
  for (const k of PHYSICAL_LABELS) {
    if (labels[k] !== undefined && Object.hasOwn(labels, k)) {
      target.physicalTable = labels[k];
      break;
    }
  }
  for (const k in labels) if (!SPECIAL.has(k)) setOwn(target.tags, k, labels[k]);
  return target;
}
