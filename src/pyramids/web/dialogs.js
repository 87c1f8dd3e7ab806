// Questions the app asks before it throws something away (a running game, a finished one).

import { el, add } from "./util.js";
import { t } from "./i18n.js";

/** Ask a yes/no question in a modal dialog; resolves to true for yes. Escape means no. */
export function ask(question, yesLabel, noLabel) {
  return new Promise((resolve) => {
    const dialog = el("dialog", { class: "ask", id: "ask", "aria-labelledby": "ask-text" });
    const done = (answer) => { dialog.close(); dialog.remove(); resolve(answer); };
    add(dialog,
      el("p", { id: "ask-text" }, question),
      el("div", { class: "buttons" },
        el("button", { id: "ask-no", onclick: () => done(false) }, noLabel || t("Cancel")),
        el("button", { id: "ask-yes", class: "primary", onclick: () => done(true) }, yesLabel || t("Yes"))));
    dialog.addEventListener("cancel", (e) => { e.preventDefault(); done(false); });
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector("#ask-no").focus();
  });
}
