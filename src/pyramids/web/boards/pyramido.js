// Pyramido board: each player's pyramid seen from above, the quarry of three dominoes in front
// of the four face-up stacks. Dominoes are drawn as pieces (two blocks, one outline); every floor
// is laid over the one below with its own shadow and rims (floor n: n rims), so the top view is
// what the eye sees and the colours are the very colours of the quarry. A turn is several steps
// and each step's choices glow: a quarry domino, then the cell of its block A, then the cell of
// block B; a block to mark; a card side and a quarter; a stack to refill from.
//
// Place names (data-place): cells of the floor being built as the notation names them (`e5` on
// floor 1's frame, `a1`.. on upper floors), quarry slots `q1`-`q3`,
// stacks by number `1`-`4` (as `refill 2` names them), card sides by colour letter `R`..`O`, and `pass`.

import { el, add, svg } from "../util.js";
import { actionable } from "../focus.js";
import { boardUi } from "./ui-state.js";
import { t, tn, name, number } from "../i18n.js";

const Q = 24; // one quarter of a block, in SVG units
const GUTTER = 18; // room for the row and column labels
const HEX = { red: "#d94c3d", yellow: "#f0c419", green: "#3fa34d", blue: "#3b7dd8", purple: "#8e5cc2", orange: "#f08a24" };
const ORDER = ["red", "yellow", "green", "blue", "purple", "orange"];
const LETTERS = "RYGBPO";
const QUARTERS = ["tl", "tr", "bl", "br"];
const ROT1 = [1, 3, 0, 2]; // a quarter turned 90° clockwise (tl->tr, tr->br, bl->tl, br->bl)

const letterOf = (colour) => LETTERS[ORDER.indexOf(colour)];
const colourOf = (letter) => ORDER[LETTERS.indexOf(String(letter).toUpperCase())];
const colourName = (id) => name("colour", id);

function cellName(c, r) {
  return String.fromCharCode(97 + c) + String(r + 1);
}

function cellPos(label) {
  return [label.charCodeAt(0) - 97, Number(label.slice(1)) - 1];
}

// -- state kept between redraws ---------------------------------------------------------------

// render and cancel are this module's own (function declarations, so already defined here)
const { begin, redraw, ownKeys } = boardUi({ render, cancel });

// -- drawing pieces -----------------------------------------------------------------------------

function jewel(cx, cy, r, cls = "jewel") {
  return svg("g", { class: cls },
    svg("path", { class: "jewel-body", d: `M${cx} ${cy - r} L${cx + r} ${cy - r * 0.2} L${cx + r * 0.62} ${cy + r} L${cx - r * 0.62} ${cy + r} L${cx - r} ${cy - r * 0.2} Z` }),
    svg("path", { class: "jewel-facet", d: `M${cx - r} ${cy - r * 0.2} L${cx + r} ${cy - r * 0.2} M${cx} ${cy - r} L${cx - r * 0.35} ${cy - r * 0.2} L${cx} ${cy + r} L${cx + r * 0.35} ${cy - r * 0.2} Z` }));
}

/** A player's gem: a cut stone in its colour, ringed white so it shows on its own colour. */
function gem(cx, cy, colour, r) {
  return svg("g", { class: "gem" },
    svg("circle", { class: "gem-ring", cx, cy, r: r * 1.08 }),
    svg("path", { class: "gem-body", fill: HEX[colour], d: `M${cx - r * 0.85} ${cy - r * 0.3} L${cx - r * 0.4} ${cy - r * 0.8} L${cx + r * 0.4} ${cy - r * 0.8} L${cx + r * 0.85} ${cy - r * 0.3} L${cx} ${cy + r * 0.85} Z` }),
    svg("path", { class: "gem-facet", d: `M${cx - r * 0.85} ${cy - r * 0.3} L${cx + r * 0.85} ${cy - r * 0.3} M${cx - r * 0.4} ${cy - r * 0.8} L${cx - r * 0.2} ${cy - r * 0.3} L${cx} ${cy + r * 0.85} L${cx + r * 0.2} ${cy - r * 0.3} L${cx + r * 0.4} ${cy - r * 0.8}` }));
}

/** One block (2x2 quarters) at x, y with jewels in the named quarters. */
function block(colour, jewels, x, y, q) {
  const g = svg("g", { class: "blk" });
  g.append(svg("rect", { class: "block", x, y, width: 2 * q, height: 2 * q, fill: HEX[colour] }));
  for (const j of jewels) {
    const k = QUARTERS.indexOf(j);
    g.append(jewel(x + (k % 2 ? 1.5 : 0.5) * q, y + (k >= 2 ? 1.5 : 0.5) * q, q * 0.34));
  }
  return g;
}

