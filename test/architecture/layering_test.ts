/**
 * The layering holds: every module imports only what its layer may (ARCHITECTURE.md, README's
 * layout), and no chain of run-time imports comes back to where it started. Read from the source
 * text, so a forbidden import fails this test the moment it is written.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), "..", ".."));

/** A module's relative imports: `type` says whether the import is erased at run time. */
interface Import {
  target: string;
  type: boolean;
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?["'](\.{1,2}\/[^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

/** The relative imports of one source text, resolved against the repository root. */
export function importsOf(file: string, text: string): Import[] {
  const out: Import[] = [];
  for (const m of text.matchAll(IMPORT)) {
    out.push({ target: normalize(join(dirname(file), m[3])), type: m[2] !== undefined });
  }
  for (const m of text.matchAll(DYNAMIC)) {
    out.push({ target: normalize(join(dirname(file), m[1])), type: false });
  }
  return out;
}

/** A layer: the modules under `dirs`, and the prefixes they must never import. */
interface Rule {
  layer: string;
  dirs: string[];
  forbidden: string[];
}

const FLOOR = ["src/common/", "src/codec/"];
const ABOVE_STORAGE = [
  "routes/",
  "src/app.ts",
  "main.ts",
  "src/http/",
  "src/sql/",
  "src/protocols/",
  "src/ingest/",
  "src/query/",
  "src/promql/",
  "engine/",
];

/** What each layer may not import. Everything may import the floor. */
export const RULES: Rule[] = [
  {
    layer: "the neutral floor",
    dirs: FLOOR,
    forbidden: ["routes/", "engine/", "main.ts", ...srcOutside(FLOOR)],
  },
  { layer: "config", dirs: ["src/config/"], forbidden: [...ABOVE_STORAGE, "src/storage/"] },
  { layer: "storage", dirs: ["src/storage/"], forbidden: ABOVE_STORAGE },
  {
    layer: "protocol parsers",
    dirs: ["src/protocols/"],
    forbidden: ["src/storage/", "src/http/", "src/sql/", "src/ingest/", "src/query/", "engine/", "routes/"],
  },
  { layer: "the pipeline engine", dirs: ["engine/"], forbidden: ["src/http/", "routes/", "src/app.ts"] },
  {
    layer: "the HTTP layer",
    dirs: ["src/http/"],
    forbidden: ["routes/", "src/app.ts", "engine/", "src/storage/", "src/sql/", "src/ingest/", "src/query/"],
  },
  {
    layer: "SQL",
    dirs: ["src/sql/"],
    forbidden: [
      "routes/",
      "src/app.ts",
      "src/http/",
      "src/ingest/",
      "src/query/",
      "src/protocols/",
      "engine/",
    ],
  },
  { layer: "ingest", dirs: ["src/ingest/"], forbidden: ["routes/", "src/app.ts", "src/http/", "src/query/"] },
  { layer: "query", dirs: ["src/query/"], forbidden: ["routes/", "src/app.ts", "src/http/", "src/ingest/"] },
  {
    layer: "PromQL",
    dirs: ["src/promql/"],
    forbidden: ["routes/", "src/app.ts", "src/http/", "src/ingest/"],
  },
  { layer: "routes", dirs: ["routes/"], forbidden: ["src/app.ts", "main.ts"] },
];

function srcOutside(dirs: string[]): string[] {
  const kept = new Set(dirs.map((d) => d.split("/")[1]));
  const all = [...Deno.readDirSync(join(ROOT, "src"))].map((e) => e.name.replace(/\.ts$/, ""));
  return all.filter((n) => !kept.has(n)).map((n) => `src/${n}`);
}

/** Every violation of the rules among the given modules' imports. */
export function violations(modules: Map<string, Import[]>, rules: Rule[] = RULES): string[] {
  const out: string[] = [];
  for (const [file, imports] of modules) {
    for (const rule of rules) {
      if (!rule.dirs.some((d) => file.startsWith(d))) continue;
      for (const imp of imports) {
        const bad = rule.forbidden.find((f) =>
          imp.target === f || imp.target.startsWith(f.endsWith("/") ? f : f + "/") || imp.target === `${f}.ts`
        );
        if (bad && !rule.dirs.some((d) => imp.target.startsWith(d))) {
          out.push(`${file} (${rule.layer}) imports ${imp.target}`);
        }
      }
    }
  }
  return out;
}

/** Run-time import cycles (type-only imports are erased, so they cannot form one), as module lists. */
export function cycles(modules: Map<string, Import[]>): string[][] {
  const graph = new Map<string, string[]>();
  for (const [file, imports] of modules) {
    graph.set(file, imports.filter((i) => !i.type && modules.has(i.target)).map((i) => i.target));
  }
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") found.push(stack.slice(stack.indexOf(next)).concat(next));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

function sourceModules(): Map<string, Import[]> {
  const modules = new Map<string, Import[]>();
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(join(ROOT, dir))) {
      const path = dir === "" ? e.name : `${dir}/${e.name}`;
      if (
        e.isDirectory && !["tools", "test", "node_modules", ".git", "petrel_data", "dist"].includes(e.name)
      ) {
        walk(path);
      } else if (e.isFile && e.name.endsWith(".ts")) {
        const file = relative(ROOT, join(ROOT, path));
        modules.set(file, importsOf(file, Deno.readTextFileSync(join(ROOT, path))));
      }
    }
  };
  walk("");
  return modules;
}

Deno.test("layering: no module imports a layer it must not", () => {
  const modules = sourceModules();
  assert.ok(modules.size > 100, `only ${modules.size} modules found under ${ROOT}`);
  assert.deepEqual(violations(modules), []);
});

Deno.test("layering: no run-time import cycles", () => {
  assert.deepEqual(cycles(sourceModules()), []);
});

Deno.test("layering: the checker catches what it is meant to catch", () => {
  const m = (file: string, text: string): [string, Import[]] => [file, importsOf(file, text)];
  const planted = new Map([
    m("src/storage/x.ts", 'import { ROUTES } from "../../routes/mod.ts";'),
    m("src/protocols/lineproto/x.ts", 'import type { Storage } from "../../storage/mod.ts";'),
    m("src/protocols/otlp/y.ts", 'export { renderError } from "../../http/render_error.ts";'),
    m("engine/x.ts", 'const m = await import("../src/http/server.ts");'),
    m("src/common/x.ts", 'import { Storage } from "../storage/mod.ts";'),
    m("src/storage/ok.ts", 'import { PetrelError } from "../common/errors.ts";'),
  ]);
  assert.deepEqual(violations(planted), [
    "src/storage/x.ts (storage) imports routes/mod.ts",
    "src/protocols/lineproto/x.ts (protocol parsers) imports src/storage/mod.ts",
    "src/protocols/otlp/y.ts (protocol parsers) imports src/http/render_error.ts",
    "engine/x.ts (the pipeline engine) imports src/http/server.ts",
    "src/common/x.ts (the neutral floor) imports src/storage/mod.ts",
  ]);
  const looped = new Map([
    m("src/a.ts", 'import { b } from "./b.ts";'),
    m("src/b.ts", 'import { a } from "./a.ts";'),
    m("src/c.ts", 'import type { a } from "./a.ts";'),
  ]);
  assert.deepEqual(cycles(looped), [["src/a.ts", "src/b.ts", "src/a.ts"]]);
  looped.set("src/b.ts", importsOf("src/b.ts", 'import type { a } from "./a.ts";'));
  assert.deepEqual(cycles(looped), [], "a type-only import is erased: no cycle");
});
