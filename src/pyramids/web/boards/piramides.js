// Pirámides board: the card layout (pyramid, tripeaks or golf), the waste, the stock, the joker.
// Drawn from the seat's view only; a click sends the position, the server judges legality.

import { el, add, fill, svg, clickable } from "../util.js";

const W = 58;          // card width
const H = 82;          // card height
const UNIT = 31;       // one x unit of the view = half a card plus a little gap
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_NAMES = { A: "Ace", T: "10", J: "Jack", Q: "Queen", K: "King" };

function xOf(cell, rows) {
  return cell.x !== undefined ? cell.x : 2 * cell.col + (rows - 1 - cell.row);
}

export function cardLabel(name) {
  if (!name) return "face-down card";
  if (name === "joker") return "Joker";
  const r = name[0];
  return `${RANK_NAMES[r] || r} of ${SUIT_NAMES[name[1]]}`;
}

/** One card as an SVG group at (x, y); `name` null draws its back. */
export function card(name, x, y, extra = "") {
  const g = svg("g", { class: `card ${extra}`, transform: `translate(${x} ${y})` });
  add(g, svg("rect", { class: "shadow", x: 2, y: 3, width: W, height: H, rx: 6 }));
  if (!name) {
    g.classList.add("back");
    add(g, svg("rect", { class: "face", width: W, height: H, rx: 6 }),
      svg("rect", { class: "pattern", x: 5, y: 5, width: W - 10, height: H - 10, rx: 4 }));
    return g;
  }
  if (name === "joker") {
    add(g, svg("rect", { class: "face", width: W, height: H, rx: 6 }),
      svg("text", { class: "joker-star", x: W / 2, y: H / 2 + 12, "text-anchor": "middle" }, "★"),
      svg("text", { class: "rank small", x: W / 2, y: 16, "text-anchor": "middle" }, "JOKER"));
    return g;
  }
  const rank = name[0] === "T" ? "10" : name[0];
  const suit = SUITS[name[1]];
  const red = name[1] === "D" || name[1] === "H";
  g.classList.add(red ? "red" : "black");
  add(g, svg("rect", { class: "face", width: W, height: H, rx: 6 }),
    svg("text", { class: "rank", x: 6, y: 19 }, rank),
    svg("text", { class: "suit-small", x: 6, y: 34 }, suit),
    svg("text", { class: "suit-big", x: W / 2 + 4, y: H - 14, "text-anchor": "middle" }, suit));
  return g;
}

export function status(v) {
  const parts = [];
  if (v.rounds > 1) parts.push(`Round ${v.round}/${v.rounds}`);
  parts.push(`stock ${v.stock}`);
  parts.push(`run ${v.run} (next card +${v.next_card_points})`);
  if (v.layout === "pyramid" || v.jokers_left > 0) parts.push(`jokers ${v.jokers_left}`);
  return parts.join(" · ");
}