/** A quarry or stack domino lying horizontally (block A left), as one piece. */
function flatDomino(d, x, y, size, extra = "") {
  const g = svg("g", { class: `domino ${extra}`.trim(), transform: `translate(${x} ${y})` });
  const inner = svg("g", { class: "piece-body" });
  g.append(inner);
  inner.append(svg("rect", { class: "piece-shadow", x: 1.5, y: 2.5, width: size * 4, height: size * 2, rx: 4 }));
  d.blocks.forEach((b, i) => inner.append(block(b.colour, b.jewels, i * size * 2, 0, size)));
  inner.append(svg("line", { class: "seam", x1: size * 2, x2: size * 2, y1: 1, y2: size * 2 - 1 }),
    svg("rect", { class: "domino-edge", x: 0, y: 0, width: size * 4, height: size * 2, rx: 3 }));
  return g;
}

function turned(jewels, turns) {
  return jewels.map((j) => {
    let k = QUARTERS.indexOf(j);
    for (let i = 0; i < turns; i++) k = ROT1[k];
    return QUARTERS[k];
  });
}

function direction(a, b) {
  const [ac, ar] = cellPos(a), [bc, br] = cellPos(b);
  if (bc === ac + 1 && br === ar) return 0;
  if (br === ar + 1 && bc === ac) return 1;
  if (bc === ac - 1 && br === ar) return 2;
  if (br === ar - 1 && bc === ac) return 3;
  return -1;
}

// -- the pyramid ------------------------------------------------------------------------------

/** Blocks grouped into pieces: the two blocks of a domino on one floor, or a single card. */
function pieces(p) {
  const out = [];
  const byDomino = new Map();
  for (const b of p.blocks) {
    if (b.domino === null || b.domino === undefined) { out.push({ floor: b.floor, blocks: [b], card: true }); continue; }
    const key = `${b.floor}:${b.domino}`;
    if (!byDomino.has(key)) { const piece = { floor: b.floor, blocks: [], card: false, id: b.domino }; byDomino.set(key, piece); out.push(piece); }
    byDomino.get(key).blocks.push(b);
  }
  return out;
}

const blockKey = (floor, cell) => `${floor}:${cell}`;

/** The origin quarter of a floor's grid, from the grid itself or from a block laid on it. */
function floorOrigin(p, floor) {
  if (p.grid && p.grid.floor === floor) return p.grid.origin;
  const b = p.blocks.find((x) => x.floor === floor);
  if (!b) return null;
  const [c, r] = cellPos(b.cell);
  return [b.quarter[0] - 2 * c, b.quarter[1] - 2 * r];
}

/** Quarter extent [x0, y0, x1, y1] (inclusive) of the blocks and of extra cells (quarter corners). */
function extent(p, extra, minW, minH, align = null) {
  let x0 = 99, y0 = 99, x1 = -1, y1 = -1;
  const grow = (x, y) => { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x + 1); y1 = Math.max(y1, y + 1); };
  for (const b of p.blocks) grow(b.quarter[0], b.quarter[1]);
  for (const [x, y] of extra) grow(x, y);
  if (x1 < 0) { x0 = 7; y0 = 7; x1 = 10; y1 = 10; }
  const pad = (lo, hi, min) => {
    const missing = Math.max(0, min - (hi - lo + 1));
    lo -= Math.floor(missing / 2);
    hi += Math.ceil(missing / 2);
    if (lo < 0) { hi -= lo; lo = 0; }
    if (hi > 17) { lo -= hi - 17; hi = 17; }
    return [Math.max(0, lo), hi];
  };
  let [ax, bx] = pad(x0, x1, minW);
  let [ay, by] = pad(y0, y1, minH);
  if (align) {
    // whole cells of the floor being built: start on a cell edge, end on one
    const odd = (n, o) => (((n - o) % 2) + 2) % 2 === 1;
    const snap = (lo, hi, o) => [odd(lo, o) ? lo - 1 : lo, odd(hi, o) ? hi : hi + 1];
    [ax, bx] = snap(ax, bx, align[0]);
    [ay, by] = snap(ay, by, align[1]);
  }
  return [ax, ay, bx, by];
}

/**
 * Draw a pyramid (all floors, or one) into a new <svg>. Returns the svg, the layer in quarter
 * coordinates (scaled by q) for overlays, and q.
 */
