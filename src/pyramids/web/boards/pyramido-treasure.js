// Pyramido treasure hunt board: the box of 12 fields (48 spots) seen from above as the players see
// it now (turned or not), the sliding pyramids, the one visible token, a key of the fields, the card
// being sought or the event being resolved, and everyone's treasures.
//
// Place names (data-place): spots as seen now, `c4` (the notation's names: column letter from the
// left, row number from the top, following the turned box); on a turned box the spot's hit area
// also carries the move's `e2=C4` and the spot below it the box name `C4`. Treasures by id
// (`sacred-dog`), cards by `treasure/points` (`mummy/2`), players `p1`..`p5`.

import { el, add, svg } from "../util.js";
import { actionable } from "../focus.js";
import { boardUi } from "./ui-state.js";
import { t, tn, name, number } from "../i18n.js";

const S = 64; // one spot
const RIM = 18; // the box's rim around the spots, where the labels are
const TREASURES = ["sphinx", "mummy", "parrot", "trumpet", "sacred-dog", "scarab", "crown", "vase", "ankh", "lamp", "necklace", "cat"];
const CODES = { sphinx: "SX", mummy: "MU", parrot: "PA", trumpet: "TR", "sacred-dog": "DG", scarab: "SC", crown: "CR", vase: "VA", ankh: "AN", lamp: "LA", necklace: "NE", cat: "CA" };
const PICTURES = "/static/rules/img/pyramido-treasure/";
const PYR = { R: ["#e26a58", "#b23a2c", "#f3998b", "#c94a3b"], Y: ["#f3cf4f", "#c49a14", "#fbe38f", "#dcb22c"], B: ["#6394e8", "#2c5bb0", "#99bbf3", "#3f70c9"] };
const FIELD_TONES = ["#e8cf9c", "#dcbd83"];

const treasureName = (id) => name("treasure", id);
const eventName = (id) => name("event", id);

function cardParts(card) {
  const [id, points] = String(card).split("/");
  return { id, points: points === undefined ? null : Number(points) };
}

/** "mummy (2)" in the player's language; an event card by its name. */
export function cardLabel(card) {
  const { id, points } = cardParts(card);
  if (points === null) return eventName(id);
  return t("{treasure} ({points})", { treasure: treasureName(id), points: number(points) });
}

function pointsText(n) {
  return tn("{n} point", "{n} points", n);
}

function playerName(v, seat) {
  return (v.names && v.names[seat]) || t("Player {n}", { n: number(seat + 1) });
}

/**
 * One line of the table's news in the reader's language. The view gives each line as a code
 * and its parameters (games/pyramido_treasure/news.py, with the same English templates, so the
 * catalogs translate them alike) and its English text, used only for a code this page lacks.
 * Parameters: `seat*` seat numbers, `treasure*` treasure ids, `event` an event card id.
 */
export function newsLine(v, item) {
  if (typeof item === "string") return item;
  if (!item || !item.code) return "";
  const p = {};
  for (const [key, value] of Object.entries(item.params || {})) {
    const kind = key.split("_")[0];
    if (kind === "seat") p[key] = playerName(v, value);
    else if (kind === "treasure") p[key] = treasureName(value);
    else if (kind === "event") p[key] = eventName(value);
    else p[key] = typeof value === "number" ? number(value) : value;
  }
  switch (item.code) {
    case "draws": return t("{seat} draws {treasure} ({points}) from deck {deck}", p);
    case "draws-event": return t("{seat} draws {event} from deck {deck}", p);
    case "already-visible": return t("the {treasure} is already visible", p);
    case "takes": return t("{seat} takes {treasure} ({points})", p);
    case "box-quarter-turn": return t("the box turns a quarter turn clockwise", p);
    case "box-half-turn": return t("the box turns half a turn", p);
    case "finds": return t("{seat} finds the {treasure}", p);
    case "reveals": return t("{seat} reveals the {treasure}", p);
    case "reveals-wrong": return t("{seat} reveals the {treasure}, not the {treasure_sought}", p);
    case "out": return t("{seat} is out of the game (deck 3, wrong treasure)", p);
    case "names-treasures": return t("{seat} names the {treasure_a} and the {treasure_b}", p);
    case "revealed-both": return t("{seat} revealed both named treasures", p);
    case "no-card-of": return t("the current deck holds no card of the {treasure}", p);
    case "takes-from-deck": return t("{seat} takes {treasure} ({points}) from the deck", p);
    case "missed-both": return t("{seat} did not reveal both named treasures and must give a card", p);
    case "challenges": return t("{seat} challenges {seat_opponent} to find the {treasure}", p);
    case "takes-at-random": return t("{seat} takes {treasure} ({points}) at random from {seat_from}", p);
    case "no-card-to-lose": return t("{seat} has no card to lose", p);
    case "mirage-fades": return t("{seat} has no card: the mirage fades", p);
    case "keeps": return t("{seat} keeps {treasure} ({points})", p);
    case "returns": return t("{seat} returns {treasure} ({points}) to {seat_to}", p);
    case "gives": return t("{seat} gives {treasure} ({points}) to {seat_to}", p);
    case "no-card-to-give": return t("{seat} has no card to give", p);
    case "slide-limit": return t("the slide limit ({limit}) is reached", p);
    case "deck-used-up": return t("deck 3 is used up", p);
    default: return item.text || "";
  }
}

