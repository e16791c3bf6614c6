/** Pipelines: the stored list, a YAML editor, dry runs against pasted sample lines, and saving. */
import { isTableNotFound, parseJsonExact, request, sqlObjects } from "./api.ts";
import { h, replace, select } from "./dom.ts";
import { grid } from "./grid.ts";
import { errorBox, withBusy } from "./ui.ts";

const TEMPLATE = `processors:
  - dissect:
      fields:
        - message
      patterns:
        - '%{ip} - %{user} [%{ts}] "%{method} %{path}" %{status}'
  - date:
      fields:
        - ts
      formats:
        - "%d/%b/%Y:%H:%M:%S %z"

transform:
  - fields:
      - ip
      - method
    type: string
    index: tag
  - fields:
      - path
      - user
    type: string
  - fields:
      - status
    type: uint16
  - fields:
      - ts
    type: time
    index: timestamp
`;

const SAMPLE = `127.0.0.1 - alice [10/Oct/2024:13:55:36 +0000] "GET /index.html" 200
10.0.0.7 - bob [10/Oct/2024:13:55:37 +0000] "POST /api/logs" 201`;

interface DryRunTable {
  table_name: string;
  schema: { name: string; data_type: string; column_type: string }[];
  rows: { value: unknown }[][];
}

/** The pipeline editor's inputs. */
function editors() {
  const name = h("input", {
    id: "pipeline-name",
    placeholder: "pipeline name",
    "aria-label": "Pipeline name",
  });
  const yaml = h("textarea", { id: "pipeline-yaml", class: "editor", rows: 18, spellcheck: "false" });
  yaml.value = TEMPLATE;
  const sample = h("textarea", { id: "pipeline-sample", class: "editor", rows: 5, spellcheck: "false" });
  sample.value = SAMPLE;
  const dataType = select(
    [["text/plain", "one text line per entry"], ["application/x-ndjson", "NDJSON"], [
      "application/json",
      "JSON",
    ]],
    "text/plain",
    { id: "pipeline-data-type", "aria-label": "Sample format" },
  );
  return { name, yaml, sample, dataType };
}

/** Builds the pipelines view. */
export function pipelinesView(): { el: HTMLElement; show: () => void } {
  const list = h("ul", { id: "pipelines-list", class: "plain-list" });
  const { name, yaml, sample, dataType } = editors();
  const dryRunBtn = h("button", { id: "pipeline-dryrun", class: "primary" }, "Dry run");
  const saveBtn = h("button", { id: "pipeline-save" }, "Save");
  const out = h("div", { id: "pipeline-results", class: "results" });

  dryRunBtn.addEventListener("click", () =>
    withBusy(dryRunBtn, out, async () => {
      const res = await request("/v1/pipelines/_dryrun", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ pipeline: yaml.value, data: sample.value, data_type: dataType.value }),
      });
      replace(out, ...dryRunTables(parseJsonExact(await res.text()) as DryRunTable[]));
    }));

  saveBtn.addEventListener("click", () =>
    withBusy(saveBtn, out, async () => {
      if (name.value.trim() === "") throw new Error("Give the pipeline a name first");
      const res = await request(`/v1/pipelines/${encodeURIComponent(name.value.trim())}`, {
        method: "POST",
        headers: { "content-type": "application/x-yaml" },
        body: yaml.value,
      });
      const body = await res.json();
      replace(
        out,
        h("div", { class: "summary" }, `Saved ${name.value.trim()} version ${body.pipelines?.[0]?.version}`),
      );
      await loadList();
    }));

  const openPipeline = async (pipeline: string) => {
    try {
      const res = await request(`/v1/pipelines/${encodeURIComponent(pipeline)}`);
      const body = await res.json();
      name.value = pipeline;
      yaml.value = body.pipelines?.[0]?.pipeline ?? "";
      replace(out);
    } catch (e) {
      replace(out, errorBox(e));
    }
  };

  const loadList = async () => {
    try {
      const stored = await storedPipelines();
      replace(
        list,
        ...(stored.size === 0 ? [h("li", { class: "muted" }, "No pipelines stored yet.")] : []),
        ...[...stored].map(([n, versions]) =>
          h(
            "li",
            {},
            h("button", { class: "link", onclick: () => openPipeline(n) }, n),
            h("span", { class: "muted" }, ` ${versions} version${versions === 1 ? "" : "s"}`),
          )
        ),
      );
    } catch (e) {
      replace(list, h("li", {}, errorBox(e)));
    }
  };

  const el = h(
    "div",
    { class: "view pipelines-view" },
    h(
      "aside",
      { class: "tree" },
      h("h3", {}, "Pipelines"),
      list,
      h("button", {
        class: "link",
        onclick: () => {
          name.value = "";
          yaml.value = TEMPLATE;
        },
      }, "+ new pipeline"),
    ),
    h(
      "div",
      { class: "detail" },
      h("div", { class: "toolbar" }, name, saveBtn),
      h("label", { class: "block" }, "Pipeline (YAML)", yaml),
      h("label", { class: "block" }, "Sample input", sample),
      h("div", { class: "toolbar" }, dataType, dryRunBtn),
      out,
    ),
  );
  return { el, show: () => void loadList() };
}

/** The stored pipelines and how many versions each has (`greptime_private.pipelines`). */
async function storedPipelines(): Promise<Map<string, number>> {
  const rows = await sqlObjects("SELECT name FROM pipelines ORDER BY name", "greptime_private").catch((e) => {
    if (isTableNotFound(e)) return []; // created with the first pipeline
    throw e;
  });
  const out = new Map<string, number>();
  for (const r of rows) out.set(String(r.name), (out.get(String(r.name)) ?? 0) + 1);
  return out;
}

const TIME_TYPES: Record<string, string> = {
  TIMESTAMP_SECOND: "TimestampSecond",
  TIMESTAMP_MILLISECOND: "TimestampMillisecond",
  TIMESTAMP_MICROSECOND: "TimestampMicrosecond",
  TIMESTAMP_NANOSECOND: "TimestampNanosecond",
};

/** A dry run's would-be inserts as tables. */
function dryRunTables(tables: DryRunTable[]): HTMLElement[] {
  return tables.flatMap((t) => [
    h(
      "div",
      { class: "summary" },
      `Table ${t.table_name}: ${t.rows.length} row${t.rows.length === 1 ? "" : "s"}`,
    ),
    grid(
      t.schema.map((c) => ({
        name: `${c.name} (${c.data_type}, ${c.column_type})`,
        type: TIME_TYPES[c.data_type],
      })),
      t.rows.map((r) => r.map((c) => c.value)),
    ),
  ]);
}