export function render(root, ctx) {
  const v = ctx.view;
  const cells = v.pyramid;
  const rows = Math.max(...cells.map((c) => c.row)) + 1;
  const golf = v.layout === "golf";
  const rowStep = golf ? 30 : H * 0.56;
  const maxX = Math.max(...cells.map((c) => xOf(c, rows)));
  const width = Math.max(maxX * UNIT + W, 3 * W + 90) + 24;
  const pileY = (rows - 1) * rowStep + H + 34;
  const height = pileY + H + 30;
  const legal = new Set(ctx.interactive ? ctx.legal || [] : []);
  const prev = ctx.prev && ctx.prev.round === v.round ? ctx.prev : null;
  const justPlayed = new Set(prev ? cells.filter((c, i) => c.removed && prev.pyramid[i] && !prev.pyramid[i].removed).map((c) => c.pos) : []);

  const drawing = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "felt piramides", role: "img", "aria-label": `Pirámides, ${status(v)}` });
  add(drawing, svg("rect", { class: "table", width, height, rx: 14 }));
  const offX = (width - (maxX * UNIT + W)) / 2;
  const layer = svg("g", { transform: `translate(${offX} 16)` });
  add(drawing, layer);
  const order = cells.map((c, i) => i).sort((a, b) => cells[a].row - cells[b].row);
  for (const i of order) {
    const c = cells[i];
    const x = xOf(c, rows) * UNIT;
    const y = c.row * rowStep;
    if (c.removed) {
      const ghost = svg("rect", { class: `ghost${justPlayed.has(c.pos) ? " just" : ""}`, x, y, width: W, height: H, rx: 6, "data-pos": c.pos });
      add(layer, ghost);
      continue;
    }
    const cls = [legal.has(c.pos) ? "legal" : "", c.free ? "free" : "covered"].join(" ");
    const g = card(c.card, x, y, cls);
    g.dataset.pos = c.pos;
    if (ctx.interactive) {
      const what = c.card ? cardLabel(c.card) : "face-down card";
      clickable(g, `${c.pos}: ${what}${legal.has(c.pos) ? " (playable)" : ""}`, () => ctx.move(c.pos));
    }
    add(g, svg("title", {}, `${c.pos}${c.card ? " · " + cardLabel(c.card) : ""}`));
    add(layer, g);
  }

  // Stock, waste and joker along the bottom.
  const piles = svg("g", { transform: `translate(${width / 2 - (W * 3 + 60) / 2} ${pileY})` });
  add(drawing, piles);
  const stock = v.stock > 0 ? card(null, 0, 0, `stock${legal.has("draw") ? " legal" : ""}`) : svg("rect", { class: "ghost", width: W, height: H, rx: 6 });
  add(piles, stock);
  add(piles, svg("text", { class: "pile-label", x: W / 2, y: H + 18, "text-anchor": "middle" }, `stock ${v.stock}`));
  if (ctx.interactive) clickable(stock, `Turn the top stock card (${v.stock} left)`, () => ctx.move("draw"));
  stock.dataset.pos = "draw";
  const wasteChanged = prev && (prev.waste !== v.waste || prev.waste_size !== v.waste_size);
  const waste = card(v.waste, W + 30, 0, `waste${wasteChanged ? " fresh" : ""}`);
  waste.dataset.pos = "waste";
  add(waste, svg("title", {}, `waste: ${cardLabel(v.waste)}`));
  add(piles, waste, svg("text", { class: "pile-label", x: W + 30 + W / 2, y: H + 18, "text-anchor": "middle" }, `waste ${v.waste_size}`));
  if (v.layout === "pyramid" || v.jokers_left > 0) {
    const jx = 2 * (W + 30);
    const joker = v.jokers_left > 0 ? card("joker", jx, 0, `joker-pile${legal.has("joker") ? " legal" : ""}`) : svg("rect", { class: "ghost", x: jx, width: W, height: H, rx: 6 });
    joker.dataset.pos = "joker";
    if (ctx.interactive && v.jokers_left > 0) clickable(joker, `Play a joker on the waste (${v.jokers_left} left, costs 50)`, () => ctx.move("joker"));
    add(piles, joker, svg("text", { class: "pile-label", x: jx + W / 2, y: H + 18, "text-anchor": "middle" }, `jokers ${v.jokers_left}`));
  }
  add(root, drawing);
  add(root, el("p", { class: "board-help muted" },
    ctx.interactive ? "Play a free card one rank above or below the waste card (Ace is next to 2 and King); click the stock to turn a card." : ""));
}

export function summary(v) {
  return el("table", { class: "breakdown" },
    el("thead", {}, el("tr", {}, ["Round", "Cards", "Stock", "Jokers", "Cleared", "Total"].map((t) => el("th", {}, t)))),
    el("tbody", {}, v.round_scores.map((r) => el("tr", {},
      el("td", {}, `${r.round}`), el("td", {}, `+${r.cards}`), el("td", {}, `${r.stock_cards} (−${5 * r.stock_cards})`),
      el("td", {}, `${r.jokers} (−${50 * r.jokers})`), el("td", {}, r.cleared ? "yes (+50)" : "no"), el("td", {}, `${r.total}`)))));
}