function drawPyramid(p, opts) {
  const { floor = null, q = Q, ext, labels = null, label, fresh = new Set(), last = new Set(), lastGem = null, animate = false, empty = null } = opts;
  const [x0, y0, x1, y1] = ext;
  const gut = labels ? GUTTER : 4;
  const w = (x1 - x0 + 1) * q, h = (y1 - y0 + 1) * q;
  const s = svg("svg", { viewBox: `0 0 ${w + gut + 6} ${h + gut + 6}`, class: "pyramid-top", role: "group", "aria-label": label });
  s.append(svg("rect", { class: "sand", x: 0, y: 0, width: w + gut + 6, height: h + gut + 6, rx: 10 }));
  const g = svg("g", { transform: `translate(${gut - x0 * q} ${gut - y0 * q})` });
  s.append(g);
  if (empty && !p.blocks.length) s.append(svg("text", { class: "no-domino", x: (w + gut + 6) / 2, y: (h + gut + 6) / 2 + 6, "text-anchor": "middle" }, empty));
  const all = pieces(p);
  for (let f = 1; f <= 4; f++) {
    if (floor !== null && f !== floor) continue;
    const layer = svg("g", { class: `floor f${f}` });
    for (const piece of all.filter((x) => x.floor === f)) {
      const isNew = piece.blocks.some((b) => fresh.has(blockKey(b.floor, b.cell)));
      const isLast = piece.blocks.some((b) => last.has(blockKey(b.floor, b.cell)));
      const outer = svg("g", { class: `piece${piece.card ? " card" : ""}${isLast ? " last" : ""}`, "data-floor": f });
      const body = svg("g", { class: "piece-body" });
      outer.append(body);
      let px0 = Infinity, py0 = Infinity, px1 = -Infinity, py1 = -Infinity;
      for (const b of piece.blocks) {
        const bx = b.quarter[0] * q, by = b.quarter[1] * q;
        px0 = Math.min(px0, bx); py0 = Math.min(py0, by); px1 = Math.max(px1, bx + 2 * q); py1 = Math.max(py1, by + 2 * q);
        const jw = b.jewels.map(([jx, jy]) => QUARTERS[(jy - b.quarter[1]) * 2 + (jx - b.quarter[0])]);
        body.append(block(b.colour, jw, bx, by, q));
      }
      if (piece.blocks.length === 2) {
        const [a, b] = piece.blocks;
        if (a.quarter[1] === b.quarter[1]) {
          const sx = Math.max(a.quarter[0], b.quarter[0]) * q;
          body.append(svg("line", { class: "seam", x1: sx, x2: sx, y1: py0 + 1, y2: py1 - 1 }));
        } else {
          const sy = Math.max(a.quarter[1], b.quarter[1]) * q;
          body.append(svg("line", { class: "seam", y1: sy, y2: sy, x1: px0 + 1, x2: px1 - 1 }));
        }
      }
      body.append(svg("rect", { class: "domino-edge", x: px0, y: py0, width: px1 - px0, height: py1 - py0, rx: piece.card ? 5 : 3 }));
      // one rim per floor, inside the edge: the floor a piece lies on, at a glance
      for (let k = 1; k < f; k++) {
        const inset = 2.2 * k + 0.6;
        body.append(svg("rect", { class: "rim", x: px0 + inset, y: py0 + inset, width: px1 - px0 - 2 * inset, height: py1 - py0 - 2 * inset, rx: 2 }));
      }
      if (isLast) outer.append(svg("rect", { class: "last-ring", x: px0 - 2, y: py0 - 2, width: px1 - px0 + 4, height: py1 - py0 + 4, rx: 5 }));
      if (isNew && animate) {
        body.animate?.([{ transform: "translate(0px, -14px) scale(1.12)", opacity: 0 }, { transform: "none", opacity: 1 }],
          { duration: 520, easing: "cubic-bezier(.2,.8,.3,1.2)" });
      }
      layer.append(outer);
    }
    g.append(layer);
  }
  for (const gm of p.gems_placed) {
    if (floor !== null && gm.floor !== floor) continue;
    const gg = gem(gm.quarter[0] * q + q, gm.quarter[1] * q + q, gm.colour, q * 0.36);
    if (lastGem && lastGem === `${gm.colour}:${gm.cell}`) {
      gg.classList.add("last");
      if (animate) gg.animate?.([{ transform: "translateY(-18px)", opacity: 0 }, { transform: "none", opacity: 1 }], { duration: 420, easing: "ease-out" });
    }
    g.append(gg);
  }
  if (labels) {
    // the letters and numbers stand just outside what is drawn (the grid, or a lower floor's
    // blocks around it), not at the edge of the picture: on a phone that edge is far away
    const [ox, oy] = labels.origin;
    const shown = p.blocks.filter((b) => floor === null || b.floor === floor);
    const top = Math.min(oy, ...shown.map((b) => b.quarter[1]));
    const left = Math.min(ox, ...shown.map((b) => b.quarter[0]));
    const colY = Math.max(top * q - 5, y0 * q - gut + 13);
    const rowX = Math.max(left * q - 9, x0 * q - gut + 6);
    for (let c = 0; c < labels.cols; c++) {
      const x = (ox + 2 * c + 1) * q;
      if (ox + 2 * c < x0 || ox + 2 * c + 1 > x1) continue;
      g.append(svg("text", { class: "coord", x, y: colY, "text-anchor": "middle" }, String.fromCharCode(97 + c)));
    }
    for (let r = 0; r < labels.rows; r++) {
      const y = (oy + 2 * r + 1) * q;
      if (oy + 2 * r < y0 || oy + 2 * r + 1 > y1) continue;
      g.append(svg("text", { class: "coord", x: rowX, y: y + 4, "text-anchor": "middle" }, String(r + 1)));
    }
  }
  return { svg: s, g, q };
}

// -- what changed since the previous view -------------------------------------------------------

