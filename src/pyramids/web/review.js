// The review of a finished game: the evaluation graph, the flagged moves and the better moves.
//
// The data is the server's review (GET /api/rooms/<room>/review, "review" once "done"; the
// format is pyramids.review.Review.to_dict). The panel is pure drawing: it owns no state
// beyond what it is given, and tells its page which position to show through onSelectPly
// (the number of moves played before the decision, as the replay counts positions).
//
// Colours are SVG presentation attributes and classes, never inline CSS, so the page's
// Content-Security-Policy holds; the grade names and every sentence go through t().

import { el, svg, add, fill, clickable } from "./util.js";
import { api } from "./net.js";
import { t, number, percent } from "./i18n.js";

/** Colours of the grades on the graph (the list uses the same through classes). */
const GRADE_COLOURS = { good: "#2e7d32", inaccuracy: "#d4a017", mistake: "#e67e22", blunder: "#c0392b" };
/** Colours of the seats' lines. */
const SEAT_COLOURS = ["#1f6f8b", "#9a6b17", "#6a3d9a", "#b3261e"];
const FLAGGED = ["inaccuracy", "mistake", "blunder"];

/** A grade as players read it. */
export function gradeName(grade) {
  if (grade === "good") return t("good");
  if (grade === "inaccuracy") return t("inaccuracy");
  if (grade === "mistake") return t("mistake");
  if (grade === "blunder") return t("blunder");
  return grade;
}

function valueLabel(data) {
  return data.value_kind === "clear" ? t("Chance to clear the round") : t("Expected result (100% = first place)");
}

/**
 * Ask the server for a finished room's review and wait for it.
 * `onProgress({done, total})` is called while it is computed (the first visitor starts it;
 * later ones get the stored review at once). Resolves to the review data; `signal` (an
 * AbortSignal) stops the polling when the player leaves the page.
 */
export async function loadReview(roomId, { onProgress = () => {}, interval = 1000, signal = null } = {}) {
  let answer = await api(`/api/rooms/${roomId}/review`);
  if (answer.status === "none" || answer.status === "failed") {
    answer = await startReview(roomId, { onProgress, signal });
  }
  while (answer.status === "running") {
    if (signal?.aborted) throw new Error(t("The review could not be computed."));
    onProgress({ done: answer.done, total: answer.total });
    await new Promise((resolve) => setTimeout(resolve, interval));
    answer = await api(`/api/rooms/${roomId}/review`);
  }
  if (answer.status !== "done") throw new Error(t("The review could not be computed."));
  return answer.review;
}

/** How long a page waits before asking again when the server's review queue is full (ms). */
const QUEUE_RETRY = 5000;

/**
 * Ask the server to start the review. Why wait and ask again: the server computes few reviews
 * at a time and refuses more while they run (rate-limited, 429); the player sees why in
 * the progress line and gets the review once there is room, instead of an error.
 */
async function startReview(roomId, { onProgress, signal }) {
  for (;;) {
    try {
      return await api(`/api/rooms/${roomId}/review`, { method: "POST" });
    } catch (e) {
      if (e.error?.code !== "rate-limited" || signal?.aborted) throw e;
      onProgress({ done: 0, total: 0, waiting: t("The server is busy with other reviews: this one starts as soon as there is room.") });
      await new Promise((resolve) => setTimeout(resolve, QUEUE_RETRY));
    }
  }
}

/** A progress line for a review being computed: a bar and "12 of 40 decisions". */
export function reviewProgress({ done = 0, total = 0, waiting = null } = {}) {
  const bar = el("progress", { max: total || 1, value: done, "aria-label": t("Review in progress") });
  const text = waiting || (total ? t("Reviewing: {done} of {total} decisions", { done: number(done), total: number(total) }) : t("Reviewing the game…"));
  return el("p", { class: "review-progress", role: "status" }, bar, " ", text);
}

