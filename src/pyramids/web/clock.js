// Clocks and the lost-connection banner of the game screen.
//
// The server keeps the clocks (docs/server.md, "Clocks"): every snapshot and
// event carries each seat's time left at the moment it was sent. The page
// only counts the running clock down from there, so a tab that slept or a
// wrong local clock can show a second or two off but never decides anything.

import { el, fill } from "./util.js";
import { t } from "./i18n.js";

/** `seconds` as a clock face: 4:05, 1:02:03, or "2 d 3 h" for turn-based tables. */
export function formatTime(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const secs = String(s % 60).padStart(2, "0");
  if (days > 0) return t("{days} d {hours} h", { days, hours });
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, "0")}:${secs}`;
  return `${minutes}:${secs}`;
}

/** Each seat's clock, counted down locally from the server's last word. */
export class ClockPanel {
  constructor() {
    this.root = el("ul", { class: "clocks", id: "clocks", hidden: true, "aria-label": t("Clocks") });
    this.msg = null;
    this.at = 0;
    this.timer = null;
  }

  /** A message that carries a view (snapshot or event) and the seats it is about. */
  update(msg, seats) {
    this.msg = msg;
    this.seats = seats;
    this.at = performance.now();
    this.draw();
    const running = msg.clock?.running && !msg.view?.is_over;
    if (running && !this.timer) this.timer = setInterval(() => this.draw(), 250);
    if (!running && this.timer) { clearInterval(this.timer); this.timer = null; }
  }

  /** Seconds left for `seat` now. */
  remaining(seat) {
    const c = this.msg.clock;
    let r = c.remaining[seat];
    if (c.running && c.turn === seat && !this.msg.view?.is_over) r -= (performance.now() - this.at) / 1000;
    return Math.max(0, r);
  }

  draw() {
    const m = this.msg;
    const c = m?.clock;
    const left = m?.left || [];
    const timed = c && c.kind !== "untimed" && Array.isArray(c.remaining);
    this.root.hidden = !timed && !left.length;
    if (this.root.hidden) return;
    fill(this.root, ...this.seats.map((s, i) => {
      const out = left.includes(i);
      const running = timed && c.running && c.turn === i && !m.view?.is_over;
      const secs = timed ? this.remaining(i) : null;
      const low = running && c.kind === "realtime" && secs < 10;
      return el("li", { class: ["clock", running ? "running" : "", low ? "low" : "", out ? "out" : ""].join(" "), "data-seat": i },
        el("span", { class: "who" }, s.name),
        el("span", { class: "time", "data-seconds": secs === null ? "" : secs.toFixed(1) },
          out ? t("out of time") : timed ? formatTime(secs) : ""));
    }));
  }

  close() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/**
 * The banner of a lost connection. While it shows, the board takes no clicks
 * (it is `inert`): a move made on a position the server may have moved past
 * would only be refused. It goes once the game is back in sync (the first
 * state message, or the server's "synced", after the reconnection).
 */
export class ConnectionBanner {
  constructor(board) {
    this.board = board;
    this.lost = false;
    this.root = el("div", { class: "conn-banner", id: "conn-banner", role: "alert", hidden: true },
      t("Connection lost: reconnecting… The board is disabled until the game is back in sync."));
  }

  /**
   * The connection's status: "online", "offline", "connecting" or "synced"; `code`
   * is the close code of an "offline". A refusal (4400-4499: no such game, a
   * wrong token) is not a lost connection: nothing will come back to wait for.
   */
  status(state, code) {
    if (state === "offline" && !(code >= 4400 && code < 4500)) this.show(true);
    else if (state === "synced") this.show(false);
  }

  /** A state message arrived: the game is in sync again. */
  synced() { this.show(false); }

  show(lost) {
    if (lost === this.lost) return;
    this.lost = lost;
    this.root.hidden = !lost;
    this.board.inert = lost;
    this.board.classList.toggle("disconnected", lost);
  }
}

/** " · 4:05 left" for a game's summary when the seat to move has a running clock, else "". */
export function timeLeftText(summary) {
  const c = summary.clock;
  if (!c || !c.running || c.turn === null || !Array.isArray(c.remaining)) return "";
  return " · " + t("{time} left", { time: formatTime(c.remaining[c.turn]) });
}
