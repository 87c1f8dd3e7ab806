// Pyramido board: each player's pyramid seen from above (floor by floor), jewels and gems,
// the quarry of three dominoes and the four stack tops. A turn is several steps; each step's
// choices glow: pick a quarry domino then two cells, a block to mark, a card side and a
// quarter, or a stack to refill from.

import { el, add, svg, clickable } from "../util.js";

const Q = 22; // one quarter, in pixels
const COLOURS = { R: "#d94c3d", Y: "#f0c419", G: "#3fa34d", B: "#3b7dd8", P: "#8e5cc2", O: "#f08a24" };
const BY_NAME = { red: "R", yellow: "Y", green: "G", blue: "B", purple: "P", orange: "O" };

let ui = { ply: -1, slot: null, first: null, colour: null, floor: null };

function cellName(c, r) {
  return String.fromCharCode(97 + c) + String(r + 1);
}

/** A domino as two blocks side by side (block A left), with its jewel icons. */
function domino(d, x, y, size = 18, extra = "") {
  const g = svg("g", { class: `domino ${extra}`, transform: `translate(${x} ${y})` });
  d.blocks.forEach((b, i) => {
    const bx = i * size * 2;
    g.append(svg("rect", { x: bx, y: 0, width: size * 2, height: size * 2, fill: COLOURS[BY_NAME[b.colour]], class: "block" }));
    for (const j of b.jewels) {
      const jx = bx + (j[1] === "r" ? size * 1.5 : size * 0.5);
      const jy = j[0] === "b" ? size * 1.5 : size * 0.5;
      g.append(jewel(jx, jy, size * 0.32));
    }
  });
  g.append(svg("rect", { x: 0, y: 0, width: size * 4, height: size * 2, class: "domino-edge" }));
  return g;
}

function jewel(cx, cy, r) {
  return svg("path", { class: "jewel", d: `M${cx} ${cy - r} L${cx + r} ${cy} L${cx} ${cy + r} L${cx - r} ${cy} Z` });
}

function gem(cx, cy, colour, r) {
  const k = r / 8;
  return svg("g", { class: "gem" },
    svg("path", { d: `M${cx - 7 * k} ${cy - 3 * k} L${cx - 3 * k} ${cy - 8 * k} L${cx + 3 * k} ${cy - 8 * k} L${cx + 7 * k} ${cy - 3 * k} L${cx} ${cy + 8 * k} Z`, fill: COLOURS[BY_NAME[colour]] }));
}

/** The quarters to draw: the whole top view, or only the blocks of one floor. */
function quarters(p, floor) {
  const tv = p.top_view;
  const n = tv.colour.length;
  const out = [];
  if (floor === null) {
    for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
      const c = tv.colour[y][x];
      if (c !== ".") out.push({ x, y, c, jewel: tv.jewel[y][x] === "1", floor: Number(tv.floor[y][x]) });
    }
    return out;
  }
  for (const b of p.blocks.filter((b) => b.floor === floor)) {
    const c = BY_NAME[b.colour];
    const jw = new Set(b.jewels.map(([x, y]) => `${x},${y}`));
    for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
      const x = b.quarter[0] + dx, y = b.quarter[1] + dy;
      out.push({ x, y, c, jewel: jw.has(`${x},${y}`), floor });
    }
  }
  return out;
}

function extent(p, withGrid) {
  let x0 = 99, y0 = 99, x1 = -1, y1 = -1;
  const grow = (x, y) => { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); };
  for (const q of quarters(p, null)) grow(q.x, q.y);
  if (withGrid && p.grid) {
    const [ox, oy] = p.grid.origin;
    grow(ox, oy);
    grow(ox + 2 * p.grid.cols - 1, oy + 2 * p.grid.rows - 1);
  }
  if (x1 < 0) return [3, 3, 14, 14];
  // at least 12 x 12 quarters, so a small pyramid is not blown up to fill the frame
  const pad = (lo, hi) => {
    const missing = Math.max(0, 12 - (hi - lo + 1));
    lo = Math.max(0, lo - 1 - Math.floor(missing / 2));
    hi = Math.min(17, Math.max(hi + 1 + Math.ceil(missing / 2), lo + 11));
    return [lo, hi];
  };
  const [ax, bx] = pad(x0, x1);
  const [ay, by] = pad(y0, y1);
  return [ax, ay, bx, by];
}

