// The rules pages: the server renders each game's page in the chosen language.

import { el, add } from "./util.js";
import { api } from "./net.js";
import { t, name, number } from "./i18n.js";

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
    el("tbody", {}, g.options.map((o) => el("tr", {}, el("td", {}, o.label), el("td", {}, defaultText(o)), el("td", {}, meaning(o)))))));
  const options = g.options.length ? el("section", { class: "panel" }, el("h2", {}, t("Variant options")), opts) : null;
  const toc = contents(body, options, gameId);
  if (toc) body.insertBefore(toc, body.querySelector("h2")); // after the title and the introduction
  add(main, el("nav", { class: "crumbs", "aria-label": t("Rules pages") }, el("a", { href: "#/rules" }, t("All rules")), " · ", el("a", { href: "#/" }, t("Lobby"))),
    body, options);
}

// A list of the page's sections (its h2 headings, then the options), each one a link
// that scrolls to its heading: a rulebook read on a phone is long. The links keep the
// page's own address (the app routes by the hash), and the heading takes the focus.
function contents(body, options, gameId) {
  const headings = [...body.querySelectorAll("h2")];
  const titles = new Set(headings.map((h) => h.textContent.trim()));
  // the options table below the page, unless the page has a section of that name already
  for (const h of options ? options.querySelectorAll("h2") : []) if (!titles.has(h.textContent.trim())) headings.push(h);
  if (headings.length < 3) return null;
  return el("nav", { class: "rules-toc", "aria-label": t("Contents") },
    el("p", { class: "rules-toc-title" }, t("Contents")),
    el("ol", {}, headings.map((h, k) => {
      h.id = `rules-section-${k + 1}`;
      h.tabIndex = -1;
      const link = el("a", { href: `#/rules/${encodeURIComponent(gameId)}`, "data-section": h.id }, h.textContent);
      link.addEventListener("click", (e) => {
        e.preventDefault();
        h.scrollIntoView({ block: "start" });
        h.focus({ preventScroll: true });
      });
      return el("li", {}, link);
    })));
}

/** An option's default as the lobby's menu says it (seats counted from 1, as players count). */
function defaultText(o) {
  if (o.default === true) return t("on");
  if (o.default === false) return t("off");
  if (o.default === "random") return t("at random");
  if (o.name === "first_player" && /^\d+$/.test(String(o.default))) return t("Seat {n}", { n: number(Number(o.default) + 1) });
  if (o.choices?.length) return name(o.name, String(o.default));
  return typeof o.default === "number" ? number(o.default) : String(o.default);
}

/** An option's meaning; the first player's is written for the terminal, which counts from 0. */
function meaning(o) {
  return o.name === "first_player" ? t("Who moves first: seat 1 is the player the rulebook says starts; at random, the game's seed draws it.") : o.doc;
}
