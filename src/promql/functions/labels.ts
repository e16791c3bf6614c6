/** `label_replace`, `label_join` and the sorting functions. */
import { re2ToJs } from "../../common/re2.ts";
import { compileRegExp } from "../../common/regexp.ts";
import { executionError } from "../errors.ts";
import { compareLabels, isValidLabelName } from "../labels.ts";
import type { Labels, StepSeries, StepValue } from "../values.ts";
import type { VectorImpl } from "./types.ts";

const str = (v: StepValue) => (v.kind === "string" ? v.value : "");
const vec = (v: StepValue) => (v.kind === "vector" ? v.series : []);

/** An RE2 pattern as a JS regex, anchored as Prometheus anchors it (`^(?s:re)$`). */
export function re2RegExp(pattern: string): RegExp {
  // label_replace compiles only the anchored pattern: `a)|(b` is valid there
  const { source, flags } = re2ToJs(pattern, false);
  return compileRegExp(source, flags);
}

/** Go's `Regexp.Expand`: `$1`, `${1}`, `$name`, `${name}`, `$$`; unknown names expand to "". */
export function expandTemplate(template: string, m: RegExpExecArray): string {
  let out = "";
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c !== "$" || i + 1 >= template.length) {
      out += c;
      continue;
    }
    if (template[i + 1] === "$") {
      out += "$";
      i++;
      continue;
    }
    let name: string, end: number;
    if (template[i + 1] === "{") {
      const close = template.indexOf("}", i + 2);
      const inner = close < 0 ? "" : template.slice(i + 2, close);
      if (close < 0 || !/^\w+$/.test(inner)) {
        out += c;
        continue;
      }
      name = inner;
      end = close;
    } else {
      const w = /^\w+/.exec(template.slice(i + 1));
      if (w === null) {
        out += c;
        continue;
      }
      name = w[0];
      end = i + name.length;
    }
    if (/^\d+$/.test(name)) out += m[Number(name)] ?? "";
    else out += m.groups?.[name] ?? "";
    i = end;
  }
  return out;
}

function withLabel(labels: Labels, name: string, value: string): Labels {
  const out = { ...labels };
  if (value === "") delete out[name];
  else out[name] = value;
  return out;
}

/** `label_replace(v, dst, replacement, src, regex)`. */
export const labelReplace: VectorImpl = (args) => {
  const [dst, repl, src, regexStr] = [str(args[1]), str(args[2]), str(args[3]), str(args[4])];
  let re: RegExp;
  try {
    re = re2RegExp(regexStr);
  } catch {
    throw executionError(`invalid regular expression in label_replace(): ${regexStr}`);
  }
  if (!isValidLabelName(dst)) {
    throw executionError(`invalid destination label name in label_replace(): ${dst}`);
  }
  const series = vec(args[0]).map((s): StepSeries => {
    const m = re.exec(s.labels[src] ?? "");
    if (m === null) return s;
    return { ...s, labels: withLabel(s.labels, dst, expandTemplate(repl, m)) };
  });
  return { kind: "vector", series };
};

/** `label_join(v, dst, separator, src...)`. */
export const labelJoin: VectorImpl = (args) => {
  const dst = str(args[1]), sep = str(args[2]);
  const srcs = args.slice(3).map(str);
  for (const s of srcs) {
    if (!isValidLabelName(s)) throw executionError(`invalid source label name in label_join(): ${s}`);
  }
  if (!isValidLabelName(dst)) throw executionError(`invalid destination label name in label_join(): ${dst}`);
  const series = vec(args[0]).map((s): StepSeries => {
    const value = srcs.map((n) => s.labels[n] ?? "").join(sep);
    return { ...s, labels: withLabel(s.labels, dst, value) };
  });
  return { kind: "vector", series };
};

/** Orders an instant query's vector (range queries are sorted by labels anyway). */
function sortFirstStep(cmp: (a: StepSeries, b: StepSeries) => number): VectorImpl {
  return (args, ctx) => {
    const series = vec(args[0]);
    if (ctx.grid.n !== 1) return { kind: "vector", series };
    return { kind: "vector", series: series.filter((s) => s.present[0]).sort(cmp) };
  };
}

const nanLast = (a: number, b: number, desc: boolean) =>
  a !== a ? (b !== b ? 0 : 1) : b !== b ? -1 : desc ? b - a : a - b;

/** `sort`: ascending by value, NaN last. */
export const sort = sortFirstStep((a, b) => nanLast(a.values[0], b.values[0], false));
/** `sort_desc`: descending by value, NaN last. */
export const sortDesc = sortFirstStep((a, b) => nanLast(a.values[0], b.values[0], true));

/** Natural string order (`facette/natsort`): runs of digits compare as numbers. */
export function natLess(a: string, b: string): boolean {
  const ca = a.match(/\d+|\D+/g) ?? [], cb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < ca.length; i++) {
    if (i >= cb.length) return false;
    const na = /^\d+$/.test(ca[i]) ? Number(ca[i]) : NaN, nb = /^\d+$/.test(cb[i]) ? Number(cb[i]) : NaN;
    if (na === na && nb === nb) {
      if (na === nb) {
        if (i === ca.length - 1) return true;
        if (i === cb.length - 1) return false;
        continue;
      }
      return na < nb;
    }
    if (ca[i] === cb[i]) {
      if (i === ca.length - 1) return true;
      if (i === cb.length - 1) return false;
      continue;
    }
    return ca[i] < cb[i];
  }
  return false;
}

function byLabel(desc: boolean): VectorImpl {
  return (args, ctx) => {
    const names = args.slice(1).map(str);
    const cmp = (a: StepSeries, b: StepSeries): number => {
      for (const n of names) {
        const x = a.labels[n] ?? "", y = b.labels[n] ?? "";
        if (x === y) continue;
        const less = natLess(x, y);
        return desc ? (less ? 1 : -1) : (less ? -1 : 1);
      }
      return desc ? compareLabels(b.labels, a.labels) : compareLabels(a.labels, b.labels);
    };
    return sortFirstStep(cmp)([args[0]], ctx);
  };
}

/** `sort_by_label(v, label...)`. */
export const sortByLabel = byLabel(false);
/** `sort_by_label_desc(v, label...)`. */
export const sortByLabelDesc = byLabel(true);
