/**
 * The sign-in dialog shown when the server answers 401: one dialog however many requests failed,
 * Basic credentials kept for the tab.
 */
import { onCredentialsNeeded, setCredentials } from "./api.ts";
import { h } from "./dom.ts";

let pending: Promise<boolean> | null = null;
/** The last user name tried, offered again when the server refused the password. */
let lastUser = "";

function ask(reason: string): Promise<boolean> {
  return new Promise((resolve) => {
    const user = h("input", { name: "username", autocomplete: "username", required: true, value: lastUser });
    const password = h("input", { name: "password", type: "password", autocomplete: "current-password" });
    const dialog = h("dialog", { class: "login", id: "login" });
    const form = h(
      "form",
      { method: "dialog" },
      h("h2", {}, "Sign in to Petrel"),
      h("p", { class: "login-reason" }, reason),
      h("label", {}, "User", user),
      h("label", {}, "Password", password),
      h(
        "div",
        { class: "actions" },
        h("button", { type: "button", value: "cancel", onclick: () => dialog.close("cancel") }, "Cancel"),
        h("button", { type: "submit", value: "ok", class: "primary" }, "Sign in"),
      ),
    );
    dialog.appendChild(form);
    form.addEventListener("submit", () => {
      lastUser = user.value;
      setCredentials(user.value, password.value);
    });
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(dialog.returnValue === "ok");
    });
    document.body.appendChild(dialog);
    dialog.showModal();
    (lastUser === "" ? user : password).focus();
  });
}

/** Wires the dialog to the API layer. */
export function installLogin(onChange: () => void): void {
  onCredentialsNeeded((reason) => {
    pending ??= ask(reason).finally(() => {
      pending = null;
      onChange();
    });
    return pending;
  });
}
