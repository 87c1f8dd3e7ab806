// Pirámides board: the card layout (pyramid, tripeaks or golf), the stock, the waste and the
// joker, drawn from the seat's view only. A legal card, the stock or the joker acts on a click
// or Enter; a click on any other card still sends it, so the server can say why it cannot go.
//
// Places carry the names of the notation (docs/notation.md): pyramid cards `G7`, the stock
// `draw`, the joker `joker` (and the waste `waste`), each as `data-place` on its element.

import { el, add, svg } from "../util.js";
import { actionable } from "../focus.js";
import { t, tn, tc, number } from "../i18n.js";

const W = 58;          // card width
const H = 82;          // card height
const UNIT = 30;       // one x unit of the view = half a card plus a little gap
const MARGIN = 22;     // room for the row labels left of the layout
const PILE_GAP = 28;   // between the stock, the waste and the joker
const LABEL_W = W + PILE_GAP - 6; // the widest a pile's name may be without meeting the next one's
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

// Literal msgids, so that Babel's extractor finds every word.
const RANK_WORDS = {
  A: () => tc("rank", "Ace"), J: () => tc("rank", "Jack"), Q: () => tc("rank", "Queen"), K: () => tc("rank", "King"),
};
const SUIT_WORDS = {
  C: () => tc("suit", "clubs"), D: () => tc("suit", "diamonds"), H: () => tc("suit", "hearts"), S: () => tc("suit", "spades"),
};

/** A card in words, for screen readers: "Queen of hearts". */
export function cardLabel(code) {
  if (!code) return t("a face-down card");
  if (code === "joker") return t("the joker");
  const r = code[0];
  const rank = RANK_WORDS[r] ? RANK_WORDS[r]() : r === "T" ? number(10) : number(Number(r));
  return t("{rank} of {suit}", { rank, suit: SUIT_WORDS[code[1]]() });
}

/** A card as shown on the table and in the news: "10♥". */
export function cardShort(code) {
  if (!code) return "?";
  if (code === "joker") return "★";
  return (code[0] === "T" ? "10" : code[0]) + SUITS[code[1]];
}

/**
 * A move as the page writes it for a reader: the notation's pile words (`draw`, `joker`) by
 * the names the piles carry on the table in the reader's language (Spanish "mazo", "jóker");
 * a position (`G7`, `3`) as it is. Hints and the list of legal moves use it.
 */
export function moveLabel(text) {
  if (text === "draw") return tc("pile", "stock");
  if (text === "joker") return tc("pile", "joker");
  return text;
}

function signed(n) {
  return n > 0 ? `+${number(n)}` : n < 0 ? `−${number(-n)}` : number(0);
}

function emptyPile(x, cls) {
  return svg("g", { class: `pile-empty ${cls}`, transform: `translate(${x} 0)` },
    svg("rect", { class: "ring", x: -5, y: -5, width: W + 10, height: H + 10, rx: 9 }),
    svg("rect", { class: "slot", width: W, height: H, rx: 6 }));
}

function xOf(cell, rows) {
  return cell.x !== undefined ? cell.x : 2 * cell.col + (rows - 1 - cell.row);
}

/** One card as an SVG group at (x, y); `code` null draws its back. */
export function card(code, x, y, extra = "", place = null, covered = false) {
  const g = svg("g", { class: `card ${extra}`, transform: `translate(${x} ${y})` });
  add(g, svg("rect", { class: "ring", x: -5, y: -5, width: W + 10, height: H + 10, rx: 9 }),
    svg("rect", { class: "shadow", x: 2, y: 3, width: W, height: H, rx: 6 }));
  if (!code) {
    g.classList.add("back");
    add(g, svg("rect", { class: "face", width: W, height: H, rx: 6 }),
      svg("rect", { class: "pattern", x: 5, y: 5, width: W - 10, height: H - 10, rx: 4 }));
  } else if (code === "joker") {
    add(g, svg("rect", { class: "face", width: W, height: H, rx: 6 }),
      svg("text", { class: "joker-star", x: W / 2, y: H / 2 + 14, "text-anchor": "middle" }, "★"),
      svg("text", { class: "joker-word", x: W / 2, y: 17, "text-anchor": "middle", "data-fit": W - 8 }, tc("card", "JOKER")));
  } else {
    const red = code[1] === "D" || code[1] === "H";
    g.classList.add(red ? "red" : "black");
    add(g, svg("rect", { class: "face", width: W, height: H, rx: 6 }),
      svg("text", { class: "rank", x: 5, y: 19 }, code[0] === "T" ? "10" : code[0]),
      svg("text", { class: "suit-small", x: 6, y: 34 }, SUITS[code[1]]));
    // the big pip only on a free card: under the gap of the two cards covering it, it would peek out
    if (!covered) add(g, svg("text", { class: "suit-big", x: W / 2 + 3, y: H - 13, "text-anchor": "middle" }, SUITS[code[1]]));
  }
  if (place) add(g, svg("text", { class: "pos", x: W - 4, y: 13, "text-anchor": "end" }, place));
  return g;
}

