// Pyramideto board: the stacks of pyramids on the table, your secret goal cards, everyone's
// displayed goals. Pick a piece (it takes everything on it), then a target stack or the table.

import { el, add, svg, clickable } from "../util.js";

const COLOURS = { r: "#d63a3a", y: "#f2c230", g: "#3aa655", b: "#2f6fd6", k: "#2b2b2b" };
const COLOUR_NAMES = { r: "red", y: "yellow", g: "green", b: "blue", k: "black" };
const SIZE_NAMES = { S: "small", M: "medium", L: "large" };
const WIDTH = { S: 34, M: 50, L: 66 };
const CHIP = 24;     // height of one piece in a stack
const COL = 86;      // width of one stack column

let selected = null; // piece code picked as the bottom of the group to move
let selectedAt = -1; // ply at which it was picked (a new position clears it)

export function pieceName(code) {
  return `${SIZE_NAMES[code[0]]} ${COLOUR_NAMES[code[1]]}`;
}

function chip(code, x, y, extra = "") {
  const w = WIDTH[code[0]];
  const top = w - 14;
  const g = svg("g", { class: `piece ${extra}`, "data-piece": code, transform: `translate(${x} ${y})` });
  g.append(
    svg("path", { class: "body", d: `M${-w / 2} 0 L${w / 2} 0 L${top / 2} ${-CHIP + 2} L${-top / 2} ${-CHIP + 2} Z`, fill: COLOURS[code[1]] }),
    svg("text", { class: "piece-label", x: 0, y: -7, "text-anchor": "middle", fill: code[1] === "y" ? "#3a2c00" : "#fff" }, code),
  );
  return g;
}

/** A small tower picture (bottom to top) for goal cards. */
function miniTower(tower) {
  const s = svg("svg", { viewBox: "-40 -80 80 84", class: "mini-tower", "aria-hidden": "true" });
  tower.forEach((code, i) => s.append(chip(code, 0, -i * CHIP)));
  return s;
}

function goalCard(card, frames, legalExchange, ctx) {
  const frame = frames.find((f) => f.id === card.frame);
  const box = el("div", { class: "goal", style: `--frame:${frame ? frame.rgb : "#888"}`, title: `${card.name} (${frame ? frame.theme : card.frame}): ${card.tower.map(pieceName).join(", ")}, bottom to top` },
    el("span", { class: "goal-name" }, card.name), miniTower(card.tower),
    el("span", { class: "goal-tower" }, card.tower.join(" ")));
  if (legalExchange !== undefined) {
    add(box, el("button", { class: "small", "data-move": `x ${card.id}`, onclick: () => ctx.move(`x ${card.id}`), title: "Put this card under the deck and draw another" }, "Exchange"));
  }
  return box;
}

export function status(v) {
  return `Turn ${v.turn + 1} of at most ${v.turn_limit} · deck ${v.deck} cards`;
}