/** The seen (row, column) of box spot `index` after `rotation` clockwise quarter turns. */
function turnedCell(index, rotation) {
  let r = Math.floor(index / 8), c = index % 8, h = 6, w = 8;
  for (let k = 0; k < ((rotation % 4) + 4) % 4; k++) { [r, c] = [c, h - 1 - r]; [h, w] = [w, h]; }
  return [r, c];
}

function spotName(r, c) {
  return String.fromCharCode(97 + c) + String(r + 1);
}

function spotCell(label) {
  return [Number(label.slice(1)) - 1, label.charCodeAt(0) - 97];
}

/** The box name (upper case, unturned frame) of the spot seen at (r, c). */
function boxName(r, c, rotation) {
  for (let i = 0; i < 48; i++) {
    const [rr, cc] = turnedCell(i, rotation);
    if (rr === r && cc === c) return String.fromCharCode(65 + (i % 8)) + String(Math.floor(i / 8) + 1);
  }
  return "";
}

// -- state kept between redraws ---------------------------------------------------------------

// render and cancel are this module's own (function declarations, so already defined here)
const { begin, redraw, ownKeys } = boardUi({ render, cancel });

// -- pieces -------------------------------------------------------------------------------------

/** A pyramid seen from above: four triangles meeting at the apex, lit from the top left. */
function pyramid(colour, x, y) {
  const [top, right, bottom, left] = PYR[colour] || PYR.Y;
  const m = 4;
  const a = [x + S / 2, y + S / 2];
  const tl = [x + m, y + m], tr = [x + S - m, y + m], br = [x + S - m, y + S - m], bl = [x + m, y + S - m];
  const tri = (p, q, fill) => svg("path", { d: `M${p[0]} ${p[1]} L${q[0]} ${q[1]} L${a[0]} ${a[1]} Z`, fill });
  return svg("g", { class: "pyr" },
    svg("rect", { class: "pyr-shadow", x: x + m + 2, y: y + m + 3, width: S - 2 * m, height: S - 2 * m, rx: 2 }),
    tri(tl, tr, top), tri(tr, br, right), tri(br, bl, bottom), tri(bl, tl, left),
    svg("path", { class: "pyr-edge", d: `M${tl[0]} ${tl[1]} L${br[0]} ${br[1]} M${tr[0]} ${tr[1]} L${bl[0]} ${bl[1]}` }),
    svg("rect", { class: "pyr-base", x: x + m, y: y + m, width: S - 2 * m, height: S - 2 * m }));
}

function picture(id, x, y, size) {
  return svg("image", { href: `${PICTURES}${id}.svg`, x, y, width: size, height: size, class: "picture" });
}

