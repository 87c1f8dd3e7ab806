// The fallback board for any game without a board module: a readable rendering of the
// seat's view and every legal move as a button, so that no game is a dead end.

import { el, add, pretty } from "../util.js";
import { t } from "../i18n.js";

const HEADER = new Set(["game", "players", "names", "variant", "viewer", "current_player", "is_over", "ply", "scores", "ranking"]);

function value(v, depth = 0) {
  if (v === null || v === undefined) return el("span", { class: "muted" }, "—");
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== "object")) return el("span", {}, v.map((x) => (x === null ? "—" : String(x))).join(", ") || t("(none)"));
    return el("ol", { start: 0, class: "tree" }, v.map((x) => el("li", {}, value(x, depth + 1))));
  }
  if (typeof v === "object") {
    return el("dl", { class: "tree" }, Object.entries(v).flatMap(([k, x]) => [el("dt", {}, pretty(k)), el("dd", {}, value(x, depth + 1))]));
  }
  return el("span", {}, String(v));
}

export function render(root, ctx) {
  const body = {};
  for (const [k, v] of Object.entries(ctx.view)) if (!HEADER.has(k)) body[k] = v;
  add(root, el("div", { class: "generic" },
    el("p", { class: "muted" }, t("This game has no drawn board yet: here is everything your seat can see.")),
    ctx.interactive && ctx.legal ? el("div", { class: "move-buttons big" }, ctx.legal.map((m) => el("button", { class: "move", "data-move": m, onclick: () => ctx.move(m) }, m))) : null,
    value(body)));
}