export function status(v) {
  const parts = [];
  if (v.rounds > 1) parts.push(t("Round {round} of {rounds}", { round: number(v.round), rounds: number(v.rounds) }));
  parts.push(tn("stock: {n} card", "stock: {n} cards", v.stock));
  // golf scores no runs, and an ended game has no next card
  if (v.layout !== "golf" && !v.is_over) parts.push(t("next card {points}", { points: signed(v.next_card_points) }));
  if (v.layout === "pyramid" || v.jokers_left > 0) parts.push(tn("{n} joker left", "{n} jokers left", v.jokers_left));
  return parts.join(" · ");
}

/** Which move led from `prev` to `v`: {kind: "play"|"draw"|"joker"|"deal", pos?, card?}. */
function lastMove(v, prev) {
  if (!prev || prev.ply === v.ply || prev.pyramid.length !== v.pyramid.length) return null;
  if (prev.round !== v.round) {
    const left = prev.pyramid.filter((c) => !c.removed);
    return { kind: "deal", pos: left.length === 1 ? left[0].pos : null, card: left.length === 1 ? left[0].card : null };
  }
  const played = v.pyramid.find((c, i) => c.removed && !prev.pyramid[i].removed);
  if (played) {
    const before = prev.pyramid.find((c) => c.pos === played.pos);
    return { kind: "play", pos: played.pos, card: before.card || v.waste };
  }
  if (v.stock < prev.stock) return { kind: "draw", card: v.waste };
  if (v.jokers_left < prev.jokers_left) return { kind: "joker", card: "joker" };
  return null;
}

/** What just happened, one translated line each, for the news log. */
export function explain(v, prev) {
  if (!prev || !v || prev.ply === v.ply) return [];
  const lines = [];
  const move = lastMove(v, prev);
  const points = prev.next_card_points;
  if (move && (move.kind === "play" || (move.kind === "deal" && move.pos))) {
    lines.push(t("{card} from {place} to the waste: {points}", { card: cardShort(move.card), place: move.pos, points: signed(points) }));
  } else if (move && move.kind === "draw") {
    lines.push(t("Turned {card} from the stock: {points}", { card: cardShort(move.card), points: signed(-5) }));
  } else if (move && move.kind === "joker") {
    lines.push(t("Joker played: {points}", { points: signed(-50) }));
  }
  // a round ends: cleared (a new deal follows, or the game ends) or stuck
  const ended = v.round !== prev.round ? prev.round : v.is_over && !prev.is_over ? v.round : null;
  if (ended !== null) {
    const r = (v.round_scores || []).find((s) => s.round === ended);
    const total = r ? number(r.total) : "?";
    if (r && r.cleared) lines.push(t("Round {n} cleared: {bonus}, {total} points in the round", { n: number(ended), bonus: signed(50), total }));
    else lines.push(t("Round {n} over: not cleared, {total} points in the round", { n: number(ended), total }));
    if (v.round !== prev.round && !v.is_over) lines.push(t("Round {n}: a new deal", { n: number(v.round) }));
  }
  if (v.is_over && !prev.is_over) lines.push(t("Game over: {score} points", { score: number(v.scores[0]) }));
  return lines;
}

