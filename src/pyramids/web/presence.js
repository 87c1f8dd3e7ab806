// Presence: whether each player has the game open (online), hidden (away) or not (offline).
//
// The page tells the server when it is shown or hidden (docs/server.md,
// "Presence"); doing so also asks the server to tell it every seat's state,
// across the instances of a cluster. Changes go to the table's news.

import { el, fill } from "./util.js";
import { t } from "./i18n.js";

function label(state) {
  if (state === "online") return t("online");
  if (state === "away") return t("away");
  return t("offline");
}

/** Each seat's presence, shown beside its name, with news of comings and goings. */
export class PresencePanel {
  constructor(tell) {
    this.tell = tell;
    this.states = null;
    this.root = el("ul", { class: "presence", id: "presence", hidden: true, "aria-label": t("Who is here") });
    this.conns = [];
    this.onVisibility = () => { for (const c of this.conns) this.say(c); };
    document.addEventListener("visibilitychange", this.onVisibility);
  }

  /** Tell the server this page's state on `conn` (when it opens, and when the page is hidden or shown). */
  say(conn) {
    if (!this.conns.includes(conn)) this.conns.push(conn);
    if (conn.ws && conn.ws.readyState === WebSocket.OPEN) {
      conn.ws.send(JSON.stringify({ type: "presence", state: document.hidden ? "away" : "online" }));
    }
  }

  /** The server's word: each seat's state; `seats` are the room's seats (their names). */
  update(states, seats) {
    const before = this.states;
    this.states = states;
    if (before && before.length === states.length) {
      const news = [];
      states.forEach((s, i) => {
        if (s === before[i] || seats[i]?.kind === "bot") return;
        const player = seats[i]?.name ?? "?";
        if (s === "offline") news.push(t("{player} left the table.", { player }));
        else if (before[i] === "offline") news.push(t("{player} came back to the table.", { player }));
      });
      if (news.length) this.tell(news);
    }
    this.root.hidden = false;
    fill(this.root, ...states.map((s, i) => seats[i]?.kind === "bot" ? null
      : el("li", { class: `presence-${s}`, "data-seat": i, "data-state": s },
        el("span", { class: "dot", "aria-hidden": "true" }), seats[i]?.name ?? "?", " ", el("small", { class: "muted" }, label(s)))));
  }

  close() {
    document.removeEventListener("visibilitychange", this.onVisibility);
  }
}