function drawPyramid(p, opts) {
  const { floor, scale, interactive } = opts;
  const [x0, y0, x1, y1] = extent(p, opts.withGrid);
  const q = Q * scale;
  const w = (x1 - x0 + 1) * q, h = (y1 - y0 + 1) * q;
  const s = svg("svg", { viewBox: `-6 -6 ${w + 12} ${h + 12}`, class: "pyramid-top", role: "img", "aria-label": opts.label });
  s.append(svg("rect", { class: "sand", x: -6, y: -6, width: w + 12, height: h + 12, rx: 8 }));
  const g = svg("g", { transform: `translate(${-x0 * q} ${-y0 * q})` });
  s.append(g);
  for (const t of quarters(p, floor)) {
    g.append(svg("rect", { x: t.x * q, y: t.y * q, width: q, height: q, fill: COLOURS[t.c], class: `quarter f${t.floor}` }));
    if (t.jewel) g.append(jewel(t.x * q + q / 2, t.y * q + q / 2, q * 0.3));
  }
  // outlines of the visible blocks, so the 2x2 blocks and floors read clearly
  const key = (b) => `${b.floor}:${b.cell}:${b.colour}:${b.card}`;
  const before = opts.prev ? new Set(opts.prev.blocks.map(key)) : null;
  for (const b of p.blocks) {
    if (floor !== null && b.floor !== floor) continue;
    if (floor === null && Number(p.top_view.floor[b.quarter[1]][b.quarter[0]]) !== b.floor) continue;
    const fresh = before && !before.has(key(b)) ? " just" : "";
    g.append(svg("rect", { class: `block-edge f${b.floor}${b.card !== null ? " card" : ""}${fresh}`, x: b.quarter[0] * q, y: b.quarter[1] * q, width: 2 * q, height: 2 * q }));
  }
  for (const gm of p.gems_placed) {
    if (floor !== null && gm.floor !== floor) continue;
    g.append(gem(gm.quarter[0] * q + q, gm.quarter[1] * q + q, gm.colour, q * 0.38));
  }
  return { svg: s, g, q };
}

export function status(v) {
  return `Floor ${v.floor} of 4${v.step && !v.is_over ? ` · step: ${v.step}` : ""}`;
}

export function render(root, ctx) {
  ui.first = null; // a new message (an error or a move) starts the two-cell choice again
  draw(root, ctx);
}