export function render(root, ctx) {
  const ui = ctx.ui || (root._ui ||= {});
  const v = ctx.view;
  const cells = v.pyramid;
  const rows = Math.max(...cells.map((c) => c.row)) + 1;
  const golf = v.layout === "golf";
  const rowStep = golf ? 38 : Math.round(H * 0.56);
  const maxX = Math.max(...cells.map((c) => xOf(c, rows)));
  const layoutW = maxX * UNIT + W;
  const thisRound = (v.round_scores || []).find((r) => r.round === v.round);
  const hasJoker = v.layout === "pyramid" || v.jokers_left > 0 || (thisRound && thisRound.jokers > 0);
  const pilesW = (hasJoker ? 3 : 2) * W + (hasJoker ? 2 : 1) * PILE_GAP;
  const width = Math.max(layoutW, pilesW) + 2 * MARGIN;
  const top = golf ? 40 : 16;
  const pileY = top + (rows - 1) * rowStep + H + 30;
  const height = pileY + H + 44;
  const legal = new Set(ctx.interactive ? ctx.legal || [] : []);
  const move = lastMove(v, ctx.prev);
  const offX = (width - layoutW) / 2;

  const drawing = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: `felt piramides layout-${v.layout}`, role: "group", "aria-label": t("Pirámides: {status}", { status: status(v) }) });
  add(drawing, svg("rect", { class: "table", width, height, rx: 14 }));
  const layer = svg("g", { transform: `translate(${offX} ${top})` });
  add(drawing, layer);
  const where = {}; // place -> [x, y] in drawing coordinates, for the flying card

  // labels: rows lettered (pyramid, tripeaks), or columns lettered and depths numbered (golf)
  if (golf) {
    const cols = [...new Set(cells.map((c) => c.col))].sort((a, b) => a - b);
    for (const col of cols) {
      const c = cells.find((x) => x.col === col);
      add(layer, svg("text", { class: "coord", x: xOf(c, rows) * UNIT + W / 2, y: -12, "text-anchor": "middle" }, c.pos[0]));
    }
    for (let r = 0; r < rows; r++) add(layer, svg("text", { class: "coord", x: -10, y: r * rowStep + 20, "text-anchor": "middle" }, String(r + 1)));
  } else {
    for (let r = 0; r < rows; r++) {
      const first = cells.filter((c) => c.row === r).sort((a, b) => xOf(a, rows) - xOf(b, rows))[0];
      add(layer, svg("text", { class: "coord", x: xOf(first, rows) * UNIT - 11, y: r * rowStep + 24, "text-anchor": "middle" }, first.pos.replace(/\d+$/, "")));
    }
  }

  const order = cells.map((c, i) => i).sort((a, b) => cells[a].row - cells[b].row);
  for (const i of order) {
    const c = cells[i];
    const x = xOf(c, rows) * UNIT;
    const y = c.row * rowStep;
    where[c.pos] = [offX + x, top + y];
    if (c.removed) {
      const just = move && move.pos === c.pos;
      add(layer, svg("rect", { class: `ghost${just ? " last" : ""}`, x, y, width: W, height: H, rx: 6, "data-place": c.pos, "data-pos": c.pos }),
        svg("text", { class: "ghost-pos", x: x + W / 2, y: y + (golf ? 20 : 26), "text-anchor": "middle" }, c.pos));
      continue;
    }
    const playable = legal.has(c.pos);
    const cls = [playable ? "legal" : "", c.free ? "free" : "covered"].join(" ");
    const g = card(c.card, x, y, cls, c.pos, !c.free);
    g.dataset.place = c.pos;
    g.dataset.pos = c.pos;
    const words = c.card ? cardLabel(c.card) : t("a face-down card");
    if (ctx.interactive && playable) {
      actionable(g, c.pos, t("{place}: {card}, play it on the waste", { place: c.pos, card: words }), () => ctx.move(c.pos));
    } else {
      add(g, svg("title", {}, c.free ? t("{place}: {card}", { place: c.pos, card: words }) : t("{place}: {card}, covered", { place: c.pos, card: words })));
      // not actionable (the arrows skip it), but a click asks the server, which says why not
      if (ctx.interactive) g.addEventListener("click", () => ctx.move(c.pos));
    }
    add(layer, g);
  }

  // Stock, waste and joker along the bottom, by their names in the player's language
  // (data-place keeps the notation's names: draw, waste, joker).
  const px = (width - pilesW) / 2;
  const piles = svg("g", { transform: `translate(${px} ${pileY})` });
  add(drawing, piles);
  const stockCls = `stock${legal.has("draw") ? " legal" : ""}${move && move.kind === "draw" ? " from" : ""}`;
  const stock = v.stock > 0 ? card(null, 0, 0, stockCls) : emptyPile(0, stockCls);
  stock.dataset.place = "draw";
  stock.dataset.pos = "draw";
  where.draw = [px, pileY];
  if (ctx.interactive && legal.has("draw")) actionable(stock, "draw", tn("draw: turn the top stock card ({n} left)", "draw: turn the top stock card ({n} left)", v.stock), () => ctx.move("draw"));
  else if (ctx.interactive) stock.addEventListener("click", () => ctx.move("draw"));
  add(piles, stock,
    svg("text", { class: "pile-name", x: W / 2, y: H + 20, "text-anchor": "middle", "data-fit": LABEL_W }, tc("pile", "stock")),
    svg("text", { class: "pile-count", x: W / 2, y: H + 37, "text-anchor": "middle" }, tn("{n} card", "{n} cards", v.stock)));

  const wx = W + PILE_GAP;
  const flying = svg("g", { class: "flying" });
  const waste = card(v.waste, 0, 0, `waste${move && move.kind !== "deal" ? " last" : ""}`);
  waste.dataset.place = "waste";
  waste.dataset.pos = "waste";
  add(waste, svg("title", {}, t("waste: {card}", { card: cardLabel(v.waste) })));
  waste.setAttribute("role", "img");
  waste.setAttribute("aria-label", t("waste: {card}", { card: cardLabel(v.waste) }));
  add(flying, waste);
  add(piles, svg("g", { transform: `translate(${wx} 0)` }, flying),
    svg("text", { class: "pile-name", x: wx + W / 2, y: H + 20, "text-anchor": "middle", "data-fit": LABEL_W }, tc("pile", "waste")),
    svg("text", { class: "pile-count", x: wx + W / 2, y: H + 37, "text-anchor": "middle" }, tn("{n} card", "{n} cards", v.waste_size)));

  if (hasJoker) {
    const jx = 2 * (W + PILE_GAP);
    const jcls = `joker-pile${legal.has("joker") ? " legal" : ""}${move && move.kind === "joker" ? " from" : ""}`;
    const joker = v.jokers_left > 0 ? card("joker", jx, 0, jcls) : emptyPile(jx, jcls);
    joker.dataset.place = "joker";
    joker.dataset.pos = "joker";
    where.joker = [px + jx, pileY];
    if (ctx.interactive && legal.has("joker")) actionable(joker, "joker", tn("joker: play it on the waste ({n} left, costs 50 points)", "joker: play it on the waste ({n} left, costs 50 points)", v.jokers_left), () => ctx.move("joker"));
    else if (ctx.interactive && v.jokers_left > 0) joker.addEventListener("click", () => ctx.move("joker"));
    add(piles, joker,
      svg("text", { class: "pile-name", x: jx + W / 2, y: H + 20, "text-anchor": "middle", "data-fit": LABEL_W }, tc("pile", "joker")),
      svg("text", { class: "pile-count", x: jx + W / 2, y: H + 37, "text-anchor": "middle" }, tn("{n} left", "{n} left", v.jokers_left)));
  }

  // A wide layout (tripeaks) scrolls inside its own box on a phone rather than shrinking
  // its cards below a finger's width; the box remembers where it was scrolled to.
  const box = el("div", { class: `piramides-box layout-${v.layout}`, style: `--vbw:${width}` }, drawing);
  add(root, box);
  if (ui.scrollLeft) box.scrollLeft = ui.scrollLeft;
  box.addEventListener("scroll", () => { ui.scrollLeft = box.scrollLeft; }, { passive: true });
  if (box.scrollWidth > box.clientWidth + 2) add(root, el("p", { class: "board-help muted swipe" }, t("The layout is wider than the screen: swipe it sideways to see all of it.")));
  add(root, el("p", { class: "board-help muted" },
    ctx.interactive ? t("Play a free card one rank above or below the waste card (the Ace is next to the 2 and the King), or turn a card from the stock.") : ""));

  // The card just played flies to the waste from where it was (once per move, not per redraw).
  const key = `${v.round}:${v.ply}`;
  const still = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  if (move && ui.animated !== key && typeof flying.animate === "function" && !still) {
    ui.animated = key;
    const from = move.kind === "play" ? where[move.pos] : move.kind === "draw" ? where.draw : move.kind === "joker" ? where.joker : null;
    if (from) {
      const dx = from[0] - (px + wx), dy = from[1] - pileY;
      flying.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0px, 0px)" }],
        { duration: 450, easing: "cubic-bezier(.25,.8,.35,1)" });
    }
    if (move.kind === "deal") {
      layer.querySelectorAll(".card").forEach((n, k) => n.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 300, delay: 12 * k, fill: "backwards" }));
    }
  } else if (!move) {
    ui.animated = key;
  }
}

