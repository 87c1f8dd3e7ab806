// Pyramideto board: the stacks of pyramids on the table, drawn in profile as the translucent
// pyramids of a Rainbow Treehouse set nest over and sit on each other; beside each stack a
// ladder of its pieces (bottom to top) to pick from. Choose a piece (it takes everything on
// it), then a target: the top piece of a glowing stack, or the table. Escape cancels.
//
// Places: every piece is named by its code as the notation names it (`Mr`, `Lg`), on its
// ladder chip and on its shape (`data-place`); the table is `table`; a stack is named by its
// top piece (the name a move uses: `Mr>Lg`), printed under it; a goal card by its id.

import { el, add, svg } from "../util.js";
import { actionable } from "../focus.js";
import { boardUi } from "./ui-state.js";
import { t, tn, tc, name, number } from "../i18n.js";

const COLOURS = { r: "#d23232", y: "#f0c020", g: "#2e9e48", b: "#2a66c9", k: "#262626" };
const EDGES = { r: "#7d1212", y: "#8a6a00", g: "#145a25", b: "#123b7d", k: "#000000" };
const ORDER = { r: 0, y: 1, g: 2, b: 3, k: 4 };
const SIZE = { S: 0, M: 1, L: 2 };
const PW = { S: 24, M: 36, L: 48 };   // base width of a piece in profile
const PH = { S: 30, M: 45, L: 60 };   // its height (all three the same shape)
const LIFT = 6;                       // a piece's tip stands this much above every tip below it
const PIC = 56;                       // width of a stack's picture
const CHIP_W = 46, CHIP_H = 44, CHIP_GAP = 3;
const PLATE = 24;                     // the stack's name under its picture
const TILE_W = 3 + PIC + 4 + CHIP_W + 3;

/** A piece in words for screen readers: "large green (Lg)". */
export function pieceName(code) {
  return t("{piece} ({code})", { piece: name("piece", code), code });
}

function goalName(card) {
  const n = name("goal", card.id);
  return n === String(card.id).replace(/[-_]/g, " ") && card.name ? card.name : n;
}

/** A frame's name (its theme: "Food"); the view's English theme if the catalog lacks it. */
function frameName(v, id) {
  const n = name("frame", id);
  const f = (v.frames || []).find((x) => x.id === id);
  return n === String(id).replace(/[-_]/g, " ") && f && f.theme ? f.theme : n;
}

function pieceOrder(code) {
  return ORDER[code[1]] * 3 + SIZE[code[0]];
}

/**
 * Where each piece of a stack stands, in profile: its base height above the table.
 * Why this rule: the pieces are hollow and all the same shape, so whatever the sizes, a piece
 * put on a stack comes down until its tip is just above the highest tip below it (a large one
 * slides over smaller ones to the table, a small one sits on a large one's tip).
 */
export function standing(stack) {
  let top = 0;
  return stack.map((code) => {
    const h = PH[code[0]];
    const apex = Math.max(h, top + LIFT);
    top = apex;
    return { code, base: apex - h, apex };
  });
}

/** One pyramid in profile, its base centre at (cx, y): a lit face and a shaded face. */
function pyramid(code, cx, y, extra = "") {
  const w = PW[code[0]], h = PH[code[0]];
  const g = svg("g", { class: `pt-piece ${extra}`, "data-p": code });
  const l = cx - w / 2, r = cx + w / 2, tipY = y - h;
  add(g,
    svg("path", { class: "lit", d: `M${l} ${y} L${cx} ${tipY} L${cx} ${y} Z`, fill: COLOURS[code[1]] }),
    svg("path", { class: "shade", d: `M${cx} ${y} L${cx} ${tipY} L${r} ${y} Z`, fill: COLOURS[code[1]] }),
    svg("path", { class: "edge", d: `M${l} ${y} L${cx} ${tipY} L${r} ${y} Z`, stroke: EDGES[code[1]] }));
  return g;
}

/** The pieces of a stack drawn standing on the line y = base, centred on cx. */
function stackPicture(stack, cx, base, classOf = () => "", places = true) {
  const g = svg("g", { class: "pt-stack-pic" });
  for (const s of standing(stack)) {
    const p = pyramid(s.code, cx, base - s.base, classOf(s.code));
    if (places) p.dataset.place = s.code;
    add(g, p);
  }
  return g;
}

