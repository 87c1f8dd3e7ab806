// One seat on the game page (or the spectator's place): its connection, the last message it
// applied with the view before it, the messages waiting their turn, and the board's choices
// in progress for it. A hot-seat page holds one per seat on this screen.
//
// Why messages wait: another player's moves are shown one at a time, PACE apart, so that a
// bot's quick turn of several steps can be followed; the page's own moves, and the events a
// page catches up on when it opens (the news it rebuilds), are applied at once.

import { SeatConnection } from "./net.js";

/** How long another player's move stays on screen before the next one is shown (ms). */
const PACE = 650;

export class SeatView {
  /**
   * `roomId`; `seat`: a seat number, or null for a spectator. `handlers`: `apply(view, msg,
   * {catchingUp})` for each message in turn, and the connection's `onError`, `onStatus`,
   * `onRematch`, `onChat`, `onPresence`. `since`/`catchUpTo`: the events after `since` are asked for when
   * the page opens, and those before `catchUpTo` (the version when it opened) are caught up.
   */
  constructor(roomId, seat, token, { handlers, mine, since = null, catchUpTo = -1, timers }) {
    this.seat = seat;
    this.key = seat === null ? "spectator" : seat;
    this.msg = null;
    this.prev = null; // the view before msg's
    this.ui = {};
    this.queue = [];
    this.busy = false;
    this.mine = mine; // seats on this screen, whose moves are not paced
    this.catchUpTo = catchUpTo;
    this.apply = handlers.apply;
    this.timers = timers;
    this.conn = new SeatConnection(roomId, token, {
      since,
      onState: (msg) => {
        if (msg.seat === undefined) msg.seat = seat; // events do not repeat the seat
        this.queue.push(msg);
        this.pump();
      },
      onError: handlers.onError,
      onStatus: handlers.onStatus,
      onRematch: handlers.onRematch,
      onChat: handlers.onChat,
      onPresence: handlers.onPresence,
    });
  }

  /**
   * Apply what waits, pausing PACE after another player's move while more follow. The events
   * a page catches up on when it opens (before `catchUpTo`) are applied at once and not drawn:
   * they arrive one message at a time, and only the last one is worth a drawing.
   */
  pump() {
    while (!this.busy && this.queue.length) {
      const msg = this.queue.shift();
      const catchingUp = msg.version < this.catchUpTo;
      this.apply(this, msg, { catchingUp });
      const other = msg.type === "event" && msg.event && !this.mine.includes(msg.event.seat);
      if (other && this.queue.length && msg.version >= this.catchUpTo) {
        this.busy = true;
        const id = setTimeout(() => { this.timers.delete(id); this.busy = false; this.pump(); }, PACE);
        this.timers.add(id);
      }
    }
  }

  close() { this.conn.close(); }
}
