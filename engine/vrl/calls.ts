/** Function calls: argument binding and checking, closures, and the path-taking forms `del`, `exists`, `unnest`. */

import type { Closure, Expr, PathNode, Segment } from "./ast.ts";
import { type CompilerApi, type Ctx, type Node, type Run, State } from "./compile_state.ts";
import { VrlCompileError, VrlFailure, VrlRuntimeError } from "./diagnostic.ts";
import { getIn, hasIn, removeIn, setIn } from "./path.ts";
import { type ArgInfo, type ClosureFn, kindBit, typeError } from "./stdlib/def.ts";
import { ANY, isSubset, K, kindName, t, typeAt, type TypeDef, typeWith, union } from "./types.ts";
import { deepClone, kindOf, type VrlValue } from "./value.ts";

type CallExpr = Extract<Expr, { k: "call" }>;

/** Compiles a function call (including the path-taking special forms). */
export function compileCall(cx: CompilerApi, e: CallExpr, st: State): Node {
  if (e.name === "del") return compileDel(cx, e, st);
  if (e.name === "exists") return compileExists(cx, e, st);
  if (e.name === "unnest") return compileUnnest(cx, e, st);
  const def = cx.fns[e.name];
  if (!def) {
    const note = UNSUPPORTED.has(e.name)
      ? `"${e.name}" is part of VRL but not supported by Petrel`
      : `undefined function "${e.name}"`;
    throw new VrlCompileError("E105", "call to undefined function", e.nameSpan.start, e.nameSpan.end, note);
  }
  const slots: (Expr | undefined)[] = new Array(def.params.length).fill(undefined);
  let pos = 0;
  for (const a of e.args) {
    let idx: number;
    if (a.name !== undefined) {
      idx = def.params.findIndex((p) => p.name === a.name);
      if (idx < 0) {
        throw new VrlCompileError(
          "E108",
          "unknown function argument",
          a.start,
          a.end,
          `unknown argument "${a.name}"`,
        );
      }
    } else {
      while (pos < slots.length && slots[pos]) pos++;
      idx = pos;
      if (idx >= def.params.length) {
        throw new VrlCompileError(
          "E106",
          "function argument arity mismatch",
          a.start,
          a.end,
          `"${e.name}" takes at most ${def.params.length} arguments`,
        );
      }
    }
    if (slots[idx]) throw new VrlCompileError("E108", "duplicate function argument", a.start, a.end);
    slots[idx] = a.expr;
  }
  const nodes: (Node | undefined)[] = [];
  const infos: (ArgInfo | undefined)[] = [];
  let fallible = !!def.fallible;
  const checks: number[] = [];
  def.params.forEach((p, i) => {
    const a = slots[i];
    if (!a) {
      if (p.required) {
        throw new VrlCompileError(
          "E107",
          "required argument missing",
          e.start,
          e.end,
          `argument "${p.name}" is required`,
        );
      }
      nodes.push(undefined);
      infos.push(undefined);
      checks.push(0);
      return;
    }
    const n = cx.expr(a, st);
    if ((n.type.kind & p.kind) === 0) {
      throw new VrlCompileError(
        "E110",
        "invalid argument type",
        a.start,
        a.end,
        `argument "${p.name}" must be ${kindName(p.kind)}, got ${kindName(n.type.kind)}`,
      );
    }
    const needsCheck = !isSubset(n.type, p.kind);
    fallible ||= n.fallible || needsCheck;
    checks.push(needsCheck ? p.kind : 0);
    nodes.push(n);
    infos.push({ type: n.type, constant: n.constant });
  });
  const problem = def.check?.(infos);
  if (problem) throw new VrlCompileError("E110", "invalid argument", e.start, e.end, problem);
  if (def.fallibleFor?.(infos)) fallible = true;

  let closureRun: ((c: Ctx) => ClosureFn) | undefined;
  if (e.closure) {
    if (!def.closure) {
      throw new VrlCompileError("E109", "unexpected closure", e.closure.start, e.closure.end);
    }
    const paramTypes = def.closure(infos);
    const { make, fallible: cf } = compileClosure(cx, e.closure, paramTypes, st);
    fallible ||= cf;
    closureRun = make;
  } else if (def.closure) {
    throw new VrlCompileError("E111", "missing closure", e.start, e.end, `"${e.name}" requires a closure`);
  }

  if (e.bang && !fallible) {
    throw new VrlCompileError(
      "E620",
      "can't abort infallible function",
      e.nameSpan.start,
      e.nameSpan.end,
      "remove the `!`",
    );
  }
  const type = typeof def.returns === "number"
    ? t(def.returns)
    : typeof def.returns === "function"
    ? def.returns(infos)
    : def.returns;
  const where = `function call error for "${e.name}" at (${e.start}:${e.end}): `;
  const bang = e.bang;
  const runs = nodes.map((n) => n?.run);
  const n = runs.length;
  const anyCheck = checks.some((k) => k !== 0);
  const impl = def.call;
  const run: Run = (c) => {
    const vals: (VrlValue | undefined)[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const r = runs[i];
      vals[i] = r ? r(c) : undefined;
    }
    try {
      if (anyCheck) {
        for (let i = 0; i < n; i++) {
          const v = vals[i];
          if (checks[i] && v !== undefined && !(kindBit(v) & checks[i])) {
            throw new VrlFailure(typeError(checks[i], v));
          }
        }
      }
      return impl(vals, closureRun?.(c));
    } catch (x) {
      if (x instanceof VrlFailure) {
        if (bang) throw new VrlRuntimeError(where + x.message);
        throw new VrlFailure(where + x.message);
      }
      throw x;
    }
  };
  return { run, type, fallible: fallible && !bang, fresh: !!def.fresh };
}