/** A small picture of a goal's tower (bottom to top), standing as it would on the table. */
function towerPicture(tower) {
  const st = standing(tower);
  const h = Math.max(...st.map((s) => s.apex)) + 6;
  const pic = svg("svg", { class: "pt-tower", viewBox: `0 0 60 ${h}`, "aria-hidden": "true" });
  add(pic, svg("line", { class: "pt-ground", x1: 2, x2: 58, y1: h - 1, y2: h - 1 }), stackPicture(tower, 30, h - 2, () => "", false));
  return pic;
}

function frameOf(v, id) {
  return (v.frames || []).find((f) => f.id === id) || { id, rgb: "#888", theme: id };
}

/** Do a goal's two links (bottom-middle, middle-top) stand now? */
function links(tower, stacks) {
  const under = new Map();
  for (const s of stacks) for (let i = 1; i < s.length; i++) under.set(s[i], s[i - 1]);
  return [under.get(tower[1]) === tower[0], under.get(tower[2]) === tower[1]];
}

function goalCard(v, card, { small = false, exchange = null, fresh = false } = {}) {
  const frame = frameOf(v, card.frame);
  const ok = links(card.tower, v.stacks);
  const codes = el("span", { class: "pt-goal-codes", "aria-hidden": "true" },
    el("span", {}, card.tower[0]), el("span", { class: `pt-link${ok[0] ? " ok" : ""}` }, ok[0] ? "=" : "·"),
    el("span", {}, card.tower[1]), el("span", { class: `pt-link${ok[1] ? " ok" : ""}` }, ok[1] ? "=" : "·"),
    el("span", {}, card.tower[2]));
  const words = t("{goal}, {frame} frame: {tower}, bottom to top", {
    goal: goalName(card), frame: frameName(v, card.frame), tower: card.tower.join(", "),
  });
  const box = el("div", { class: `pt-goal${small ? " small" : ""}${fresh ? " last" : ""}`, style: `--frame:${frame.rgb}`, "data-place": card.id, "data-goal": card.id, role: "group", "aria-label": words },
    el("span", { class: "pt-frame" }, el("span", { class: "pt-swatch", "aria-hidden": "true" }), frameName(v, card.frame)),
    el("strong", { class: "pt-goal-name" }, goalName(card)),
    towerPicture(card.tower), codes);
  if (exchange) add(box, exchange);
  return box;
}

export function status(v) {
  const move = v.turn_limit ? t("Move {turn} of at most {limit}", { turn: number(v.turn + 1), limit: number(v.turn_limit) })
    : t("Move {turn}", { turn: number(v.turn + 1) });
  const deck = tn("{n} card in the deck", "{n} cards in the deck", v.deck);
  return `${move} · ${deck}`;
}

/** Who the seat is, in a sentence's subject: "Ana", or null for the viewer (own wording). */
function who(v, seat) {
  return (v.names && v.names[seat]) || t("Player {n}", { n: number(seat + 1) });
}

function winReason(cards) {
  const frames = cards.map((c) => c.frame);
  if (cards.length >= 5) return "five";
  for (const f of new Set(frames)) if (frames.filter((x) => x === f).length >= 3) return f;
  return "four";
}

/** What just happened, one translated line each, for the news log. */
export function explain(v, prev) {
  if (!prev || !v || prev.ply === v.ply) return [];
  const lines = [];
  const mover = prev.current_player;
  const me = v.viewer !== null && v.viewer !== undefined && mover === v.viewer;
  const group = v.last_group || [];
  if (group.length) {
    const stack = v.stacks.find((s) => s.includes(group[0])) || [];
    const k = stack.indexOf(group[0]);
    const what = group.join(" ");
    if (k > 0) lines.push(me ? t("You moved {group} onto {piece}", { group: what, piece: stack[k - 1] })
      : t("{player} moved {group} onto {piece}", { player: who(v, mover), group: what, piece: stack[k - 1] }));
    else lines.push(me ? t("You put {group} on the table", { group: what })
      : t("{player} put {group} on the table", { player: who(v, mover), group: what }));
  } else if (v.turn !== prev.turn) {
    const gone = me && prev.hand && v.hand ? prev.hand.filter((c) => !v.hand.some((d) => d.id === c.id) && !v.displayed[mover].some((d) => d.id === c.id)) : [];
    if (gone.length) lines.push(t("You exchanged {goal} for a new card", { goal: goalName(gone[0]) }));
    else lines.push(me ? t("You exchanged a goal card") : t("{player} exchanged a goal card", { player: who(v, mover) }));
  }
  const n = v.displayed.length;
  for (let i = 0; i < n; i++) {
    const seat = (mover + i) % n;
    const before = (prev.displayed[seat] || []).length;
    for (const card of v.displayed[seat].slice(before)) {
      const frame = frameName(v, card.frame);
      lines.push(seat === v.viewer ? t("You achieved {goal} ({frame})", { goal: goalName(card), frame })
        : t("{player} achieved {goal} ({frame})", { player: who(v, seat), goal: goalName(card), frame }));
    }
  }
  if (v.is_over && !prev.is_over) lines.push(ending(v));
  return lines;
}