function changes(p, before) {
  const fresh = new Set();
  let lastGem = null;
  if (!before) return { fresh, lastGem };
  const had = new Set(before.blocks.map((b) => blockKey(b.floor, b.cell) + (b.domino ?? "c")));
  for (const b of p.blocks) if (!had.has(blockKey(b.floor, b.cell) + (b.domino ?? "c"))) fresh.add(blockKey(b.floor, b.cell));
  const gems = new Set(before.gems_placed.map((g) => `${g.colour}:${g.cell}`));
  for (const g of p.gems_placed) if (!gems.has(`${g.colour}:${g.cell}`)) lastGem = `${g.colour}:${g.cell}`;
  return { fresh, lastGem };
}

// -- the contract --------------------------------------------------------------------------------

export function status(v) {
  if (v.is_over) return t("Game over after floor 4");
  const steps = {
    place: t("place a domino"), mark: t("put a gem"), card: t("a card, or pass"),
    refill: t("refill the quarry"), fill: t("no domino fits: lay cards"),
  };
  const step = steps[v.step];
  return step ? t("Floor {floor} of 4 · {step}", { floor: number(v.floor), step }) : t("Floor {floor} of 4", { floor: number(v.floor) });
}

export function cancel(ctx) {
  const ui = ctx.ui || ctx.__ui;
  if (!ui) return false;
  if (ui.first) { ui.first = null; return true; }
  if (ui.slot !== null && ui.slot !== undefined) { ui.slot = null; return true; }
  if (ui.colour) { ui.colour = null; return true; }
  return false;
}

export function render(root, ctx) {
  const { ui, fresh, newPly } = begin(root, ctx);
  if (fresh) {
    // a new message (a move, or an error with the state again): start the choice again
    ui.first = null;
    if (newPly) { ui.slot = null; ui.colour = null; }
    if (newPly && ctx.interactive) ui.floor = null; // the player acts on the top view
  }
  if (ui.floor === undefined) ui.floor = null;
  draw(root, ctx, ui);
  ownKeys(root, ctx);
}