/** The decision made at position `ply` (moves played before it), or null. */
export function decisionAt(data, ply) {
  return (data.decisions || []).find((d) => d.ply === ply) || null;
}

/** The better move to draw at position `ply` (only where the move played was flagged), or null. */
export function betterMoveAt(data, ply) {
  const d = decisionAt(data, ply);
  return d && FLAGGED.includes(d.grade) && d.best !== d.move ? d.best : null;
}

/**
 * Mark the board's places that a move names (its words: G7, q1, a2, Sk, draw...), as the
 * game page marks a hint: the boards tag their parts with data-place.
 */
export function markBetterMove(root, moveText) {
  const words = new Set(String(moveText || "").split(/[\s,;>()-]+/).filter(Boolean));
  for (const node of root.querySelectorAll("[data-place]")) {
    node.classList.toggle("flagged", words.has(node.dataset.place));
  }
}

function moveLine(data, d) {
  const several = data.seats.length > 1;
  const who = data.players[d.seat];
  const params = { n: number(d.ply + 1), move: d.move, grade: gradeName(d.grade), loss: percent(d.loss), best: d.best, player: who };
  return several
    ? t("Move {n}, {player}: {move}, {grade} ({loss} lost). Better: {best}", params)
    : t("Move {n}: {move}, {grade} ({loss} lost). Better: {best}", params);
}

function summaryList(data) {
  const list = el("ul", { class: "review-summary" });
  for (const s of data.summary || []) {
    if (s.accuracy === null || s.accuracy === undefined) {
      add(list, el("li", {}, t("{player}: no decision to review", { player: s.name })));
      continue;
    }
    add(list, el("li", {},
      el("strong", {}, t("{player}: accuracy {accuracy}", { player: s.name, accuracy: number(Math.round(s.accuracy)) })), " ",
      t("good: {good}, inaccuracies: {inaccuracy}, mistakes: {mistake}, blunders: {blunder}", {
        good: number(s.counts.good), inaccuracy: number(s.counts.inaccuracy),
        mistake: number(s.counts.mistake), blunder: number(s.counts.blunder),
      })));
  }
  return list;
}

/** Round move numbers for the graph's axis: about six, at 1, 2 or 5 times a power of ten. */
export function moveTicks(plies) {
  const raw = Math.max(1, plies / 6);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((k) => k * power).find((k) => k >= raw);
  const ticks = [];
  for (let n = step; n <= plies; n += step) ticks.push(n);
  return ticks;
}

/**
 * The evaluation over the game as an SVG: one line per seat, a point per decision, and the
 * move numbers along the bottom. A decision at position `ply` (moves played before it) is
 * move `ply + 1`, drawn at that move number with the value of its position before the move;
 * a flagged point is larger and in its grade's colour, on its seat's line.
 */
