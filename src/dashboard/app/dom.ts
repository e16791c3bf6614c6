/** A tiny element builder: `h("button", { class: "x", onclick: fn }, "Run")`. */

/** What `h` accepts as children. */
export type Child = Node | string | number | null | undefined | false;

/** Attribute values: strings, booleans (present or not), or event listeners for `on…` keys. */
export type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

/** Creates an element with attributes, listeners and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "value" && "value" in el) (el as HTMLInputElement).value = String(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, ...children);
  return el;
}

/** Appends children, skipping empty ones. */
export function append(el: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
}

/** Replaces an element's children. */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, ...children);
}

/** A `<select>` of options (value = label unless pairs are given). */
export function select(
  options: (string | [string, string])[],
  value: string,
  attrs: Attrs = {},
): HTMLSelectElement {
  const sel = h("select", attrs);
  for (const o of options) {
    const [v, label] = typeof o === "string" ? [o, o] : o;
    sel.appendChild(h("option", { value: v }, label));
  }
  sel.value = value;
  return sel;
}