function draw(root, ctx, ui) {
  const v = ctx.view;
  const legal = ctx.interactive ? ctx.legal || [] : [];
  const me = ctx.seat ?? v.viewer ?? 0;
  const shownSeat = me !== null && me !== undefined && v.pyramids[me] ? me : 0;
  const mine = v.pyramids[shownSeat];
  const names = v.names || ctx.seats.map((s) => s.name);
  const split = legal.map((m) => m.split(" "));
  const places = split.filter((m) => /^q[1-3]$/.test(m[0]));
  const marks = new Map(split.filter((m) => m[0] === "mark" || m[0] === "gem").map((m) => [m[1], m.join(" ")]));
  const cards = split.filter((m) => m[0] === "card" || m[0] === "fill");
  const refills = new Set(split.filter((m) => m[0] === "refill").map((m) => Number(m[1])));
  const canPass = legal.includes("pass");
  const prev = ctx.prev && ctx.prev.pyramids ? ctx.prev : null;
  const rerender = () => redraw(root, ctx);
  if (ui.slot !== null && ui.slot !== undefined && !places.some((m) => m[0] === `q${ui.slot + 1}`)) ui.slot = null;
  if (ui.colour && !cards.some((m) => m[1] === ui.colour)) ui.colour = null;

  // -- my pyramid: the floor being built gets named cells, the legal ones act -----------------
  const grid = mine.grid;
  const current = grid ? grid.floor : null;
  const showFloor = ui.floor;
  const overlay = grid && (showFloor === null || showFloor === current) && !v.is_over;
  const legalCells = new Set();
  for (const m of places) { legalCells.add(m[1]); legalCells.add(m[2]); }
  for (const m of cards) legalCells.add(m[2]);
  for (const c of marks.keys()) legalCells.add(c);
  const extra = [];
  if (grid) {
    const [ox, oy] = grid.origin;
    const cellsToShow = grid.floor === 1 ? [...legalCells] : [...Array(grid.rows * grid.cols).keys()].map((k) => cellName(k % grid.cols, Math.floor(k / grid.cols)));
    for (const c of cellsToShow) {
      const [cc, rr] = cellPos(c);
      extra.push([ox + 2 * cc, oy + 2 * rr], [ox + 2 * cc + 1, oy + 2 * rr + 1]);
    }
  }
  const ext = extent(mine, extra, 10, 10, grid && overlay ? grid.origin : null);
  const before = prev ? prev.pyramids[shownSeat] : null;
  const { fresh, lastGem } = changes(mine, before);
  const floorWord = showFloor === null ? t("top view") : t("floor {n}", { n: number(showFloor) });
  const big = drawPyramid(mine, {
    floor: showFloor, ext, labels: overlay ? grid : (showFloor && floorOrigin(mine, showFloor) ? { origin: floorOrigin(mine, showFloor), ...floorGrid(mine, showFloor) } : null),
    label: ctx.seat === null || ctx.seat === undefined ? t("{name}'s pyramid, {view}", { name: names[shownSeat], view: floorWord }) : t("Your pyramid, {view}", { view: floorWord }),
    fresh, last: fresh, lastGem, animate: ui.animate,
  });
  const q = big.q;
  if (overlay) drawCells(big.g, q, mine, { ui, places, marks, cards, rerender, ctx, ext, v });

  // -- quarry in front of the stacks ----------------------------------------------------------
  const market = drawMarket(v, prev, { ui, places, refills, ctx, rerender });

  // -- choices that are not on the pyramid: card sides, pass ------------------------------------
  const choices = el("div", { class: "step-choices" });
  if (cards.length) {
    const sides = [...new Set(cards.map((m) => m[1]))];
    add(choices, el("span", {}, cards[0][0] === "fill" ? t("No domino fits: lay a card, side") : t("Cover a block with a card, side")));
    for (const letter of sides) {
      const colour = colourOf(letter);
      const b = el("button", { class: `swatch${ui.colour === letter ? " chosen" : ""}`, style: `--sw:${HEX[colour]}`, "data-colour": letter, "data-place": letter, "aria-pressed": String(ui.colour === letter) },
        el("span", { class: "swatch-block", "aria-hidden": "true" }), colourName(colour));
      actionable(b, `side ${letter}`, t("card, {colour} side up", { colour: colourName(colour) }), () => { ui.colour = ui.colour === letter ? null : letter; rerender(); });
      add(choices, b);
    }
  }
  if (canPass) {
    const b = el("button", { class: "pass", "data-move": "pass", "data-place": "pass" }, t("No card (pass)"));
    actionable(b, "pass", t("No card this turn (pass)"), () => ctx.move("pass"));
    add(choices, b);
  }
  const help = {
    place: ui.slot === null || ui.slot === undefined ? t("Pick a quarry domino, then the cell for its block A (left) and the cell for block B.")
      : !ui.first ? t("Now the cell for block A (the left block) of domino q{n}.", { n: ui.slot + 1 })
        : t("Now a cell next to {cell} for block B: that turns the domino. Escape starts again.", { cell: ui.first }),
    mark: t("Put a gem: pick a glowing block of the domino you just placed."),
    card: !ui.colour ? t("Optional: pick a card side to cover a block, or pass.") : t("Pick the quarter of a glowing block where the card's jewel goes."),
    refill: t("Refill the empty quarry slot from a glowing stack."),
    fill: !ui.colour ? t("No domino fits: pick a card side to lay on an empty cell.") : t("Pick the quarter of an empty cell for the card's jewel."),
  }[v.step] || "";

  const floors = el("div", { class: "floor-tabs", role: "tablist", "aria-label": t("Show the pyramid") },
    [null, 1, 2, 3, 4].map((f) => el("button", {
      role: "tab", "aria-selected": String(showFloor === f), class: showFloor === f ? "chosen" : "",
      disabled: f !== null && !mine.blocks.some((b) => b.floor === f) && f !== current,
      onclick: () => { ui.floor = f; rerender(); },
    }, f === null ? t("Top view") : t("Floor {n}", { n: number(f) }))));
  const back = ctx.interactive && showFloor !== null && showFloor !== current && legal.length && !refills.size
    ? el("button", { class: "primary back-to-top", onclick: () => { ui.floor = null; rerender(); } }, t("Back to the top view to play"))
    : null;

  const supplies = el("p", { class: "supplies" }, t("Gems left:"), " ",
    mine.gems_unused.map((c) => el("span", { class: "gem-chip", style: `--sw:${HEX[c]}`, title: colourName(c), role: "img", "aria-label": colourName(c) }, "◆")),
    " · ", t("cards:"), " ", mine.cards_unused.length ? mine.cards_unused.map((pair) => el("span", { class: "card-chip", role: "img", "aria-label": t("{a} | {b} card", { a: colourName(pair[0]), b: colourName(pair[1]) }) }, pair.map((c) => el("span", { class: "card-side", style: `--sw:${HEX[c]}` })))) : t("none"),
    " · ", tn("this floor: {n} point", "this floor: {n} points", mine.current_floor_score ?? 0));

  const others = v.pyramids.map((p, i) => {
    if (i === shownSeat) return null;
    const ch = changes(p, prev ? prev.pyramids[i] : null);
    const pic = drawPyramid(p, { ext: p.blocks.length ? extent(p, [], 10, 8) : [0, 0, 7, 3], q: Q, empty: t("no domino yet"), label: t("{name}'s pyramid", { name: names[i] }), fresh: ch.fresh, last: ch.fresh, lastGem: ch.lastGem, animate: ui.animate });
    return el("figure", { class: `other${v.current_player === i ? " to-move" : ""}` }, pic.svg,
      el("figcaption", {}, el("strong", {}, names[i]), " · ", tn("{n} point", "{n} points", v.scores?.[i] ?? 0),
        p.out ? el("span", { class: "out" }, " · ", t("out")) : null));
  });

  const who = ctx.seat === null || ctx.seat === undefined ? t("{name}'s pyramid", { name: names[shownSeat] }) : t("Your pyramid");
  // the quarry beside the pyramid on a wide screen (every step goes from one to the other:
  // both in sight without scrolling), above it on a phone (style: pyramido.css)
  add(root, el("div", { class: "pyramido-board" },
    el("p", { class: "board-help", "aria-live": "polite" }, ctx.interactive ? help : ""),
    choices,
    el("div", { class: "pyramido-main" },
      el("div", { class: "market-wrap" }, el("h3", { class: "caption" }, t("Quarry and stacks")), market),
      el("div", { class: "mine" }, el("h3", { class: "caption" }, who), floors, back, big.svg, supplies),
      el("div", { class: "others" }, others))));
}