function draw(root, ctx) {
  const v = ctx.view;
  if (ui.ply !== v.ply) ui = { ...ui, ply: v.ply, slot: null, first: null, colour: null };
  const legal = ctx.interactive ? ctx.legal || [] : [];
  const me = ctx.seat ?? 0;
  const mine = v.pyramids[me];
  const split = legal.map((t) => t.split(" "));
  const kind = (k) => split.filter((m) => m[0] === k);
  const places = split.filter((m) => /^q[1-3]$/.test(m[0]));
  // the gem step is written "gem e5" (or "mark e5"): keep the legal text per cell
  const marks = new Map([...kind("mark"), ...kind("gem")].map((m) => [m[1], m.join(" ")]));
  const cards = [...kind("card"), ...kind("fill")];
  const refills = new Set(kind("refill").map((m) => m[1]));
  const canPass = legal.includes("pass");

  // -- my pyramid, with the current floor's cells as click targets ------------------------
  const showFloor = ui.floor;
  const prevOf = (i) => (ctx.prev && ctx.prev.pyramids ? ctx.prev.pyramids[i] : null);
  const big = drawPyramid(mine, { floor: showFloor, scale: 1.25, interactive: ctx.interactive, withGrid: true, prev: prevOf(me), label: `Your pyramid, ${showFloor ? `floor ${showFloor}` : "top view"}` });
  const q = big.q;
  if (ctx.interactive && mine.grid && showFloor === null) {
    const [ox, oy] = mine.grid.origin;
    const filled = new Set(mine.grid.filled);
    const slotMoves = places.filter((m) => ui.slot === null || m[0] === `q${ui.slot + 1}`);
    const firsts = new Set(slotMoves.map((m) => m[1]));
    const seconds = new Set(slotMoves.filter((m) => m[1] === ui.first).map((m) => m[2]));
    const cardCells = new Set(cards.filter((m) => ui.colour === null || m[1] === ui.colour).map((m) => m[2]));
    for (let r = 0; r < mine.grid.rows; r++) for (let c = 0; c < mine.grid.cols; c++) {
      const name = cellName(c, r);
      const x = (ox + 2 * c) * q, y = (oy + 2 * r) * q;
      let cls = "cell";
      let action = null;
      if (places.length && ui.slot !== null) {
        if (ui.first === null && firsts.has(name)) { cls += " legal"; }
        if (ui.first === name) cls += " chosen";
        if (ui.first !== null && seconds.has(name)) cls += " legal";
        action = () => {
          if (ui.first === null) { ui.first = name; redraw(root, ctx); }
          else if (ui.first === name) { ui.first = null; redraw(root, ctx); }
          else ctx.move(`q${ui.slot + 1} ${ui.first} ${name}`);
        };
      } else if (marks.size) {
        if (marks.has(name)) cls += " legal";
        action = () => ctx.move(marks.get(name) || `gem ${name}`);
      } else if (cards.length && ui.colour !== null) {
        if (cardCells.has(name)) cls += " legal";
      }
      if (filled.has(name)) cls += " filled";
      const cell = svg("rect", { class: cls, x, y, width: 2 * q, height: 2 * q, "data-cell": name });
      big.g.append(cell);
      if (action) clickable(cell, `cell ${name}`, action);
      if (cards.length && ui.colour !== null && cardCells.has(name)) {
        for (const [qx, qy, qn] of [[0, 0, "tl"], [1, 0, "tr"], [0, 1, "bl"], [1, 1, "br"]]) {
          const sub = svg("rect", { class: "quarter-hit", x: x + qx * q, y: y + qy * q, width: q, height: q, "data-quarter": `${name} ${qn}` });
          const move = cards.find((m) => m[1] === ui.colour && m[2] === name && m[3] === qn);
          clickable(sub, `cell ${name}, ${qn} quarter`, () => ctx.move(move ? move.join(" ") : `${cards[0][0]} ${ui.colour} ${name} ${qn}`));
          big.g.append(sub);
        }
      }
    }
  }

  // -- quarry and stacks ------------------------------------------------------------------
  const market = svg("svg", { viewBox: "0 0 560 150", class: "market", role: "img", "aria-label": "Quarry and stacks" });
  market.append(svg("text", { x: 10, y: 18, class: "label" }, "Quarry"), svg("text", { x: 10, y: 96, class: "label" }, "Stacks (top domino)"));
  v.quarry.forEach((d, i) => {
    const x = 10 + i * 180;
    if (!d) { market.append(svg("rect", { class: "empty-slot", x, y: 26, width: 144, height: 36, rx: 4 })); return; }
    const slotLegal = places.some((m) => m[0] === `q${i + 1}`);
    const dom = domino(d, x, 26, 18, `${slotLegal ? "legal" : ""}${ui.slot === i ? " chosen" : ""}`);
    dom.dataset.slot = String(i + 1);
    if (ctx.interactive && places.length) clickable(dom, `quarry domino ${i + 1}`, () => { ui.slot = i; ui.first = null; redraw(root, ctx); });
    market.append(dom);
  });
  v.stacks.forEach((st, i) => {
    const x = 10 + i * 136;
    const ok = refills.has(String(i + 1));
    const g = st.top ? domino(st.top, x, 104, 13, ok ? "legal" : "") : svg("rect", { class: "empty-slot", x, y: 104, width: 104, height: 26 });
    g.dataset.stack = String(i + 1);
    market.append(g, svg("text", { x: x + 108, y: 122, class: "small-label" }, `×${st.size}`));
    if (ctx.interactive && refills.size) clickable(g, `refill from stack ${i + 1} (${st.size} left)`, () => ctx.move(`refill ${i + 1}`));
  });

  // -- step help and choices ---------------------------------------------------------------
  const choices = el("div", { class: "step-choices" });
  if (cards.length) {
    const sides = [...new Set(cards.map((m) => m[1]))];
    add(choices, el("span", {}, cards[0][0] === "fill" ? "No domino fits: lay a card side " : "Cover a block with a card side: "),
      sides.map((c) => el("button", { class: `swatch${ui.colour === c ? " chosen" : ""}`, style: `--sw:${COLOURS[c]}`, "data-colour": c, onclick: () => { ui.colour = ui.colour === c ? null : c; redraw(root, ctx); } }, c)));
  }
  if (canPass) add(choices, el("button", { "data-move": "pass", onclick: () => ctx.move("pass") }, "No card (pass)"));
  const help = {
    place: ui.slot === null ? "Pick a quarry domino, then the cell of its first block and the cell of its second." : ui.first === null ? "Now the cell for block A (left block)." : "Now the cell next to it for block B.",
    mark: "Put a gem: click a glowing block of the domino you just placed.",
    gem: "Put a gem: click a glowing block of the domino you just placed.",
    card: ui.colour === null ? "Optional: pick a card side to cover a block, or pass." : "Click the quarter where the card's jewel goes.",
    refill: "Refill the quarry: click a glowing stack.",
    fill: ui.colour === null ? "Pick a card side." : "Click the quarter of an empty cell for its jewel.",
  }[v.step] || "";

  const floors = el("div", { class: "floor-tabs", role: "tablist" },
    [null, 1, 2, 3, 4].map((f) => el("button", { role: "tab", "aria-selected": String(ui.floor === f), class: ui.floor === f ? "chosen" : "", onclick: () => { ui.floor = f; redraw(root, ctx); } }, f === null ? "Top view" : `Floor ${f}`)));
  const supplies = el("p", { class: "supplies" }, "Gems left: ",
    mine.gems_unused.map((c) => el("span", { class: "gem-chip", style: `--sw:${COLOURS[BY_NAME[c]]}`, title: c }, "◆")),
    " · cards: ", mine.cards_unused.map((pair) => el("span", { class: "card-chip" }, pair.map((c) => el("span", { style: `color:${COLOURS[BY_NAME[c]]}` }, "■")))),
    ` · this floor ${mine.current_floor_score ?? 0} points`);
  const others = v.pyramids.map((p, i) => (i === me ? null : el("figure", { class: "other" },
    drawPyramid(p, { floor: null, scale: 0.55, interactive: false, prev: prevOf(i), label: `${ctx.seats[i].name}'s pyramid` }).svg,
    el("figcaption", {}, `${ctx.seats[i].name}${p.out ? " (out)" : ""}`))));
  add(root,
    el("p", { class: "board-help" }, ctx.interactive ? help : ""), choices, market,
    el("div", { class: "pyramido-main" }, el("div", {}, el("h3", { class: "caption" }, ctx.seat === null || ctx.seat === undefined ? `${ctx.seats[me].name}'s pyramid` : "Your pyramid"), floors, big.svg, supplies), el("div", { class: "others" }, others)));
}

function redraw(root, ctx) {
  root.replaceChildren();
  draw(root, ctx);
}

export function summary(v) {
  const rows = v.pyramids.map((p, i) => el("tr", {}, el("td", {}, v.names[i]),
    [1, 2, 3, 4].map((f) => el("td", {}, String((p.floor_scores || []).find((s) => s.floor === f)?.total ?? "–"))),
    el("td", {}, String(v.scores[i]))));
  return el("table", { class: "breakdown" }, el("thead", {}, el("tr", {}, el("th", {}, "Player"), [1, 2, 3, 4].map((f) => el("th", {}, `Floor ${f}`)), el("th", {}, "Total"))), el("tbody", {}, rows));
}