function graph(data, select) {
  const W = 640, H = 218, L = 40, R = 10, T = 10, B = 46;
  const plies = Math.max(1, data.plies || 1);
  const x = (n) => L + ((W - L - R) * (n - 1)) / Math.max(1, plies - 1);
  const y = (v) => T + (H - T - B) * (1 - v);
  const root = svg("svg", { class: "review-graph", viewBox: `0 0 ${W} ${H}`, role: "group", "aria-label": valueLabel(data) });
  for (const v of [0, 0.5, 1]) {
    add(root, svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#ccc", "stroke-width": 1 }),
      svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#655843" }, percent(v)));
  }
  const axis = H - B;
  const ticks = [1, ...moveTicks(plies).filter((n) => n > 1)];
  for (const n of ticks) {
    add(root, svg("line", { class: "review-tick", x1: x(n), x2: x(n), y1: axis, y2: axis + 5, stroke: "#655843", "stroke-width": 1 }),
      svg("text", { class: "review-tick-label", x: x(n), y: axis + 16, "text-anchor": "middle", "font-size": 11, fill: "#655843" }, number(n)));
  }
  add(root, svg("text", { x: W - R, y: H - 4, "text-anchor": "end", "font-size": 11, fill: "#655843" }, t("move number")));
  const where = (d) => [x(d.ply + 1), y(d.value)];
  data.seats.forEach((seat, i) => {
    const mine = data.decisions.filter((d) => d.seat === seat);
    if (!mine.length) return;
    const colour = SEAT_COLOURS[i % SEAT_COLOURS.length];
    const points = mine.map((d) => where(d).map((c) => c.toFixed(1)).join(",")).join(" ");
    add(root, svg("polyline", { class: "review-line", "data-seat": seat, points, fill: "none", stroke: colour, "stroke-width": 2 }));
    if (data.seats.length > 1) {  // a legend: which line is whose
      const lx = L + 8 + i * 130;
      add(root, svg("line", { x1: lx, x2: lx + 18, y1: H - 8, y2: H - 8, stroke: colour, "stroke-width": 3 }),
        svg("text", { x: lx + 22, y: H - 4, "font-size": 11, fill: "#2b2418" }, data.players[seat]));
    }
  });
  for (const d of data.decisions) {
    const flagged = FLAGGED.includes(d.grade);
    const [cx, cy] = where(d);
    const dot = svg("circle", {
      class: `review-point ${d.grade}`, cx: cx.toFixed(1), cy: cy.toFixed(1), "data-ply": d.ply,
      r: flagged ? 6 : 3.5, fill: GRADE_COLOURS[d.grade] || "#888", stroke: "#fff", "stroke-width": 1,
    });
    add(dot, svg("title", {}, moveLine(data, d)));
    clickable(dot, t("Go to move {n}: {move}, {grade}", { n: number(d.ply + 1), move: d.move, grade: gradeName(d.grade) }), () => select(d.ply));
    add(root, dot);
  }
  return root;
}

function mistakesList(data, select) {
  const flagged = data.decisions.filter((d) => FLAGGED.includes(d.grade));
  if (!flagged.length) return el("p", {}, t("No move was flagged."));
  const list = el("ol", { class: "review-mistakes" });
  for (const d of flagged) {
    add(list, el("li", { class: d.grade },
      el("button", { type: "button", class: "link", onclick: () => select(d.ply) }, moveLine(data, d))));
  }
  return list;
}

function possibleList(data) {
  if (!data.possible || !data.possible.length) return null;
  const list = el("ul", { class: "review-possible" });
  for (const r of data.possible) {
    let text;
    if (r.cleared) text = t("Round {round}: cleared.", { round: number(r.round) });
    else if (r.start === "lose") text = t("Round {round}: no play could have cleared this deal.", { round: number(r.round) });
    else if (r.lost_at !== null && r.lost_at !== undefined) {
      text = t("Round {round}: could be cleared until move {n} ({move}); a clearing line from just before it: {line}",
        { round: number(r.round), n: number(r.lost_at + 1), move: r.lost_move, line: r.line.join(" ") });
    } else text = t("Round {round}: the solver could not decide it in time.", { round: number(r.round) });
    add(list, el("li", {}, text));
  }
  return el("div", {}, el("h4", {}, t("What was possible, with every card known")), list);
}

/**
 * The review panel: summary per seat, the evaluation graph (click a point to go to that
 * position), the list of flagged moves with the better move, and for the solitaire what
 * was possible. `onSelectPly(ply)` gets the position to show: the moves played before it.
 */
export function reviewPanel(data, { onSelectPly = () => {} } = {}) {
  const select = (ply) => onSelectPly(ply);
  const panel = el("section", { class: "review", "aria-label": t("Game review") });
  fill(panel,
    el("h3", {}, t("Game review")),
    summaryList(data),
    el("p", { class: "muted small" }, valueLabel(data)),
    graph(data, select),
    el("h4", {}, t("Flagged moves")),
    mistakesList(data, select),
    possibleList(data));
  return panel;
}