/** Rows and columns of a floor's grid, from the pyramid's shape (floor 1: the 9x9 frame). */
function floorGrid(p, floor) {
  if (p.grid && p.grid.floor === floor) return { cols: p.grid.cols, rows: p.grid.rows };
  if (floor === 1) return { cols: 9, rows: 9 };
  const cells = p.blocks.filter((b) => b.floor === floor).map((b) => cellPos(b.cell));
  return { cols: Math.max(1, ...cells.map((c) => c[0] + 1)), rows: Math.max(1, ...cells.map((c) => c[1] + 1)) };
}

function drawCells(g, q, mine, { ui, places, marks, cards, rerender, ctx, ext }) {
  const grid = mine.grid;
  const [ox, oy] = grid.origin;
  const filled = new Set(grid.filled);
  const [x0, y0, x1, y1] = ext;
  const slotMoves = places.filter((m) => ui.slot !== null && ui.slot !== undefined && m[0] === `q${ui.slot + 1}`);
  const firsts = new Set(slotMoves.map((m) => m[1]));
  const seconds = new Set(slotMoves.filter((m) => m[1] === ui.first).map((m) => m[2]));
  const anyPlace = new Set(places.flatMap((m) => [m[1], m[2]]));
  const cardCells = new Set(cards.filter((m) => m[1] === ui.colour).map((m) => m[2]));
  const cardAny = new Set(cards.map((m) => m[2]));
  const domino = ui.slot !== null && ui.slot !== undefined ? ctx.view.quarry[ui.slot] : null;
  const previews = svg("g", { class: "previews" });
  const hits = svg("g", { class: "cells" });
  for (let r = 0; r < grid.rows; r++) for (let c = 0; c < grid.cols; c++) {
    const label = cellName(c, r);
    const qx = ox + 2 * c, qy = oy + 2 * r;
    if (qx < x0 || qy < y0 || qx + 1 > x1 || qy + 1 > y1) continue;
    const x = qx * q, y = qy * q;
    const cell = svg("g", { class: "cell", "data-place": label, "data-cell": label });
    const face = svg("rect", { class: "face", x: x + 1, y: y + 1, width: 2 * q - 2, height: 2 * q - 2, rx: 4 });
    cell.append(face);
    const empty = !filled.has(label);
    if (empty) {
      cell.classList.add("empty");
      // an upper floor's empty cell veils the floor below it: its dashed outline and name
      // lie on the veil, not over that floor's jewels (which no longer count on the top view)
      if (grid.floor > 1) cell.classList.add("upper");
      if (ui.first !== label && (anyPlace.has(label) || cardAny.has(label) || grid.floor > 1)) cell.append(svg("text", { class: "cell-name", x: x + q, y: y + q + 5, "text-anchor": "middle" }, label));
    }
    let action = null;
    let what = "";
    if (domino) {
      if (!ui.first && firsts.has(label)) {
        cell.classList.add("legal");
        what = t("cell {cell}: block A of domino q{n} here", { cell: label, n: ui.slot + 1 });
        action = () => { ui.first = label; rerender(); };
      } else if (ui.first === label) {
        cell.classList.add("chosen");
        what = t("cell {cell}: block A chosen; press again to choose another cell", { cell: label });
        action = () => { ui.first = null; rerender(); };
        previews.append(previewBlock(domino.blocks[0], x, y, q, 0, "preview"));
      } else if (ui.first && seconds.has(label)) {
        cell.classList.add("legal");
        const turns = direction(ui.first, label);
        const move = `q${ui.slot + 1} ${ui.first} ${label}`;
        what = t("cell {cell}: block B here, placing the domino {a}-{b}", { cell: label, a: ui.first, b: label });
        action = () => ctx.move(move);
        // the whole domino as it would lie, shown while the cell is hovered or focused
        const ghost = svg("g", { class: "ghost" });
        const [ac, ar] = cellPos(ui.first);
        ghost.append(previewBlock(domino.blocks[0], (ox + 2 * ac) * q, (oy + 2 * ar) * q, q, turns, ""),
          previewBlock(domino.blocks[1], x, y, q, turns, ""));
        cell.append(ghost);
      }
    } else if (marks.size && marks.has(label)) {
      cell.classList.add("legal");
      const blockHere = mine.blocks.filter((b) => b.floor === grid.floor && b.cell === label).pop();
      what = t("cell {cell}: put the {colour} gem here", { cell: label, colour: colourName(blockHere?.colour ?? "") });
      action = () => ctx.move(marks.get(label));
    } else if (ui.colour && cardCells.has(label)) {
      cell.classList.add("legal");
    }
    const hit = svg("rect", { class: "hit-area", x, y, width: 2 * q, height: 2 * q });
    cell.append(hit);
    if (action) actionable(cell, label, what, action);
    hits.append(cell);
    if (ui.colour && cardCells.has(label)) {
      for (let k = 0; k < 4; k++) {
        const qn = QUARTERS[k];
        const move = cards.find((m) => m[1] === ui.colour && m[2] === label && m[3] === qn);
        if (!move) continue;
        const sub = svg("g", { class: "quarter-pick", "data-quarter": `${label} ${qn}` },
          svg("rect", { class: "face", x: x + (k % 2) * q + 1, y: y + (k >= 2 ? q : 0) + 1, width: q - 2, height: q - 2, rx: 3 }),
          jewel(x + (k % 2 ? 1.5 : 0.5) * q, y + (k >= 2 ? 1.5 : 0.5) * q, q * 0.3, "jewel ghost-jewel"));
        const where = { tl: t("top left"), tr: t("top right"), bl: t("bottom left"), br: t("bottom right") }[qn];
        actionable(sub, `${label} ${qn}`, t("cell {cell}, jewel in the {quarter} quarter", { cell: label, quarter: where }), () => ctx.move(move.join(" ")));
        hits.append(sub);
      }
    }
  }
  g.append(previews, hits);
}