/** The visible token: a blank disc, or a treasure's picture with its code. */
function token(id, x, y) {
  const g = svg("g", { class: `token ${id === "blank" ? "blank" : "treasure"}` });
  const cx = x + S / 2, cy = y + S / 2;
  if (id === "blank") {
    g.append(svg("circle", { cx, cy, r: S / 2 - 9 }));
    return g;
  }
  g.append(svg("circle", { class: "halo", cx, cy, r: S / 2 - 2 }), svg("circle", { cx, cy, r: S / 2 - 5 }),
    svg("text", { class: "code", x: cx, y: cy + 6, "text-anchor": "middle" }, CODES[id] || id.slice(0, 2).toUpperCase()),
    picture(id, x + 7, y + 5, S - 14),
    svg("rect", { class: "code-tag", x: cx - 13, y: y + S - 17, width: 26, height: 14, rx: 4 }),
    svg("text", { class: "code-small", x: cx, y: y + S - 6.5, "text-anchor": "middle" }, CODES[id] || ""));
  return g;
}

// -- the events, in words --------------------------------------------------------------------

/** One line telling what the event card `id` does, for the player who drew it. */
function eventRule(v, id, owner) {
  const player = playerName(v, owner);
  switch (id) {
    case "sandstorm": return t("Sandstorm: the box turns half round and {player} draws again.", { player });
    case "gift": return t("Gift: {player} slides until a treasure shows; every other player holding that treasure gives {player} one card of it.", { player });
    case "danger": return t("Danger: {player} names two hidden treasures, then slides until a treasure shows, twice; both named ones: {player} takes a card of each from the deck, otherwise gives a card away.", { player });
    case "mirage": return t("Mirage: {player} takes a card at random from the player on the right, then slides until a treasure shows; the card's treasure: it stays, otherwise it goes back with one of {player}'s cards.", { player });
    case "desert-poker": return t("Desert poker: {player} names an opponent and a hidden treasure; the opponent slides until a treasure shows; the named one: the opponent takes a random card from {player}, otherwise {player} takes one from the opponent.", { player });
    case "game-over": return t("Game over card: the game ends now.");
    default: return t("{player} draws {event}.", { player, event: eventName(id) });
  }
}

/** One line for the choice open now (an event being resolved), or null while seeking. */
function eventNow(v) {
  const s = v.search;
  const e = v.event || {};
  if (!s || v.is_over) return null;
  const player = playerName(v, s.owner);
  const mover = playerName(v, v.current_player);
  switch (v.phase) {
    case "gift": return t("Gift for {player}: slide until any treasure shows.", { player });
    case "gift-give": return t("Gift: the {treasure} shows; {giver} gives {player} a card of it.", { treasure: treasureName(e.treasure), giver: mover, player });
    case "danger-name": return t("Danger: {player} names two treasures that are not visible.", { player });
    case "danger": {
      const named = e.named || [];
      return t("Danger: {player} named the {a} and the {b}; slide until a treasure shows ({n} of 2 found).", {
        player, a: treasureName(named[0]), b: treasureName(named[1]), n: number((e.revealed || []).length),
      });
    }
    case "danger-give": return t("Danger missed: {player} gives one card to an opponent.", { player: mover });
    case "mirage": return t("Mirage: {player} holds {card} taken from {neighbour}; slide until a treasure shows.", {
      player, card: e.card ? cardLabel(e.card) : "?", neighbour: playerName(v, e.neighbour),
    });
    case "mirage-give": return t("Mirage failed: {player} gives {neighbour} one card.", { player: mover, neighbour: playerName(v, e.neighbour) });
    case "poker-name": return t("Desert poker: {player} names an opponent and a hidden treasure.", { player });
    case "poker": return t("Desert poker: {opponent} slides to find the {treasure} named by {player}.", {
      opponent: playerName(v, e.opponent), treasure: treasureName(e.treasure), player: playerName(v, e.challenger ?? s.owner),
    });
    default: return null;
  }
}

function seekingText(v) {
  const s = v.search;
  if (!s || !s.treasure) return null;
  return t("Seeking the {treasure}, {points}", { treasure: treasureName(s.treasure), points: pointsText(s.points) });
}

// -- the contract --------------------------------------------------------------------------------

export function status(v) {
  if (v.is_over) {
    const why = { "game-over-card": t("the game-over card"), "deck-empty": t("deck 3 is used up"), "one-left": t("one player left"), "slide-limit": t("the slide limit") }[v.end];
    return why ? t("Game over: {why}", { why }) : t("Game over");
  }
  const now = eventNow(v) || seekingText(v) || "";
  return t("{now} · deck {deck} of 3", { now, deck: number(v.deck) });
}

