// Browser notifications on your turn, while the game is open in a background tab.
//
// Permission is asked for by a button the player presses, never on page
// load; a page that shows is not notified (its title and sound do that).

import { el } from "./util.js";
import { t } from "./i18n.js";

function supported() {
  return typeof window.Notification === "function";
}

/** The button that asks for notifications (null when they are on, refused or unknown here). */
export function notifyButton(onChange) {
  if (!supported() || Notification.permission !== "default") return null;
  return el("button", {
    type: "button",
    id: "notify",
    title: t("Show a notification when it is your turn and this tab is in the background"),
    onclick: async () => {
      try { await Notification.requestPermission(); } catch { /* refused: nothing more to ask */ }
      onChange?.();
    },
  }, t("Notify me"));
}

/** Notify the player that it is their move in `title`, if the page is hidden and they allowed it. */
export function notifyTurn(title) {
  if (!supported() || Notification.permission !== "granted" || !document.hidden) return null;
  const note = new Notification(t("Your move"), { body: title, tag: "pyramids-turn" });
  note.onclick = () => { window.focus(); note.close(); };
  return note;
}
