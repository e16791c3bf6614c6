/** Small shared pieces of the dashboard's UI: error boxes, cards, key-value lists. */
import { ApiError } from "./api.ts";
import { type Child, h } from "./dom.ts";

/** An error as the server said it: status, message and the raw body. */
export function errorBox(e: unknown): HTMLElement {
  if (e instanceof ApiError) {
    return h(
      "div",
      { class: "error", role: "alert", "data-status": e.status },
      h("strong", {}, `HTTP ${e.status}: `),
      h("span", { class: "error-message" }, e.message),
      e.body !== e.message ? h("pre", { class: "error-body" }, e.body) : null,
    );
  }
  return h(
    "div",
    { class: "error", role: "alert" },
    h("strong", {}, "Error: "),
    String((e as Error)?.message ?? e),
  );
}

/** A titled panel. */
export function card(title: string, ...children: Child[]): HTMLElement {
  return h("section", { class: "card" }, h("h3", {}, title), ...children);
}

/** A two-column list of facts. */
export function facts(items: [string, Child][]): HTMLElement {
  const dl = h("dl", { class: "facts" });
  for (const [k, v] of items) dl.append(h("dt", {}, k), h("dd", {}, v));
  return dl;
}

/** Runs an async action from a button, disabling it meanwhile and showing errors in `out`. */
export async function withBusy(
  button: HTMLButtonElement,
  out: HTMLElement,
  fn: () => Promise<void>,
): Promise<void> {
  button.disabled = true;
  button.classList.add("busy");
  try {
    await fn();
  } catch (e) {
    out.replaceChildren(errorBox(e));
  } finally {
    button.disabled = false;
    button.classList.remove("busy");
  }
}

/** Bytes for people. */
export function formatBytes(n: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let u = 0;
  while (Math.abs(n) >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return u === 0 ? `${n} B` : `${n.toFixed(1)} ${units[u]}`;
}