function previewBlock(b, x, y, q, turns, cls) {
  const g = block(b.colour, turned(b.jewels, turns), x, y, q);
  g.classList.add("preview-block");
  if (cls) g.classList.add(cls);
  g.append(svg("rect", { class: "domino-edge", x, y, width: 2 * q, height: 2 * q, rx: 3 }));
  return g;
}

function drawMarket(v, prev, { ui, places, refills, ctx, rerender }) {
  const W = 400, H = 176;
  const market = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "market", role: "group", "aria-label": t("Quarry and stacks") });
  market.append(svg("rect", { class: "market-bg", x: 0, y: 0, width: W, height: H, rx: 10 }));
  const sx = (i) => 50 + i * 100; // stack centres
  const qx = (i) => 100 + i * 100; // quarry slot centres: slot i in front of stacks i and i+1
  const SS = 20, QS = 22; // block half sizes (quarters) of stack and quarry dominoes
  const emptySlot = v.turn?.empty_slot ?? null;
  // arrows from the two stacks behind the empty slot
  if (refills.size && emptySlot) {
    for (const s of refills) {
      market.append(svg("path", { class: "refill-arrow", d: `M${sx(s - 1)} 76 L${qx(emptySlot - 1)} 100` }));
    }
  }
  v.stacks.forEach((st, i) => {
    const n = i + 1;
    const g = svg("g", { class: `stack${refills.has(n) ? " legal" : ""}`, "data-place": String(n), "data-stack": String(n) });
    g.append(svg("rect", { class: "hit-area", x: sx(i) - 48, y: 4, width: 96, height: 72, rx: 8 }));
    const x = sx(i) - 2 * SS, y = 10;
    const layers = Math.min(4, Math.ceil(st.size / 6));
    for (let k = layers; k >= 1; k--) g.append(svg("rect", { class: "pile", x: x + k * 1.5, y: y + k * 2.5, width: 4 * SS, height: 2 * SS, rx: 3 }));
    if (st.top) g.append(flatDomino(st.top, x, y, SS));
    else g.append(svg("rect", { class: "empty-slot", x, y, width: 4 * SS, height: 2 * SS, rx: 3 }));
    g.append(svg("text", { class: "small-label", x: sx(i), y: 70, "text-anchor": "middle", "data-fit": 94 }, t("stack {n} · {size}", { n: number(n), size: number(st.size) })));
    if (refills.size && refills.has(n)) {
      actionable(g, `stack ${n}`, t("refill from stack {n} ({size} left)", { n: number(n), size: number(st.size) }), () => ctx.move(`refill ${n}`));
    }
    market.append(g);
  });
  v.quarry.forEach((d, i) => {
    const n = i + 1;
    const x = qx(i) - 2 * QS, y = 104;
    const slotLegal = places.some((m) => m[0] === `q${n}`);
    const chosen = ui.slot === i;
    const wasEmpty = prev && prev.quarry && !prev.quarry[i] && d;
    const g = svg("g", { class: `slot${slotLegal ? " legal" : ""}${chosen ? " chosen" : ""}${wasEmpty ? " last" : ""}`, "data-place": `q${n}`, "data-slot": String(n) });
    g.append(svg("rect", { class: "hit-area", x: qx(i) - 50, y: 96, width: 100, height: 76, rx: 8 }));
    if (!d) g.append(svg("rect", { class: "empty-slot", x, y, width: 4 * QS, height: 2 * QS, rx: 3 }));
    else {
      const dom = flatDomino(d, x, y, QS);
      g.append(dom);
      if (wasEmpty && ui.animate) {
        // it came from the stack it was refilled from: the one whose top changed
        const from = v.stacks.findIndex((st, k) => prev.stacks[k] && prev.stacks[k].size !== st.size);
        if (from >= 0) {
          dom.querySelector(".piece-body").animate?.([{ transform: `translate(${sx(from) - qx(i)}px, -94px)`, opacity: 0.4 }, { transform: "none", opacity: 1 }],
            { duration: 520, easing: "ease-out" });
        }
      }
      if (wasEmpty) g.append(svg("rect", { class: "last-ring", x: x - 3, y: y - 3, width: 4 * QS + 6, height: 2 * QS + 6, rx: 5 }));
    }
    g.append(svg("text", { class: "small-label slot-label", x: qx(i), y: 166, "text-anchor": "middle" }, `q${n}`));
    if (d && slotLegal) {
      const desc = d.blocks.map((b) => {
        // a call inside another's arguments is invisible to Babel's extractor: hoisted
        const jewels = tn("{n} jewel", "{n} jewels", b.jewels.length);
        return t("{colour} with {jewels}", { colour: colourName(b.colour), jewels });
      }).join(" | ");
      actionable(g, `q${n}`, t("quarry domino q{n}: {desc}", { n, desc }) + (chosen ? t(" (chosen)") : ""), () => {
        ui.slot = chosen ? null : i; ui.first = null; ui.floor = null; rerender();
      });
    }
    market.append(g);
  });
  return market;
}