export function cancel(ctx) {
  const ui = ctx.ui || ctx.__ui;
  if (!ui) return false;
  if ((ui.named && ui.named.length) || ui.opponent !== undefined && ui.opponent !== null || ui.treasure) {
    ui.named = []; ui.opponent = null; ui.treasure = null;
    return true;
  }
  return false;
}

export function render(root, ctx) {
  const { ui, newPly } = begin(root, ctx);
  if (newPly) { ui.named = []; ui.opponent = null; ui.treasure = null; }
  ui.named ||= [];
  draw(root, ctx, ui);
  ownKeys(root, ctx);
}

function draw(root, ctx, ui) {
  const v = ctx.view;
  const rows = v.rows, cols = v.cols;
  const legal = ctx.interactive ? ctx.legal || [] : [];
  const rerender = () => redraw(root, ctx);
  const slideFor = new Map();
  for (const m of legal) {
    const seen = m.split("=")[0];
    if (/^[a-h][1-8]$/.test(seen)) slideFor.set(seen, m);
  }
  const prev = ctx.prev && ctx.prev.board ? ctx.prev : null;

  // -- the box ---------------------------------------------------------------------------------
  const width = cols * S + RIM + 6, height = rows * S + RIM + 6;
  const turnedBy = prev ? ((v.rotation - prev.rotation) % 4 + 4) % 4 : 0;
  const drawing = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, class: `sandbox treasure ${rows > cols ? "tall" : "wide"}`, role: "group",
    "aria-label": t("The box, {rows} rows by {cols} columns, turned {deg}°", { rows: number(rows), cols: number(cols), deg: number(v.rotation * 90) }),
  });
  drawing.append(svg("rect", { class: "box", width, height, rx: 12 }));
  const grid = svg("g", { transform: `translate(${RIM} ${RIM})` });
  drawing.append(grid);
  // fields: 2x2 spots each, in two tones like a printed board
  for (let fr = 0; fr < rows / 2; fr++) for (let fc = 0; fc < cols / 2; fc++) {
    grid.append(svg("rect", { class: "field", x: fc * 2 * S, y: fr * 2 * S, width: 2 * S, height: 2 * S, fill: FIELD_TONES[(fr + fc) % 2] }));
  }
  for (let c = 0; c < cols; c++) grid.append(svg("text", { class: "coord", x: c * S + S / 2, y: -5, "text-anchor": "middle" }, String.fromCharCode(97 + c)));
  for (let r = 0; r < rows; r++) grid.append(svg("text", { class: "coord", x: -9, y: r * S + S / 2 + 4, "text-anchor": "middle" }, String(r + 1)));
  // where the box's own corner A1 is now: the box has turned when this moves
  const [ar, ac] = turnedCell(0, v.rotation);
  const corner = [];
  const left = ac === 0, top = ar === 0;
  const kx = left ? 1 : cols * S - 1, ky = top ? 1 : rows * S - 1, k = 13;
  corner.push(`M${kx} ${ky}`, `L${kx + (left ? k : -k)} ${ky}`, `L${kx} ${ky + (top ? k : -k)}`, "Z");
  const cornerMark = svg("path", { class: "corner-mark", d: corner.join(" ") }, svg("title", {}, t("corner A1 of the box")));

  const emptyName = v.visible.spot;
  // the pyramid that slid last: it now stands where the empty spot was before
  let slid = null;
  if (prev && prev.visible && prev.visible.index !== v.visible.index) {
    const [r, c] = turnedCell(prev.visible.index, v.rotation);
    slid = spotName(r, c);
  }
  const spots = svg("g", { class: "spots" });
  grid.append(spots);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = c * S, y = r * S;
      const seen = spotName(r, c);
      const box = boxName(r, c, v.rotation);
      const ch = v.board[r][c];
      spots.append(svg("rect", { class: "spot", x: x + 1, y: y + 1, width: S - 2, height: S - 2, rx: 6, "data-place": box !== seen ? box : null }));
      if (ch === ".") {
        const g = svg("g", { class: "empty-spot", "data-place": seen, "data-spot": seen });
        g.append(svg("rect", { class: "spot empty", x: x + 2, y: y + 2, width: S - 4, height: S - 4, rx: 6 }), token(v.visible.token, x, y));
        g.append(svg("title", {}, v.visible.token === "blank" ? t("{spot}: a blank token", { spot: seen }) : t("{spot}: the {treasure}", { spot: seen, treasure: treasureName(v.visible.token) })));
        spots.append(g);
        continue;
      }
      const canSlide = slideFor.has(seen);
      const g = svg("g", { class: `slot${canSlide ? " legal" : ""}${seen === slid ? " last" : ""}`, "data-place": seen, "data-spot": seen });
      const move = slideFor.get(seen) || (box !== seen && v.rotation ? `${seen}=${box}` : seen);
      g.append(svg("rect", { class: "spot-hit", x, y, width: S, height: S, rx: 6, "data-place": move !== seen ? move : null }));
      const body = pyramid(ch, x, y);
      g.append(body);
      if (canSlide) g.append(svg("rect", { class: "legal-ring", x: x + 3, y: y + 3, width: S - 6, height: S - 6, rx: 5 }));
      if (seen === slid) {
        g.append(svg("rect", { class: "last-ring", x: x + 2, y: y + 2, width: S - 4, height: S - 4, rx: 6 }));
        if (ui.animate && !turnedBy) {
          const [er, ec] = spotCell(emptyName);
          body.animate?.([{ transform: `translate(${(ec - c) * S}px, ${(er - r) * S}px)` }, { transform: "none" }], { duration: 380, easing: "cubic-bezier(.3,.7,.3,1)" });
        }
      }
      if (canSlide) {
        actionable(g, seen, t("slide the pyramid at {spot} into the empty spot {empty}", { spot: seen, empty: emptyName }), () => ctx.move(slideFor.get(seen)));
      } else if (ctx.interactive) {
        // not a legal slide: a click still asks, and the rules say why (mouse only, not a target)
        g.addEventListener("click", () => ctx.move(move));
      }
      spots.append(g);
    }
  }
  grid.append(cornerMark);
  // field borders, then each field's treasure code where its four spots meet
  for (let r = 0; r <= rows; r += 2) grid.append(svg("line", { class: "field-line", x1: 0, x2: cols * S, y1: r * S, y2: r * S }));
  for (let c = 0; c <= cols; c += 2) grid.append(svg("line", { class: "field-line", y1: 0, y2: rows * S, x1: c * S, x2: c * S }));
  for (const f of v.fields || []) {
    const cells = f.spots.map(spotCell);
    const r0 = Math.min(...cells.map((x) => x[0])), c0 = Math.min(...cells.map((x) => x[1]));
    const fx = (c0 + 1) * S, fy = (r0 + 1) * S;
    grid.append(svg("g", { class: "field-badge" }, svg("circle", { cx: fx, cy: fy, r: 14.5 }),
      svg("text", { x: fx, y: fy + 4.5, "text-anchor": "middle" }, f.treasure ? CODES[f.treasure] : "?")));
  }
  if (ui.animate && turnedBy) {
    drawing.animate?.([{ transform: `rotate(${-90 * (turnedBy === 3 ? -1 : turnedBy)}deg) scale(0.8)` }, { transform: "none" }], { duration: 700, easing: "ease-in-out" });
  }

  // -- the card, the visible token, the event ----------------------------------------------------
  const s = v.search;
  const isEvent = s && !s.treasure;
  const seeking = s && s.treasure
    ? el("p", { class: "seeking" }, el("img", { class: "pic", src: `${PICTURES}${s.treasure}.svg`, alt: "" }),
      el("span", {}, t("{player} seeks the {treasure}", { player: playerName(v, s.owner), treasure: treasureName(s.treasure) }), " · ", el("strong", {}, pointsText(s.points))))
    : null;
  const eventLine = eventNow(v);
  const eventBox = isEvent || eventLine
    ? el("div", { class: "event-card", role: "status", "data-event": cardParts(s.card).id }, eventLine || eventRule(v, cardParts(s.card).id, s.owner))
    : null;
  const visible = el("p", { class: "visible-now" }, v.visible.token === "blank"
    ? t("In sight: a blank token at {spot}.", { spot: v.visible.spot })
    : t("In sight: the {treasure} at {spot}.", { treasure: treasureName(v.visible.token), spot: v.visible.spot }),
  v.rotation ? el("span", { class: "turned-note" }, " ", t("The box is turned {deg}° clockwise.", { deg: number(v.rotation * 90) })) : null);

  // -- choices that are not slides: naming treasures, an opponent, a card to give -------------
  const named = legal.filter((m) => m.startsWith("name "));
  const poker = legal.filter((m) => m.startsWith("poker "));
  const gives = legal.filter((m) => m.startsWith("give "));
  const nameable = new Set(named.flatMap((m) => m.split(" ").slice(1)));
  const pokerTreasures = new Set(poker.map((m) => m.split(" ")[2]));
  const pokerSeats = new Set(poker.map((m) => m.split(" ")[1]));
  const choose = el("div", { class: "choices" });
  if (named.length) {
    add(choose, el("p", { class: "board-help" }, ui.named.length
      ? t("Named: the {treasure}. Now a second treasure in the key (Escape starts again).", { treasure: treasureName(ui.named[0]) })
      : t("Name two treasures that are not visible: pick them in the key below.")));
  }
  if (poker.length) {
    add(choose, el("p", { class: "board-help" }, t("Pick an opponent and a treasure that is not visible.")));
    const row = el("div", { class: "move-buttons" });
    for (const p of pokerSeats) {
      const seat = Number(p.slice(1)) - 1;
      const b = el("button", { class: `opponent${ui.opponent === p ? " chosen" : ""}`, "data-place": p, "aria-pressed": String(ui.opponent === p) }, playerName(v, seat));
      actionable(b, `opponent ${p}`, t("challenge {player}", { player: playerName(v, seat) }), () => {
        ui.opponent = ui.opponent === p ? null : p;
        pokerPick(ctx, ui, poker, rerender);
      });
      add(row, b);
    }
    add(choose, row);
  }
  if (gives.length) {
    add(choose, el("p", { class: "board-help" }, t("Choose the card to give.")));
    const row = el("div", { class: "move-buttons" });
    for (const m of gives) {
      const [, card, , to] = m.split(" ");
      const seat = Number(to.slice(1)) - 1;
      const b = el("button", { class: "give", "data-move": m },
        t("Give {card} to {player}", { card: cardLabel(card), player: playerName(v, seat) }));
      actionable(b, m, t("Give {card} to {player}", { card: cardLabel(card), player: playerName(v, seat) }), () => ctx.move(m));
      add(row, b);
    }
    add(choose, row);
  }
  const other = legal.filter((m) => !slideFor.has(m.split("=")[0]) && !m.startsWith("name ") && !m.startsWith("poker ") && !m.startsWith("give "));
  if (other.length) {
    add(choose, el("div", { class: "move-buttons" }, other.map((m) => {
      const b = el("button", { class: "move", "data-move": m }, m);
      actionable(b, m, m, () => ctx.move(m));
      return b;
    })));
  }

  // -- the key: the twelve fields as they lie in the box now, with their treasures ----------------
  const fieldRows = rows / 2, fieldCols = cols / 2;
  const keyGrid = el("div", { class: "key-grid", style: `grid-template-columns: repeat(${fieldCols}, minmax(0, 1fr))`, role: "group", "aria-label": t("Key: the treasure of each field") });
  const cellsByPos = new Map();
  for (const f of v.fields || []) {
    const cells = f.spots.map(spotCell);
    const fr = Math.min(...cells.map((x) => x[0])) / 2, fc = Math.min(...cells.map((x) => x[1])) / 2;
    cellsByPos.set(fr * fieldCols + fc, f);
  }
  for (let k = 0; k < fieldRows * fieldCols; k++) {
    const f = cellsByPos.get(k);
    const id = f?.treasure || null;
    const chosen = id && (ui.named.includes(id) || ui.treasure === id);
    const entry = el("div", { class: `key-entry${chosen ? " chosen" : ""}${id && id === v.visible.token ? " in-sight" : ""}`, "data-place": id || null },
      id ? el("img", { class: "pic", src: `${PICTURES}${id}.svg`, alt: "" }) : el("span", { class: "pic unknown" }, "?"),
      el("span", { class: "key-text" }, el("strong", {}, id ? CODES[id] : "??"), el("span", { class: "key-name" }, id ? treasureName(id) : t("not found yet"))));
    if (id && nameable.has(id)) {
      actionable(entry, `treasure ${id}`, t("name the {treasure}", { treasure: treasureName(id) }) + (chosen ? t(" (named)") : ""), () => {
        if (ui.named.includes(id)) ui.named = ui.named.filter((x) => x !== id);
        else ui.named = [...ui.named, id];
        if (ui.named.length === 2) {
          const [a, b] = ui.named;
          const m = named.find((x) => x === `name ${a} ${b}` || x === `name ${b} ${a}`);
          ui.named = [];
          if (m) { ctx.move(m); return; }
        }
        rerender();
      });
    } else if (id && pokerTreasures.has(id)) {
      actionable(entry, `treasure ${id}`, t("bet on the {treasure}", { treasure: treasureName(id) }) + (chosen ? t(" (chosen)") : ""), () => {
        ui.treasure = ui.treasure === id ? null : id;
        pokerPick(ctx, ui, poker, rerender);
      });
    }
    add(keyGrid, entry);
  }
  const key = el("section", { class: "treasure-key" }, el("h3", { class: "caption" }, t("Key of the fields")), keyGrid);

  // -- news and hands ------------------------------------------------------------------------------
  const news = (v.news || []).slice(-4).map((n) => newsLine(v, n));
  // cards that came into a hand with the last move stay marked until the next one
  const fresh = (v.hands || []).map((h, i) => {
    if (!prev || !prev.hands) return new Map();
    const now = count(h), then = count(prev.hands[i]);
    const out = new Map();
    for (const [c, n] of now) if (n > (then.get(c) || 0)) out.set(c, n - (then.get(c) || 0));
    return out;
  });
  const hands = el("section", { class: "displayed" }, el("h3", { class: "caption" }, t("Treasures found")),
    (ctx.seats || []).map((seat, i) => el("div", { class: `displayed-row${v.current_player === i ? " to-move" : ""}${v.eliminated?.[i] ? " out" : ""}`, "data-place": `p${i + 1}` },
      el("strong", {}, playerName(v, i)), v.eliminated?.[i] ? el("span", { class: "muted" }, " ", t("(out)")) : null, " · ",
      el("span", { class: "total" }, pointsText(v.scores?.[i] ?? 0)), ": ",
      (v.hands[i] || []).length
        ? (v.hands[i] || []).map((c) => {
          const { id } = cardParts(c);
          const isNew = (fresh[i].get(c) || 0) > 0;
          if (isNew) fresh[i].set(c, fresh[i].get(c) - 1);
          return el("span", { class: `chip${isNew ? " last" : ""}`, "data-place": c, title: cardLabel(c) }, el("img", { class: "pic", src: `${PICTURES}${id}.svg`, alt: "" }), cardLabel(c));
        })
        : el("span", { class: "muted" }, t("none yet")))));
  const decks = el("p", { class: "decks muted" }, t("Deck {deck} of 3 · cards left: {a} / {b} / {c} · {n} slides", {
    deck: number(v.deck), a: number(v.decks_left?.[0] ?? 0), b: number(v.decks_left?.[1] ?? 0), c: number(v.decks_left?.[2] ?? 0), n: number(v.slides),
  }));
  const help = ctx.interactive && slideFor.size
    ? t("Slide a glowing pyramid next to the empty spot {spot} into it.", { spot: emptyName })
    : "";

  add(root, el("div", { class: "treasure-board" },
    el("div", { class: "treasure-top" }, seeking, eventBox, visible),
    el("p", { class: "board-help", "aria-live": "polite" }, help),
    el("div", { class: "box-wrap" }, drawing),
    choose,
    el("div", { class: "treasure-lower" }, key,
      el("div", {}, hands, news.length ? el("section", { class: "table-news" }, el("h3", { class: "caption" }, t("At the table")), el("ul", { class: "news" }, news.map((n) => el("li", {}, n)))) : null, decks))));
}

