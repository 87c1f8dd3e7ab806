// "Share" / "Copy link" for invite links.
//
// Where the browser has the Web Share API (phones, mostly) the button opens
// the system's share sheet; elsewhere it copies the link. Nothing is shared
// or copied until the button is pressed.

import { el, toast } from "./util.js";
import { t } from "./i18n.js";

/** Whether this browser can open a share sheet for `data`. */
function canShare(data) {
  return typeof navigator.share === "function" && (!navigator.canShare || navigator.canShare(data));
}

/** A button that shares (or copies) `url`; `text` says what the link is for. */
export function shareButton(url, text) {
  const data = { url, title: document.title, text };
  const sharing = canShare(data);
  return el("button", {
    type: "button",
    class: "share-link",
    "data-url": url,
    onclick: async () => {
      if (sharing) {
        try { await navigator.share(data); } catch { /* the sheet was closed: nothing to do */ }
        return;
      }
      try {
        await navigator.clipboard.writeText(url);
        toast(t("Link copied"));
      } catch {
        toast(t("Could not copy the link: select it and copy it by hand."), "error");
      }
    },
  }, sharing ? t("Share") : t("Copy link"));
}