function ending(v) {
  if (v.winner !== null && v.winner !== undefined) {
    const p = who(v, v.winner);
    const r = winReason(v.displayed[v.winner]);
    if (r === "five") return t("{player} wins with a 5th goal", { player: p });
    if (r === "four") return t("{player} wins with a 4th frame colour", { player: p });
    return t("{player} wins with a 3rd card of one frame colour ({frame})", { player: p, frame: frameName(v, r) });
  }
  if (v.end === "turn-limit") return t("A draw: the limit of {n} moves was reached", { n: number(v.turn_limit) });
  return t("A draw: the deck is empty and no one holds a card");
}

// -- state kept between redraws: the piece picked up (ui.selected), in boards/ui-state.js ------

// render and cancel are this module's own (function declarations, so already defined here)
const { begin, redraw, ownKeys } = boardUi({ render, cancel });

export function cancel(ctx) {
  const ui = ctx.ui || ctx.__ui;
  if (!ui || !ui.selected) return false;
  ui.selected = null;
  return true;
}

export function render(root, ctx) {
  const { ui, newPly } = begin(root, ctx);
  if (newPly) ui.selected = null; // a new move: the choice starts again
  draw(root, ctx, ui);
  ownKeys(root, ctx);
}

function draw(root, ctx, ui) {
  const v = ctx.view;
  const legal = ctx.interactive ? ctx.legal || [] : [];
  const moves = new Set(legal);
  const sources = new Set(legal.filter((m) => m.includes(">")).map((m) => m.split(">")[0]));
  if (ui.selected && !sources.has(ui.selected)) ui.selected = null;
  const sel = ui.selected;
  const stacks = v.stacks;
  const selStack = sel ? stacks.findIndex((s) => s.includes(sel)) : -1;
  const lifted = new Set(sel ? stacks[selStack].slice(stacks[selStack].indexOf(sel)) : []);
  const choose = (code) => { ui.selected = ui.selected === code ? null : code; redraw(root, ctx); };
  const send = (m) => { ui.selected = null; ctx.move(m); };

  // the move just made: the group at its new place, and where it came from
  const fresh = ctx.prev && ctx.prev.ply !== v.ply ? v.last_group || [] : [];
  const moved = new Set(fresh);
  let from = null; // {stack: remaining codes or [], ghost: prev stack, index in the new order}
  if (fresh.length) {
    const old = ctx.prev.stacks.find((s) => s.includes(fresh[0]));
    if (old) {
      const k = old.indexOf(fresh[0]);
      from = { rest: old.slice(0, k), old };
    }
  }

  const table = el("div", { class: "pt-table", role: "group", "aria-label": t("The stacks of pyramids on the table") });
  const tiles = [];
  stacks.forEach((stack, s) => {
    const top = stack[stack.length - 1];
    const isSource = from && from.rest.length && stack.length === from.rest.length && from.rest.every((c, i) => stack[i] === c);
    tiles.push({ order: pieceOrder(stack[0]), node: stackTile(stack, s, top, isSource ? from.old : null) });
  });
  if (from && !from.rest.length) {
    // the whole stack moved onto another: a ghost where it stood
    tiles.push({ order: pieceOrder(fresh[0]) - 0.5, node: ghostTile(from.old) });
  }
  tiles.sort((a, b) => a.order - b.order);
  for (const tile of tiles) add(table, tile.node);

  function stackTile(stack, s, top, ghostOf) {
    const n = stack.length;
    const st = standing(stack);
    const ghost = ghostOf ? standing(ghostOf).filter((x) => moved.has(x.code)) : [];
    const picH = Math.max(PH.L, ...st.map((x) => x.apex), ...ghost.map((x) => x.apex)) + 16;
    const ladderH = n * (CHIP_H + CHIP_GAP) - CHIP_GAP;
    const H = Math.max(ladderH, picH + PLATE) + 6;
    const ground = H - 3 - PLATE;
    const target = sel && selStack !== s && moves.has(`${sel}>${top}`);
    const tile = el("div", { class: `pt-stack${target ? " target" : ""}${ghostOf ? " from" : ""}${stack.some((c) => moved.has(c)) ? " to" : ""}`, "data-top": top });
    const pic = svg("svg", { class: "pt-svg", viewBox: `0 0 ${TILE_W} ${H}`, style: `--w:${TILE_W};--h:${H}`, role: "group", "aria-label": t("Stack {top}: {pieces}, bottom to top", { top, pieces: stack.join(", ") }) });
    add(tile, pic);
    const hit = svg("rect", { class: "pt-pic-hit", x: 2, y: 2, width: PIC + 2, height: H - 4, rx: 8 });
    add(pic, hit, svg("line", { class: "pt-ground", x1: 4, x2: PIC + 2, y1: ground, y2: ground }));
    if (ghost.length) {
      const gg = svg("g", { class: "pt-ghost" });
      for (const x of ghost) add(gg, pyramid(x.code, 3 + PIC / 2, ground - x.base, "ghost"));
      add(pic, gg);
    }
    const picture = stackPicture(stack, 3 + PIC / 2, ground, (c) => [lifted.has(c) ? "lifted" : "", c === sel ? "selected" : "", moved.has(c) ? "last" : ""].join(" "));
    add(pic, picture);
    add(pic, svg("text", { class: "pt-plate", x: 3 + PIC / 2, y: H - 9, "text-anchor": "middle" }, top));
    // mouse: a click on the picture picks the piece under the pointer, or drops the selection here
    if (ctx.interactive) {
      hit.parentNode.addEventListener("click", (e) => {
        if (e.target.closest(".pt-chip")) return;
        const code = e.target.closest("[data-p]")?.dataset.p;
        if (sel && selStack !== s) send(`${sel}>${top}`);
        else if (code && sources.has(code)) choose(code);
        else if (sel) choose(sel);
      });
    }
    stack.forEach((code, k) => {
      const y = H - 3 - (k + 1) * (CHIP_H + CHIP_GAP) + CHIP_GAP;
      const isTop = k === n - 1;
      const asTarget = sel && selStack !== s && isTop;
      const cls = ["pt-chip", sources.has(code) ? "movable" : "", lifted.has(code) ? "lifted" : "", code === sel ? "selected" : "",
        moved.has(code) ? "last" : "", asTarget && moves.has(`${sel}>${code}`) ? "target" : ""].join(" ");
      const chip = svg("g", { class: cls, transform: `translate(${3 + PIC + 4} ${y})`, "data-place": code, "data-piece": code });
      const w = PW[code[0]] * 0.42, h = PH[code[0]] * 0.42;
      add(chip, svg("rect", { class: "ring", x: -3, y: -3, width: CHIP_W + 6, height: CHIP_H + 6, rx: 10 }),
        svg("rect", { class: "face", width: CHIP_W, height: CHIP_H, rx: 8 }),
        svg("path", { class: "icon", d: `M${13 - w / 2} ${CHIP_H / 2 + h / 2} L13 ${CHIP_H / 2 - h / 2} L${13 + w / 2} ${CHIP_H / 2 + h / 2} Z`, fill: COLOURS[code[1]], stroke: EDGES[code[1]] }),
        svg("text", { class: "code", x: 33, y: CHIP_H / 2 + 5, "text-anchor": "middle" }, code));
      if (ctx.interactive) {
        if (asTarget && moves.has(`${sel}>${code}`)) {
          chip.dataset.target = "1";
          actionable(chip, code, t("Put {group} onto {piece}", { group: [...lifted].join(" "), piece: pieceName(code) }), () => send(`${sel}>${code}`));
        } else if (asTarget) {
          chip.addEventListener("click", (e) => { e.stopPropagation(); send(`${sel}>${code}`); }); // the server says why not
        } else if (sources.has(code)) {
          const above = n - 1 - k;
          const label = code === sel ? t("{piece}: picked up; choose it again to put it back", { piece: pieceName(code) })
            : above ? tn("{piece}: pick it up with the piece on it", "{piece}: pick it up with the {n} pieces on it", above, { piece: pieceName(code) })
              : t("{piece}: pick it up", { piece: pieceName(code) });
          actionable(chip, code, label, () => choose(code));
        } else {
          chip.addEventListener("click", (e) => { e.stopPropagation(); choose(code); });
        }
      }
      add(pic, chip);
    });
    return tile;
  }

  function ghostTile(old) {
    const st = standing(old);
    const H = Math.max(...st.map((x) => x.apex)) + 16 + PLATE + 6;
    const ground = H - 3 - PLATE;
    const pic = svg("svg", { class: "pt-svg", viewBox: `0 0 ${PIC + 6} ${H}`, style: `--w:${PIC + 6};--h:${H}`, "aria-hidden": "true" },
      svg("line", { class: "pt-ground", x1: 4, x2: PIC + 2, y1: ground, y2: ground }));
    const gg = svg("g", { class: "pt-ghost" });
    for (const x of st) add(gg, pyramid(x.code, 3 + PIC / 2, ground - x.base, "ghost"));
    add(pic, gg, svg("text", { class: "pt-plate ghost", x: 3 + PIC / 2, y: H - 9, "text-anchor": "middle" }, t("moved")));
    return el("div", { class: "pt-stack ghost-tile from" }, pic);
  }

  // the table: a new stack
  const tableOk = sel && moves.has(`${sel}>table`);
  const zone = el("div", { class: `pt-stack pt-new${tableOk ? " target" : ""}`, "data-stack": "table", "data-place": "table" },
    el("span", { class: "pt-new-word" }, tc("drop target", "table")), el("span", { class: "pt-new-help" }, t("a new stack")));
  if (ctx.interactive) {
    if (tableOk) {
      zone.dataset.target = "1";
      actionable(zone, "table", t("Put {group} on the table as a new stack", { group: [...lifted].join(" ") }), () => send(`${sel}>table`));
    } else {
      zone.addEventListener("click", (e) => { if (sel) { e.stopPropagation(); send(`${sel}>table`); } });
    }
  }
  add(table, zone);

  const last = (v.last_group || []).join(" ");
  const help = !ctx.interactive ? "" : sel
    ? t("Moving {group}: choose the top piece of a glowing stack, or the table. Escape puts it back.", { group: [...lifted].join(" ") })
    : t("Choose a piece: it moves with every piece on it. Then choose where it goes.");
  const rule = last ? t("The group just moved ({group}) may not move again as the same group.", { group: last }) : "";

  // goal cards: mine (secret), then everyone's displayed ones with the frame colours that win
  const prevShown = ctx.prev ? ctx.prev.displayed : null;
  const hand = v.hand ? el("section", { class: "pt-hand", "aria-label": t("Your goal cards") },
    el("h3", {}, t("Your goal cards"), " ", el("small", { class: "muted" }, t("(secret)"))),
    v.hand.length ? el("div", { class: "pt-goals" }, v.hand.map((card) => {
      const m = `x ${card.id}`;
      let button = null;
      if (moves.has(m)) {
        button = el("button", { class: "pt-exchange", type: "button", "data-move": m }, t("Exchange"));
        actionable(button, `x:${card.id}`, t("Exchange {goal}: put it under the deck and draw another card", { goal: goalName(card) }), () => send(m));
      }
      return goalCard(v, card, { exchange: button });
    })) : el("p", { class: "muted" }, t("Your hand is empty: the deck ran out."))) : null;

  const seats = ctx.seats || [];
  const shown = el("section", { class: "pt-displayed" },
    el("h3", {}, t("Displayed goals")),
    el("p", { class: "muted small" }, t("A player wins on displaying a 5th goal, a 4th frame colour, or a 3rd card of one frame colour.")),
    v.displayed.map((cards, i) => {
      const byFrame = {};
      for (const c of cards) byFrame[c.frame] = (byFrame[c.frame] || 0) + 1;
      const before = prevShown && prevShown[i] ? prevShown[i].length : cards.length;
      return el("div", { class: `pt-seat${v.current_player === i && !v.is_over ? " to-move" : ""}` },
        el("div", { class: "pt-seat-head" },
          el("strong", {}, seats[i]?.name || who(v, i)),
          el("span", { class: "muted" }, " ", tn("{n} card in hand", "{n} cards in hand", v.hand_sizes[i])),
          el("span", { class: "pt-tally" }, Object.entries(byFrame).map(([f, k]) => el("span", { class: "pt-count", style: `--frame:${frameOf(v, f).rgb}`, title: frameName(v, f) },
            el("span", { class: "pt-swatch", "aria-hidden": "true" }), `${frameName(v, f)} ×${number(k)}`)))),
        cards.length ? el("div", { class: "pt-goals small" }, cards.map((c, k) => goalCard(v, c, { small: true, fresh: k >= before })))
          : el("p", { class: "muted small" }, t("No goal displayed yet.")));
    }));

  const board = el("div", { class: "pyramideto-board" }, table,
    el("p", { class: "board-help" }, help, rule ? el("span", { class: "muted" }, " ", rule) : null),
    hand, shown);
  add(root, board);

  // the group just moved slides from where it stood (once per move, not per redraw)
  if (fresh.length && ui.animate) animateMove(table, fresh);
}