function pokerPick(ctx, ui, poker, rerender) {
  if (ui.opponent && ui.treasure) {
    const m = poker.find((x) => x === `poker ${ui.opponent} ${ui.treasure}`);
    ui.opponent = null; ui.treasure = null;
    if (m) { ctx.move(m); return; }
  }
  rerender();
}

// -- news: what just happened ------------------------------------------------------------------

function count(list) {
  const m = new Map();
  for (const x of list || []) m.set(x, (m.get(x) || 0) + 1);
  return m;
}

/** Lines telling what happened between `prev` and `view`: cards drawn, events, cards that moved, the box. */
export function explain(view, prev) {
  if (!view || !prev || !view.board || !prev.board) return [];
  const lines = [];
  const left = (x) => (x.decks_left || []).reduce((a, b) => a + b, 0);
  // cards that changed hands or were taken
  const gained = [], lost = [];
  view.hands.forEach((h, i) => {
    const now = count(h), then = count(prev.hands[i]);
    for (const [c, n] of now) for (let k = 0; k < n - (then.get(c) || 0); k++) gained.push([i, c]);
    for (const [c, n] of then) for (let k = 0; k < n - (now.get(c) || 0); k++) lost.push([i, c]);
  });
  for (const [to, card] of gained) {
    const k = lost.findIndex(([, c]) => c === card);
    if (k >= 0) {
      const [from] = lost.splice(k, 1)[0];
      lines.push(t("{from} gives {card} to {to}.", { from: playerName(view, from), card: cardLabel(card), to: playerName(view, to) }));
    } else {
      lines.push(t("{player} takes {card}.", { player: playerName(view, to), card: cardLabel(card) }));
    }
  }
  for (const [from, card] of lost) lines.push(t("{player} loses {card}.", { player: playerName(view, from), card: cardLabel(card) }));
  const turned = ((view.rotation - prev.rotation) % 4 + 4) % 4;
  if (turned === 2) lines.push(t("The box turns half round: spot names follow the new view."));
  else if (turned) lines.push(t("The box turns a quarter turn clockwise: spot names follow the new view."));
  view.eliminated?.forEach((out, i) => { if (out && !prev.eliminated?.[i]) lines.push(t("{player} is out: another treasure showed in deck 3.", { player: playerName(view, i) })); });
  // a new card drawn: a treasure sought, or an event and what it does
  const s = view.search;
  const drawn = left(view) < left(prev);
  if (drawn && s && !view.is_over) {
    if (s.treasure) lines.push(t("{player} draws the {treasure} card, {points}.", { player: playerName(view, s.owner), treasure: treasureName(s.treasure), points: pointsText(s.points) }));
    else lines.push(eventRule(view, cardParts(s.card).id, s.owner));
  }
  if (turned === 2 && view.search) {
    // a sandstorm was drawn and resolved on the way: say what it did
    lines.unshift(eventRule(view, "sandstorm", view.search.owner));
  }
  if (view.is_over && !prev.is_over && view.end === "game-over-card") lines.push(eventRule(view, "game-over", 0));
  return lines;
}

export function summary(v) {
  const names = v.names || [];
  return el("table", { class: "breakdown" },
    el("thead", {}, el("tr", {}, el("th", {}, t("Player")), el("th", {}, t("Treasure cards")), el("th", {}, t("Points")))),
    el("tbody", {}, v.hands.map((cards, i) => el("tr", {}, el("td", {}, names[i] || t("Player {n}", { n: number(i + 1) })),
      el("td", {}, cards.length ? groupedCards(cards) : t("none")), el("td", { class: "num" }, number(v.scores[i]))))));
}

/**
 * A hand's cards by treasure, one entry each: "sphinx (1, 1, 2)". Why grouped: a long game
 * gives a player a dozen cards, and one entry per card made the end dialog very tall on a phone.
 */
function groupedCards(cards) {
  const points = new Map();
  for (const c of cards) {
    const { id, points: p } = cardParts(c);
    if (!points.has(id)) points.set(id, []);
    if (p !== null) points.get(id).push(p);
  }
  return [...points].map(([id, ps]) => (ps.length
    ? t("{treasure} ({points})", { treasure: treasureName(id), points: ps.sort((a, b) => a - b).map((p) => number(p)).join(", ") })
    : eventName(id))).join(" · ");
}
