// Rematches on the game page: asking for one, and following one that another player started.
//
// A rematch is a new room dealt again with the same seats; it keeps every seat's link, so the
// tokens this page holds open the same seats there (the server says so, docs/server.md).

import { el, add, toast, rememberRoom } from "./util.js";
import { api } from "./net.js";
import { t } from "./i18n.js";

export class Rematch {
  /** `roomId`, `summary` (game and title), `tokens` (seat -> token) of the page's room. */
  constructor({ roomId, summary, tokens, tell, redraw }) {
    this.roomId = roomId;
    this.summary = summary;
    this.tokens = tokens || {};
    this.tell = tell;
    this.redraw = redraw;
    this.offered = null;
  }

  /** Ask the server for a rematch as `seat`, then go there. */
  async ask(seat) {
    try {
      const room = await api(`/api/rooms/${this.roomId}/rematch`, { method: "POST", body: { token: this.tokens[seat] } });
      this.join(room.room);
    } catch (e) { toast(e.message, "error"); }
  }

  join(newRoom) {
    rememberRoom(newRoom, { game: this.summary.game, title: this.summary.title, tokens: this.tokens, links: {}, created: Date.now() });
    location.hash = `#/room/${newRoom}`;
  }

  /** Another player started a rematch: a button to join it, in the end dialog or the panel. */
  offer(newRoom, side) {
    if (this.offered === newRoom) return;
    this.offered = newRoom;
    this.tell([t("A rematch has started.")]);
    const dialog = document.getElementById("summary");
    const where = dialog?.querySelector(".buttons") || side;
    add(where, el("button", { class: "primary", id: "join-rematch", onclick: () => this.join(newRoom) }, t("Join the rematch")));
    this.redraw();
  }
}