export function summary(v) {
  const rows = v.round_scores || [];
  const total = rows.reduce((s, r) => s + r.total, 0);
  // golf scores the cards left (or the stock left), not runs: only its own columns;
  // a layout without jokers has no joker column
  const golf = v.layout === "golf";
  const jokers = v.layout === "pyramid" && (v.variant?.jokers_per_round ?? 0) > 0;
  const head = [t("Round"), ...(golf ? [] : [t("Cards"), t("Stock"), ...(jokers ? [t("Jokers")] : [])]), t("Cleared"), t("Total")];
  return el("div", { class: "piramides-breakdown" },
    el("table", { class: "breakdown" },
      el("caption", {}, t("Points round by round")),
      el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, rows.map((r) => el("tr", {},
        el("th", { scope: "row" }, number(r.round)),
        golf ? null : el("td", {}, signed(r.cards)),
        golf ? null : el("td", { title: tn("{n} card turned", "{n} cards turned", r.stock_cards) }, signed(-5 * r.stock_cards)),
        jokers ? el("td", { title: tn("{n} joker", "{n} jokers", r.jokers) }, signed(-50 * r.jokers)) : null,
        el("td", {}, r.cleared ? (golf ? t("yes") : signed(50)) : t("no")),
        el("td", { class: "num" }, number(r.total))))),
      el("tfoot", {}, el("tr", {}, el("th", { scope: "row", colspan: head.length - 1 }, t("Game total")), el("td", { class: "num" }, number(total))))));
}