function animateMove(table, group) {
  const ghost = table.querySelector(".pt-stack.from .pt-ghost");
  const dest = table.querySelector(`.pt-stack.to .pt-piece[data-p="${CSS.escape(group[0])}"]`);
  if (!ghost || !dest || typeof dest.animate !== "function") return;
  if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return; // the marks stay
  const destTile = dest.closest(".pt-stack");
  const svgEl = dest.ownerSVGElement;
  const a = ghost.getBoundingClientRect(), b = [...destTile.querySelectorAll(".pt-piece.last")].reduce((r, n) => {
    const q = n.getBoundingClientRect();
    return r ? { left: Math.min(r.left, q.left), top: Math.min(r.top, q.top), right: Math.max(r.right, q.right), bottom: Math.max(r.bottom, q.bottom) } : q;
  }, null);
  if (!b || !a.width) return;
  const scale = svgEl.getBoundingClientRect().width / svgEl.viewBox.baseVal.width || 1;
  const dx = ((a.left + a.right) / 2 - (b.left + b.right) / 2) / scale;
  const dy = (a.bottom - b.bottom) / scale;
  destTile.classList.add("flying");
  for (const n of destTile.querySelectorAll(".pt-piece.last")) {
    const anim = n.animate([{ transform: `translate(${dx}px, ${dy - 14}px)` }, { transform: `translate(${dx / 2}px, ${Math.min(dy, 0) - 30}px)`, offset: 0.45 }, { transform: "translate(0px, 0px)" }],
      { duration: 650, easing: "ease-in-out" });
    anim.onfinish = () => destTile.classList.remove("flying");
  }
}

