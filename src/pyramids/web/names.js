// The names of the seats as each reader sees them.
//
// A name somebody typed is shown as typed. A seat nobody named gets the server's default
// name, in English ("Player 2", "Bot 2 (greedy)", "Bot 2 (mcts hard)": server/rooms.py
// fills them in, and game records keep them); the page shows such a name in the reader's
// own language ("Hráč 2", "Botti: ahne"), so that a Czech creator's table does not greet a
// Spanish guest with Czech words. Why recognise the default text rather than ask the
// server for a flag: records and terminals need a name in every seat, and a typed name
// equal to the default means the same thing in any language.

import { t, number } from "./i18n.js";

/** What a bot choice is called in the seat menu (short) and as a seat's name. */
export function botLabel(agent, level) {
  if (agent === "mcts") {
    if (level === "easy") return t("Bot: thinks ahead, easy");
    if (level === "medium") return t("Bot: thinks ahead, medium");
    if (level === "hard") return t("Bot: thinks ahead, hard");
    return t("Bot: thinks ahead");
  }
  if (agent === "greedy") return t("Bot: greedy");
  if (agent === "random") return t("Bot: random");
  if (agent === "child") return t("Bot: forgetful child");
  return t("Bot: {agent}", { agent });
}

/** The server's name for seat `i` when its creator typed none (English, as stored). */
export function defaultName(seat, i) {
  if (seat?.kind === "bot") {
    const label = seat.level ? `${seat.agent} ${seat.level}` : seat.agent;
    return `Bot ${i + 1} (${label})`;
  }
  return `Player ${i + 1}`;
}

/** Seat `i`'s name for this reader: as typed, or the default in the reader's language. */
export function seatName(seat, i) {
  const stored = seat?.name ?? "";
  if (stored && stored !== defaultName(seat, i)) return stored;
  if (seat?.kind === "bot") return botLabel(seat.agent, seat.level).replace(/^[^:]*:\s*/, "");
  return t("Player {n}", { n: number(i + 1) });
}

/**
 * The seats with their names as this reader sees them (new objects; the rest as given), and
 * the view's `names` (the names the game was dealt with, which the boards print) the same way.
 */
export function localSeats(seats) {
  return (seats || []).map((s, i) => ({ ...s, name: seatName(s, i) }));
}

export function localView(view, seats) {
  if (!view || !Array.isArray(view.names)) return view;
  const names = view.names.map((n, i) => (seats && seats[i] ? seatName({ ...seats[i], name: n }, i) : n));
  return { ...view, names };
}
