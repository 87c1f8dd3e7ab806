// The rules pages: the server renders each game's page in the chosen language.

import { el, add } from "./util.js";
import { api } from "./net.js";
import { t } from "./i18n.js";

export async function rulesPage(main, gameId, games) {
  if (!gameId) {
    add(main, el("section", { class: "panel" }, el("h1", {}, t("Rules")),
      el("ul", { class: "rules-list" }, games.map((g) => el("li", {}, el("a", { href: `#/rules/${g.id}` }, g.title), " — ", g.summary)))));
    return;
  }
  const data = await api(`/api/games/${encodeURIComponent(gameId)}/rules`);
  const g = data.game;
  const body = el("article", { class: "panel rules", lang: data.lang || "en" });
  if (data.html) body.innerHTML = data.html; // rendered by the server from our own files, raw HTML disabled
  else add(body, el("h1", {}, g.title), el("p", {}, g.summary));
  const opts = el("div", { class: "table-scroll", tabindex: "0" }, el("table", {},
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Option")), el("th", { scope: "col" }, t("Default")), el("th", { scope: "col" }, t("Meaning")))),
    el("tbody", {}, g.options.map((o) => el("tr", {}, el("td", {}, o.label), el("td", {}, defaultText(o)), el("td", {}, o.doc))))));
  add(main, el("nav", { class: "crumbs", "aria-label": t("Rules pages") }, el("a", { href: "#/rules" }, t("All rules")), " · ", el("a", { href: "#/" }, t("Lobby"))), body,
    g.options.length ? el("section", { class: "panel" }, el("h2", {}, t("Variant options")), opts) : null);
}

function defaultText(o) {
  if (o.default === true) return t("on");
  if (o.default === false) return t("off");
  if (o.default === "random") return t("at random");
  return String(o.default);
}
