// The table's chat on the game page: the lines any of the page's connections received, and a
// field to write to the table for a seated player. It lives outside the side panel that every
// move redraws, so that typing survives the moves.
//
// Who sees what: players read and write; a spectator reads the chat only where the room's
// creator allowed it (the server then sends it the lines) and never gets a field to write in,
// since the server would refuse every line.

import { el, add, fill } from "./util.js";
import { t } from "./i18n.js";

const SHOWN = 30;

export class ChatBox {
  /**
   * `send(text)` sends a line for the seat shown and says whether it went out; `nameOf(seat,
   * name)` is how this reader sees a seat's name (names.js).
   */
  constructor({ send, nameOf = (seat, stored) => stored }) {
    this.send = send;
    this.nameOf = nameOf;
    this.lines = new Map(); // seq -> line, from any of the page's connections
    this.heard = false; // whether the server sent this page any chat (so it may read it)
    this.section = el("section", { class: "chat", "aria-label": t("Chat"), hidden: true });
    this.list = null;
    this.form = null;
  }

  /** Lines from the server; `whole`: the room's recent chat, replacing what was kept. */
  got(lines, whole) {
    if (whole) this.lines.clear();
    for (const line of lines) this.lines.set(line.seq, line);
    this.heard = true;
  }

  /**
   * Draw for the seat shown: `seated` (a player, who may write) or not (a spectator, or a
   * hot-seat screen waiting for the next player). Solitaires have no chat at all.
   */
  draw({ seated, solitaire }) {
    if (solitaire || (!seated && !this.heard)) { this.section.hidden = true; return; }
    this.section.hidden = false;
    if (!this.list) this.build();
    if (seated && !this.form) this.buildForm();
    if (this.form) this.form.hidden = !seated;
    const lines = [...this.lines.values()].sort((a, b) => a.seq - b.seq).slice(-SHOWN);
    fill(this.list, lines.map((l) => el("li", {}, el("strong", {}, this.nameOf(l.seat, l.name)), ": ", l.text)));
    this.list.scrollTop = this.list.scrollHeight;
    this.empty.hidden = lines.length > 0;
    this.empty.textContent = seated ? t("Say hello to the table.") : t("No messages yet.");
  }

  build() {
    this.list = el("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite", "aria-label": t("Chat") });
    this.empty = el("p", { class: "muted small" });
    add(this.section, el("h3", {}, t("Chat")), this.list, this.empty);
  }

  buildForm() {
    const input = el("input", { type: "text", id: "chat-input", maxlength: 300, autocomplete: "off", "aria-label": t("Message to the table") });
    const send = () => {
      const text = input.value.trim();
      if (text && this.send(text)) input.value = "";
    };
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); send(); } });
    this.form = el("div", { class: "chat-send" }, input, el("button", { id: "chat-send", onclick: send }, t("Send")));
    add(this.section, this.form);
  }
}