// -- news: what just happened ------------------------------------------------------------------

/** Lines telling what happened between `prev` and `view`: floors scored, who starts, who is out. */
export function explain(view, prev) {
  if (!prev || !view || !view.pyramids || !prev.pyramids) return [];
  const names = view.names || view.pyramids.map((_, i) => t("Player {n}", { n: i + 1 }));
  const lines = [];
  // another seat's turn just ended: what it laid (its steps are too quick to follow on the
  // board). A turn's domino or fill cards stay in the view until the turn ends, so their
  // going is the end, also when the same seat plays on (the others are out)
  const other = prev.turn && prev.turn.player !== null && prev.turn.player !== undefined && prev.turn.player !== view.viewer;
  if (other && prev.turn.placed && !view.turn?.placed) {
    lines.push(t("{name} laid a domino on {cells}.", { name: names[prev.turn.player], cells: prev.turn.placed.cells.join("–") }));
  } else if (other && prev.turn.fill_cards_laid && !view.turn?.fill_cards_laid) {
    lines.push(t("{name} laid cards on empty cells: no domino fitted.", { name: names[prev.turn.player] }));
  }
  view.pyramids.forEach((p, i) => {
    if (p.out && !prev.pyramids[i]?.out) lines.push(t("{name} is out: no domino fits and fewer than 2 cards are left.", { name: names[i] }));
  });
  const scored = [];
  for (let f = 1; f <= 4; f++) {
    const now = view.pyramids.some((p) => (p.floor_scores || []).some((s) => s.floor === f));
    const then = prev.pyramids.some((p) => (p.floor_scores || []).some((s) => s.floor === f));
    if (now && !then) scored.push(f);
  }
  for (const f of scored) {
    lines.push(t("Floor {floor} scored:", { floor: number(f) }));
    view.pyramids.forEach((p, i) => {
      const fs = (p.floor_scores || []).find((s) => s.floor === f);
      if (!fs) return;
      const areas = fs.areas.length
        ? fs.areas.map((a) => tn("{colour} area {n} jewel", "{colour} area {n} jewels", a.jewels, { colour: colourName(a.colour) })).join(", ")
        : t("no marked area");
      lines.push(t("{name}: {areas}; Mino bonus +{bonus}; {total} for floor {floor}", {
        name: names[i], areas, bonus: number(fs.bonus), total: tn("{n} point", "{n} points", fs.total), floor: number(f),
      }));
    });
    if (!view.is_over && view.floor === f + 1 && view.current_player !== null && view.current_player !== undefined) {
      lines.push(t("{name} starts floor {floor} (lowest score on floor {before}).", { name: names[view.current_player], floor: number(view.floor), before: number(f) }));
    }
  }
  if (view.is_over && !prev.is_over) lines.push(t("Game over."));
  return lines;
}

export function summary(v) {
  const names = v.names || [];
  const cell = (fs) => {
    if (!fs) return el("td", {}, "–");
    const parts = fs.areas.map((a) => `${colourName(a.colour)} ${number(a.jewels)}`).join(" + ");
    const mino = t("Mino");
    return el("td", { title: `${parts}${fs.bonus ? ` + ${mino} ${number(fs.bonus)}` : ""}` }, number(fs.total),
      el("small", { class: "muted" }, fs.areas.length ? ` (${parts}${fs.bonus ? ` +${number(fs.bonus)}` : ""})` : ""));
  };
  const rows = v.pyramids.map((p, i) => el("tr", {}, el("td", {}, names[i] || t("Player {n}", { n: i + 1 })),
    [1, 2, 3, 4].map((f) => cell((p.floor_scores || []).find((s) => s.floor === f))),
    el("td", {}, el("strong", {}, number(v.scores[i])))));
  return el("table", { class: "breakdown pyramido-breakdown" },
    el("thead", {}, el("tr", {}, el("th", {}, t("Player")), [1, 2, 3, 4].map((f) => el("th", {}, t("Floor {n}", { n: number(f) }))), el("th", {}, t("Total")))),
    el("tbody", {}, rows));
}