export function summary(v) {
  const names = v.names || [];
  const rows = v.displayed.map((cards, i) => {
    const byFrame = {};
    for (const c of cards) byFrame[c.frame] = (byFrame[c.frame] || 0) + 1;
    return el("tr", {},
      el("th", { scope: "row" }, names[i] || who(v, i)),
      el("td", { class: "num" }, number(cards.length)),
      el("td", {}, cards.length ? Object.entries(byFrame).map(([f, k]) => el("span", { class: "pt-count", style: `--frame:${frameOf(v, f).rgb}` },
        el("span", { class: "pt-swatch", "aria-hidden": "true" }), `${frameName(v, f)} ×${number(k)}`)) : "–"));
  });
  // no place column: the end dialog's results table above this one gives the places
  return el("div", { class: "pyramideto-breakdown" },
    el("p", {}, ending(v)),
    el("div", { class: "pt-scroll" }, el("table", { class: "breakdown" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Player")), el("th", { scope: "col" }, t("Goals")), el("th", { scope: "col" }, t("Frame colours")))),
      el("tbody", {}, rows))));
}

/** A seat's score in the players list: what the number counts (displayed goals). */
export function scoreText(v, seat) {
  return tn("{n} goal displayed", "{n} goals displayed", v.scores?.[seat] ?? 0);
}