export function render(root, ctx) {
  const v = ctx.view;
  if (selectedAt !== v.ply) { selected = null; selectedAt = v.ply; }
  const legal = ctx.interactive ? ctx.legal || [] : [];
  const moves = new Set(legal);
  const sources = new Set(legal.filter((t) => t.includes(">")).map((t) => t.split(">")[0]));
  const stacks = v.stacks;
  const height = Math.max(4, ...stacks.map((s) => s.length)) * CHIP + 80;
  const width = Math.max(560, stacks.length * COL + COL + 40);
  const lastGroup = new Set(v.last_group || []);
  const prevStacks = ctx.prev ? new Map(ctx.prev.stacks.flatMap((s, i) => s.map((p) => [p, i]))) : null;

  const drawing = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "table-top pyramideto", role: "img", "aria-label": "The stacks of pyramids" });
  drawing.append(svg("rect", { class: "wood", width, height, rx: 14 }),
    svg("line", { class: "table-line", x1: 14, x2: width - 14, y1: height - 40, y2: height - 40 }));
  const groupOf = (s, k) => stacks[s].slice(k);
  stacks.forEach((stack, s) => {
    const cx = 30 + COL / 2 + s * COL;
    const top = stack[stack.length - 1];
    const target = selected && moves.has(`${selected}>${top}`);
    const col = svg("g", { class: `stack${target ? " target" : ""}`, "data-stack": s });
    col.append(svg("rect", { class: "stack-hit", x: cx - COL / 2 + 4, y: 10, width: COL - 8, height: height - 50, rx: 8 }));
    stack.forEach((code, k) => {
      const moved = prevStacks && lastGroup.has(code);
      const cls = [sources.has(code) ? "movable" : "", code === selected ? "selected" : "",
        selected && stack.indexOf(selected) >= 0 && k >= stack.indexOf(selected) ? "lifted" : "",
        moved ? "last" : ""].join(" ");
      const piece = chip(code, cx, height - 42 - k * CHIP, cls);
      if (ctx.interactive) {
        clickable(piece, `${pieceName(code)}${k === stack.length - 1 ? ", top of its stack" : ""}`, () => {
          if (selected && selected !== code && k === stack.length - 1 && stack.indexOf(selected) < 0) {
            ctx.move(`${selected}>${code}`);
          } else {
            selected = selected === code ? null : code;
            rerender(root, ctx);
          }
        });
        piece.addEventListener("mouseenter", () => {
          for (const p of groupOf(s, k)) drawing.querySelector(`[data-piece="${p}"]`)?.classList.add("hover-group");
          if (selected) return;
          // show where this group may go
          stacks.forEach((other, t) => {
            if (moves.has(`${code}>${other[other.length - 1]}`)) drawing.querySelector(`[data-stack="${t}"]`)?.classList.add("hover-target");
          });
          if (moves.has(`${code}>table`)) drawing.querySelector('[data-stack="table"]')?.classList.add("hover-target");
        });
        piece.addEventListener("mouseleave", () => {
          for (const n of drawing.querySelectorAll(".hover-group")) n.classList.remove("hover-group");
          for (const n of drawing.querySelectorAll(".hover-target")) n.classList.remove("hover-target");
        });
      }
      col.append(piece);
    });
    drawing.append(col);
  });
  // the table: drop zone for a new stack
  const tx = 30 + stacks.length * COL + 6;
  const tableOk = selected && moves.has(`${selected}>table`);
  const table = svg("g", { class: `table-zone${tableOk ? " target" : ""}`, "data-stack": "table" },
    svg("rect", { x: tx, y: height - 110, width: COL - 12, height: 66, rx: 10 }),
    svg("text", { x: tx + (COL - 12) / 2, y: height - 72, "text-anchor": "middle" }, "table"));
  if (ctx.interactive) clickable(table, "Put the picked pieces on the table as a new stack", () => { if (selected) ctx.move(`${selected}>table`); });
  drawing.append(table);

  const help = !ctx.interactive ? "" : selected
    ? `Moving ${pieceName(selected)} and everything on it: pick the top piece of a stack (glowing = allowed) or the table.`
    : "Pick a piece: it moves with every piece on it. The group just moved (dotted) may not move again as the same group.";
  const frames = v.frames || [];
  const exchange = (card) => (moves.has(`x ${card.id}`) ? true : undefined);
  add(root,
    drawing,
    el("p", { class: "board-help muted" }, help),
    v.hand ? el("section", { class: "hand" }, el("h3", {}, "Your goal cards (secret)"),
      el("div", { class: "goals" }, v.hand.map((c) => goalCard(c, frames, exchange(c), ctx)))) : null,
    el("section", { class: "displayed" }, el("h3", {}, "Displayed goals"),
      ctx.seats.map((s, i) => el("div", { class: "displayed-row" },
        el("strong", {}, `${s.name} `), el("span", { class: "muted" }, `(${v.hand_sizes[i]} in hand)`),
        el("div", { class: "goals small" }, (v.displayed[i] || []).map((c) => goalCard(c, frames, undefined, ctx)))))),
  );
}

function rerender(root, ctx) {
  root.replaceChildren();
  render(root, ctx);
}

export function summary(v) {
  const reasons = { goal: "completed a winning set of goals", limit: "the turn limit was reached" };
  const names = v.names || [];
  const rows = v.displayed.map((cards, i) => {
    const byFrame = {};
    for (const c of cards) byFrame[c.frame] = (byFrame[c.frame] || 0) + 1;
    return el("tr", {}, el("td", {}, names[i] || `Seat ${i + 1}`), el("td", {}, String(cards.length)),
      el("td", {}, Object.entries(byFrame).map(([f, n]) => `${n} ${f}`).join(", ") || "–"));
  });
  const who = v.winner !== null && v.winner !== undefined ? names[v.winner] || `Seat ${v.winner + 1}` : null;
  return el("div", {},
    el("p", {}, who ? `${who} ${reasons[v.end] || "won"}.` : `The game ended: ${reasons[v.end] || v.end || "over"}.`),
    el("table", { class: "breakdown" }, el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", {}, "Goals"), el("th", {}, "By frame colour"))), el("tbody", {}, rows)));
}
