/**
 * The dashboard's entry: the header, the views and a hash router (`#/query`, `#/tables/db/t`,
 * `#/logs/db/t`, `#/traces/<id>`, `#/pipelines`, `#/status`), so links and reloads keep the place.
 */
import { clearCredentials, currentUser } from "./api.ts";
import { h, replace } from "./dom.ts";
import { installLogin } from "./login.ts";
import { logsView } from "./logs_view.ts";
import { pipelinesView } from "./pipelines_view.ts";
import { queryView } from "./query_view.ts";
import { statusView } from "./status_view.ts";
import { installStyles } from "./styles.ts";
import { tablesView } from "./tables_view.ts";
import { tracesView } from "./traces_view.ts";

const TABS: [string, string][] = [
  ["query", "Query"],
  ["tables", "Tables"],
  ["logs", "Logs"],
  ["traces", "Traces"],
  ["pipelines", "Pipelines"],
  ["status", "Status"],
];

const go = (hash: string) => {
  location.hash = hash;
};

const query = queryView();
const tables = tablesView({
  query: (db, text) => {
    go("#/query");
    query.open({ lang: "sql", text, db, run: true });
  },
  tail: (db, table) => go(`#/logs/${encodeURIComponent(db)}/${encodeURIComponent(table)}`),
});
const logs = logsView();
const traces = tracesView((id) => go(`#/traces/${encodeURIComponent(id)}`));
const pipelines = pipelinesView();
const status = statusView();

const main = h("main", { id: "main" });
const userBox = h("span", { class: "user", id: "user-box" });
const nav = h("nav", { class: "tabs" });

function renderUser(): void {
  const user = currentUser();
  replace(
    userBox,
    user
      ? h(
        "span",
        {},
        `Signed in as ${user} `,
        h("button", {
          class: "link",
          id: "sign-out",
          onclick: () => {
            clearCredentials();
            renderUser();
          },
        }, "sign out"),
      )
      : null,
  );
}

function route(): void {
  const [tab = "query", ...rest] = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  const known = TABS.some(([id]) => id === tab) ? tab : "query";
  for (const a of nav.querySelectorAll("a")) a.classList.toggle("active", a.dataset.tab === known);
  logs.hide();
  status.hide();
  const views: Record<string, () => HTMLElement> = {
    query: () => query.el,
    tables: () => (tables.show(rest[0], rest[1]), tables.el),
    logs: () => (logs.show(rest[0], rest[1]), logs.el),
    traces: () => (traces.show(rest[0]), traces.el),
    pipelines: () => (pipelines.show(), pipelines.el),
    status: () => (status.show(), status.el),
  };
  replace(main, views[known]());
  document.title = `Petrel · ${TABS.find(([id]) => id === known)![1]}`;
}

installStyles();
for (const [id, label] of TABS) nav.appendChild(h("a", { href: `#/${id}`, "data-tab": id }, label));
document.body.append(
  h("header", { class: "top" }, h("a", { class: "brand", href: "#/query" }, "Petrel"), nav, userBox),
  main,
);
installLogin(renderUser);
renderUser();
addEventListener("hashchange", route);
route();