function compileClosure(
  cx: CompilerApi,
  cl: Closure,
  types: TypeDef[],
  st: State,
): { make: (c: Ctx) => ClosureFn; fallible: boolean } {
  if (cl.params.length > types.length) {
    const p = cl.params[types.length];
    throw new VrlCompileError(
      "E121",
      "invalid closure parameter count",
      p.span.start,
      cl.params[cl.params.length - 1].span.end,
    );
  }
  const inner = st.clone();
  const slots = cl.params.map((p, i) => {
    const slot = cx.newSlot();
    inner.vars.set(p.name, { slot, type: types[i] ?? ANY });
    return slot;
  });
  const body = cx.block(cl.body, inner);
  // Outer variables assigned in the body keep their slot; fold their types back conservatively.
  for (const [k, v] of inner.vars) {
    if (cl.params.some((p) => p.name === k)) continue;
    const o = st.vars.get(k);
    st.vars.set(k, { slot: v.slot, type: o ? union(o.type, v.type) : union(v.type, t(K.NULL)) });
  }
  st.event = union(st.event, inner.event);
  st.meta = union(st.meta, inner.meta);
  const br = body.run;
  const [s0, s1] = slots;
  const make = (c: Ctx): ClosureFn => (a: VrlValue, b?: VrlValue) => {
    if (s0 !== undefined) c.vars[s0] = a;
    if (s1 !== undefined) c.vars[s1] = b ?? null;
    return br(c);
  };
  return { make, fallible: body.fallible };
}

function pathArg(e: CallExpr, name: string): PathNode {
  const a = e.args[0];
  if (!a || a.expr.k !== "path") {
    throw new VrlCompileError(
      "E110",
      "invalid argument type",
      e.start,
      e.end,
      `"${name}" needs a path argument`,
    );
  }
  return a.expr;
}

