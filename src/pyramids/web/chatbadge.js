// The unread-chat badge: a button that shows how many lines came while the
// chat was out of sight (below the board on a phone, or in a hidden tab),
// and takes you to it.

import { el } from "./util.js";
import { t, tn } from "./i18n.js";

export class ChatBadge {
  /** `section` is the chat's element; the badge floats over the page until it is seen. */
  constructor(section) {
    this.section = section;
    this.unread = 0;
    this.visible = false;
    this.root = el("button", { type: "button", class: "chat-badge", id: "chat-badge", hidden: true,
      onclick: () => { this.section.scrollIntoView({ behavior: "smooth", block: "end" }); this.section.querySelector("#chat-input")?.focus(); this.clear(); } });
    this.observer = new IntersectionObserver((entries) => {
      this.visible = entries.some((e) => e.isIntersecting);
      if (this.visible && !document.hidden) this.clear();
    });
    this.observer.observe(section);
    this.onVisibility = () => { if (this.visible && !document.hidden) this.clear(); };
    document.addEventListener("visibilitychange", this.onVisibility);
  }

  /** `count` new lines from other players. */
  add(count) {
    if (!count || (this.visible && !document.hidden)) return;
    this.unread += count;
    this.draw();
  }

  clear() {
    this.unread = 0;
    this.draw();
  }

  draw() {
    this.root.hidden = this.unread === 0;
    this.root.textContent = tn("{n} new chat message", "{n} new chat messages", this.unread, { n: this.unread });
    this.root.setAttribute("aria-label", t("Go to the chat"));
  }

  close() {
    this.observer.disconnect();
    document.removeEventListener("visibilitychange", this.onVisibility);
  }
}
