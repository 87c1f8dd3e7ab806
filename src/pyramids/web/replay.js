// The replay of a finished game: step through every position, from any seat's view.

import { el, add, fill, fitLabels } from "./util.js";
import { api } from "./net.js";
import { t, number } from "./i18n.js";
import { icon } from "./icons.js";
import { checkDeal } from "./fair.js";
import { loadReview, reviewPanel, reviewProgress, betterMoveAt, markBetterMove, decisionAt, gradeName } from "./review.js";
import { localSeats, localView, seatName } from "./names.js";

export async function replayPage(main, roomId, query, games, loadBoard) {
  const seatParam = query.get("seat");
  const seatQ = seatParam !== null ? `seat=${seatParam}&` : "";
  const data = await api(`/api/rooms/${roomId}/replay?${seatQ}`);
  const rawSeats = data.seats;
  data.seats = localSeats(rawSeats); // the names as this reader sees them (names.js)
  const gameInfo = games.find((g) => g.id === data.game);
  const board = await loadBoard(data.game, gameInfo);
  const total = data.moves.length;
  const label_ = (text) => (board.moveLabel ? board.moveLabel(text) : text);
  const views = new Map([[data.ply, localView(data.view, rawSeats)]]);
  const fetchView = async (k) => {
    if (!views.has(k)) views.set(k, localView((await api(`/api/rooms/${roomId}/replay?${seatQ}ply=${k}`)).view, rawSeats));
    return views.get(k);
  };
  let i = total;
  let shownAt = -1;
  let review = null;
  const reviewBox = el("section", { class: "review-box", id: "review", "aria-label": t("Review") });
  const root = el("div", { class: "board", id: "board" });
  const label = el("span", { id: "replay-pos", "aria-live": "polite" });
  const slider = el("input", { type: "range", min: 0, max: total, value: i, "aria-label": t("Position in the game") });
  const seatSel = el("select", { "aria-label": t("Whose view") }, el("option", { value: "" }, t("Public view")),
    data.seats.map((s) => el("option", { value: s.seat, selected: String(s.seat) === seatParam }, t("{player}'s view", { player: s.name }))));
  seatSel.addEventListener("change", () => { location.hash = `#/replay/${roomId}${seatSel.value !== "" ? `?seat=${seatSel.value}` : ""}`; });
  const show = async () => {
    i = Math.max(0, Math.min(total, i));
    const k = i;
    const [view, prev] = await Promise.all([fetchView(k), k > 0 ? fetchView(k - 1) : null]);
    if (k !== i || k === shownAt) return; // a later step won the race
    shownAt = k;
    slider.value = k;
    // a flagged decision is shown as the position it was made in, with the better move drawn:
    // the caption names that decision's move (the next one), not the move before it
    const flagged = review && betterMoveAt(review, k) && decisionAt(review, k);
    label.textContent = flagged
      ? t("before move {n} of {total}: {move} was played ({grade}); better: {best}", {
        n: number(k + 1), total: number(total), move: label_(flagged.move), grade: gradeName(flagged.grade), best: label_(flagged.best),
      })
      : k === 0
        ? t("start (0 of {total})", { total: number(total) })
        : t("move {n} of {total}: {move}", { n: number(k), total: number(total), move: label_(data.moves[k - 1]) });
    fill(root);
    board.render(root, { view, legal: null, seat: data.seat, seats: data.seats, prev, interactive: false, move: () => {}, ui: {}, redraw: () => {}, lastMover: null });
    fitLabels(root);
    const better = review && betterMoveAt(review, k);
    if (better) markBetterMove(root, better); // the better move of a mistake, drawn on the board
  };
  slider.addEventListener("input", () => { i = Number(slider.value); show(); });
  const step = (d) => () => { i += d; show(); };
  const keys = (e) => {
    if (e.target.matches("input, select, textarea")) return;
    if (e.key === "ArrowLeft") step(-1)();
    if (e.key === "ArrowRight") step(1)();
    if (e.key === "Home") { i = 0; show(); }
    if (e.key === "End") { i = total; show(); }
  };
  document.addEventListener("keydown", keys);
  const button = (id, name, text, action) => el("button", { id, class: "icon-button", onclick: action, "aria-label": text, title: text }, icon(name));
  add(main, el("section", { class: "replay" },
    el("h2", {}, t("Replay: {game}", { game: gameInfo?.title || data.title }),
      typeof data.seed === "number" && [" ", el("small", { class: "muted" }, t("deal {seed}", { seed: data.seed }))]),
    el("div", { class: "replay-controls" },
      button("first", "first", t("First position"), () => { i = 0; show(); }),
      button("prev", "prev", t("Previous move"), step(-1)),
      slider,
      button("next", "next", t("Next move"), step(1)),
      button("last", "last", t("Last position"), () => { i = total; show(); }),
      seatSel, label),
    root,
    reviewBox,
    el("p", {}, el("a", { href: `/api/rooms/${roomId}/record`, download: `${data.game}-${roomId}.json` }, t("Download the record (JSON)")))));
  await show();
  fill(reviewBox, reviewProgress({}));
  const leaving = new AbortController();
  loadReview(roomId, { onProgress: (p) => fill(reviewBox, reviewProgress(p)), signal: leaving.signal })
    .then((r) => {
      review = localReview(r, rawSeats);
      fill(reviewBox, reviewPanel(review, { onSelectPly: (ply) => { i = ply; shownAt = -1; show(); } }));
      shownAt = -1;
      show();
    })
    .catch((e) => { if (!leaving.signal.aborted) fill(reviewBox, el("p", { class: "error" }, e.message)); });
  showFairness(main.querySelector(".replay h2"), roomId, data);
  return () => { leaving.abort(); document.removeEventListener("keydown", keys); };
}

/** A review with the players' names as this reader sees them (names.js). */
function localReview(r, seats) {
  const named = (n, i) => (seats[i] ? seatName({ ...seats[i], name: n }, i) : n);
  return {
    ...r,
    players: (r.players || []).map(named),
    summary: (r.summary || []).map((s) => ({ ...s, name: named(s.name, s.seat) })),
  };
}

/** Whether the revealed deal (a secret, or a seed) matches the commitment the room published at its start. */
async function showFairness(after, roomId, data) {
  const box = el("p", { class: "fairness muted", id: "fairness", role: "status" }, t("Checking the deal…"));
  after.after(box);
  let verdict;
  try { verdict = await checkDeal(roomId, data); } catch { verdict = { status: "unchecked" }; }
  box.dataset.status = verdict.status;
  if (verdict.status === "fair") {
    box.textContent = data.practice
      ? t("Practice game: its creator chose the deal. The deal matches what the room announced.")
      : typeof data.seed === "number"
        ? t("Fair deal: the revealed seed matches the commitment the room published before the first move.")
        : t("Fair deal: the revealed secret matches the commitment the room published before the first move.");
    box.className = "fairness ok";
  } else if (verdict.status === "mismatch" || verdict.status === "changed") {
    box.textContent = t("Warning: this deal does not match the commitment the room published. The game may have been tampered with.");
    box.className = "fairness error";
  } else {
    box.textContent = t("This game carries no commitment to check its deal against.");
  }
}