function compileDel(cx: CompilerApi, e: CallExpr, st: State): Node {
  if (e.bang) {
    throw new VrlCompileError("E620", "can't abort infallible function", e.nameSpan.start, e.nameSpan.end);
  }
  const p = pathArg(e, "del");
  const type = typeAt(cx.rootType(p, st), p.segs);
  const compactArg = e.args.find((a, i) => a.name === "compact" || (i === 1 && !a.name));
  const compactN = compactArg ? cx.expr(compactArg.expr, st) : undefined;
  const cr = compactN?.run;
  const segs: Segment[] = p.segs;
  let run: Run;
  if (p.root.kind === "var") {
    const slot = st.vars.get(p.root.name)!.slot;
    run = segs.length === 0
      ? (c) => {
        const v = c.vars[slot];
        c.vars[slot] = null;
        return v;
      }
      : (c) => removeIn(c.vars[slot], segs, cr?.(c) === true);
    st.vars.set(p.root.name, { slot, type: typeWith(st.vars.get(p.root.name)!.type, segs, t(K.NULL)) });
  } else {
    const isMeta = p.root.kind === "meta";
    run = segs.length === 0
      ? (c) => {
        const v = isMeta ? c.meta : c.event;
        if (isMeta) c.meta = new Map();
        else c.event = new Map();
        return v;
      }
      : isMeta
      ? (c) => removeIn(c.meta, segs, cr?.(c) === true)
      : (c) => removeIn(c.event, segs, cr?.(c) === true);
    if (segs.length === 0) {
      if (isMeta) st.meta = { kind: K.OBJECT, fields: new Map(), exact: true };
      else st.event = { kind: K.OBJECT, fields: new Map(), exact: true };
    } else if (isMeta) st.meta = typeWith(st.meta, segs, t(K.NULL));
    else st.event = typeWith(st.event, segs, t(K.NULL));
  }
  return { run, type, fallible: compactN?.fallible ?? false, fresh: true };
}

/** `unnest(path)`: one copy of the path's root per element of the array at the path. */
function compileUnnest(cx: CompilerApi, e: CallExpr, st: State): Node {
  const p = pathArg(e, "unnest");
  if (p.segs.length === 0) {
    throw new VrlCompileError(
      "E110",
      "invalid argument type",
      e.start,
      e.end,
      "unnest needs a path into an array",
    );
  }
  const at = typeAt(cx.rootType(p, st), p.segs);
  const fallible = !isSubset(at, K.ARRAY);
  if (e.bang && !fallible) {
    throw new VrlCompileError("E620", "can't abort infallible function", e.nameSpan.start, e.nameSpan.end);
  }
  const root = cx.rootGetter(p, st);
  const segs = p.segs;
  const where = `function call error for "unnest" at (${e.start}:${e.end}): `;
  const bang = e.bang;
  return {
    run: (c) => {
      const r = root(c);
      const arr = getIn(r, segs);
      if (!Array.isArray(arr)) {
        const msg = where + `expected array, got ${kindOf(arr)}`;
        throw bang ? new VrlRuntimeError(msg) : new VrlFailure(msg);
      }
      return arr.map((x) => setIn(deepClone(r), segs, deepClone(x)));
    },
    type: t(K.ARRAY),
    fallible: fallible && !bang,
    fresh: true,
  };
}

function compileExists(cx: CompilerApi, e: CallExpr, st: State): Node {
  if (e.bang) {
    throw new VrlCompileError("E620", "can't abort infallible function", e.nameSpan.start, e.nameSpan.end);
  }
  const p = pathArg(e, "exists");
  const segs = p.segs;
  if (p.root.kind === "var" && !st.vars.has(p.root.name)) {
    return { run: () => false, type: t(K.BOOLEAN), fallible: false, fresh: true };
  }
  const root = cx.rootGetter(p, st);
  return { run: (c) => hasIn(root(c), segs), type: t(K.BOOLEAN), fallible: false, fresh: true };
}

/** VRL 0.33 functions Petrel does not implement (binary data, network, crypto, niche formats). */
const UNSUPPORTED = new Set([
  "community_id",
  "decode_charset",
  "decode_gzip",
  "decode_lz4",
  "decode_mime_q",
  "decode_snappy",
  "decode_zlib",
  "decode_zstd",
  "decrypt",
  "decrypt_ip",
  "dns_lookup",
  "encode_charset",
  "encode_gzip",
  "encode_lz4",
  "encode_proto",
  "encode_snappy",
  "encode_zlib",
  "encode_zstd",
  "encrypt",
  "encrypt_ip",
  "hmac",
  "http_request",
  "ip_ntop",
  "ip_pton",
  "match_datadog_query",
  "parse_aws_alb_log",
  "parse_aws_cloudwatch_log_subscription_message",
  "parse_cbor",
  "parse_etld",
  "parse_influxdb",
  "parse_proto",
  "parse_ruby_hash",
  "parse_user_agent",
  "parse_xml",
  "random_bytes",
  "reverse_dns",
  "seahash",
  "type_def",
  "uuid_from_friendly_id",
  "validate_json_schema",
  "xxhash",
]);
