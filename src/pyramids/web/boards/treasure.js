// Pyramido treasure hunt board: the box of 48 spots seen from above, the sliding pyramids,
// the one visible token, the turned view, the card being sought and everyone's treasures.

import { el, add, svg, clickable, pretty } from "../util.js";

const S = 64; // one spot
const PYR = { R: ["#e0604f", "#b8392b", "#f08a7b", "#c94a3b"], Y: ["#f3cf4f", "#c9a21c", "#fbe28b", "#dbb42f"], B: ["#5b8ee6", "#2f5fb8", "#8fb3f2", "#4373cc"] };
const CODES = { sphinx: "SX", mummy: "MU", parrot: "PA", trumpet: "TR", "sacred-dog": "DG", scarab: "SC", crown: "CR", vase: "VA", ankh: "AN", lamp: "LA", necklace: "NE", cat: "CA" };

function spotName(r, c) {
  return String.fromCharCode(97 + c) + String(r + 1);
}

/** A pyramid seen from above: four triangles meeting at the apex. */
function pyramid(colour, x, y) {
  const [top, right, bottom, left] = PYR[colour] || PYR.Y;
  const m = 5;
  const a = [x + S / 2, y + S / 2];
  const tl = [x + m, y + m], tr = [x + S - m, y + m], br = [x + S - m, y + S - m], bl = [x + m, y + S - m];
  const tri = (p, q, fill) => svg("path", { d: `M${p[0]} ${p[1]} L${q[0]} ${q[1]} L${a[0]} ${a[1]} Z`, fill });
  return svg("g", { class: "pyr" }, tri(tl, tr, top), tri(tr, br, right), tri(br, bl, bottom), tri(bl, tl, left));
}

function token(name, x, y) {
  const g = svg("g", { class: `token ${name === "blank" ? "blank" : "treasure"}` });
  g.append(svg("circle", { cx: x + S / 2, cy: y + S / 2, r: S / 2 - 8 }));
  if (name !== "blank") {
    g.append(svg("text", { x: x + S / 2, y: y + S / 2 + 1, "text-anchor": "middle", class: "code" }, CODES[name] || name.slice(0, 2).toUpperCase()),
      svg("text", { x: x + S / 2, y: y + S / 2 + 15, "text-anchor": "middle", class: "tname" }, pretty(name)));
  }
  return g;
}

function eventText(ev) {
  if (typeof ev !== "object" || ev === null) return String(ev);
  const show = (x) => (Array.isArray(x) ? x.map(show).join(", ") : typeof x === "string" ? pretty(x) : String(x));
  return Object.entries(ev).map(([k, x]) => `${pretty(k)}: ${show(x)}`).join(" · ");
}

export function status(v) {
  const parts = [`deck ${v.deck} of 3`, `${v.slides} slides`];
  if (v.rotation) parts.push(`box turned ${v.rotation * 90}°`);
  return parts.join(" · ");
}

export function render(root, ctx) {
  const v = ctx.view;
  const rows = v.rows, cols = v.cols;
  const legal = ctx.interactive ? ctx.legal || [] : [];
  const slideFor = new Map();
  for (const t of legal) {
    const seen = t.split("=")[0];
    if (/^[a-h][1-8]$/.test(seen)) slideFor.set(seen, t);
  }
  const others = legal.filter((t) => !slideFor.has(t.split("=")[0]));
  const width = cols * S + 20, height = rows * S + 20;
  const drawing = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "sandbox treasure", role: "img", "aria-label": `The box, ${rows} rows by ${cols} columns` });
  drawing.append(svg("rect", { class: "box", width, height, rx: 12 }));
  const grid = svg("g", { transform: "translate(10 10)" });
  drawing.append(grid);
  const prevEmpty = ctx.prev ? ctx.prev.visible?.spot : null;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = c * S, y = r * S;
      const name = spotName(r, c);
      grid.append(svg("rect", { class: "spot", x, y, width: S, height: S }));
      const ch = v.board[r][c];
      if (ch === ".") {
        grid.append(svg("rect", { class: "spot empty", x, y, width: S, height: S }), token(v.visible.token, x, y));
        continue;
      }
      const cls = ["slot", slideFor.has(name) ? "legal" : "", name === prevEmpty ? "just" : ""].join(" ");
      const g = svg("g", { class: cls, "data-spot": name });
      g.append(svg("rect", { class: "spot-hit", x, y, width: S, height: S }), pyramid(ch, x, y));
      if (ctx.interactive) {
        clickable(g, `pyramid at ${name}${slideFor.has(name) ? " (can slide into the empty spot)" : ""}`, () => ctx.move(slideFor.get(name) || name));
      }
      grid.append(g);
    }
  }
  // field borders (every 2x2 spots) drawn over the spots
  for (let r = 0; r <= rows; r += 2) grid.append(svg("line", { class: "field-line", x1: 0, x2: cols * S, y1: r * S, y2: r * S }));
  for (let c = 0; c <= cols; c += 2) grid.append(svg("line", { class: "field-line", y1: 0, y2: rows * S, x1: c * S, x2: c * S }));

  const search = v.search;
  const panel = el("div", { class: "treasure-info" },
    search ? el("p", { class: "seeking" }, "Seeking ", el("strong", {}, pretty(search.treasure)), ` (${search.points} point${search.points === 1 ? "" : "s"})`) : null,
    el("p", {}, "Visible now: ", el("strong", {}, v.visible.token === "blank" ? "a blank token" : pretty(v.visible.token)), ` at ${v.visible.spot}`),
    v.phase && v.phase !== "search" && !v.is_over ? el("p", { class: "event" }, el("strong", {}, `Event: ${pretty(v.phase)}`), v.event ? ` — ${eventText(v.event)}` : "") : null,
    v.news && v.news.length ? el("ul", { class: "news" }, v.news.slice(-5).map((n) => el("li", {}, n))) : null,
    others.length ? el("div", { class: "move-buttons big" }, others.map((t) => el("button", { class: "move", "data-move": t, onclick: () => ctx.move(t) }, t))) : null,
  );
  const hands = el("section", { class: "displayed" }, el("h3", {}, "Treasures found"),
    ctx.seats.map((s, i) => el("div", { class: "displayed-row" }, el("strong", {}, `${s.name}: `),
      (v.hands[i] || []).length ? (v.hands[i] || []).map((c) => el("span", { class: "chip", title: c }, typeof c === "string" ? `${pretty(c.split("/")[0])} ${c.split("/")[1] || ""}` : JSON.stringify(c))) : el("span", { class: "muted" }, "none yet"))));
  add(root, drawing,
    el("p", { class: "board-help muted" }, ctx.interactive && slideFor.size ? "Click a glowing pyramid next to the empty spot to slide it." : ""),
    panel, hands);
}

export function summary(v) {
  const names = v.names || [];
  const label = (c) => (typeof c === "string" ? c.replace("/", " · ") : JSON.stringify(c));
  return el("table", { class: "breakdown" },
    el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", {}, "Treasure cards (treasure · points)"), el("th", {}, "Points"))),
    el("tbody", {}, v.hands.map((cards, i) => el("tr", {}, el("td", {}, names[i] || `Seat ${i + 1}`),
      el("td", {}, cards.length ? cards.map(label).join(", ") : "none"), el("td", {}, String(v.scores[i]))))));
}
