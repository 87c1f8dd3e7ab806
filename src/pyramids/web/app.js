// The web app: a hash router over four pages (lobby, game, replay, rules) and the language
// menu. Boards are ES modules under boards/, loaded by game id; unknown games use the
// generic board.

import { el, add, fill } from "./util.js";
import { api } from "./net.js";
import { t, LANGUAGES, lang, loadLanguage, preferredLanguage, rememberLanguage } from "./i18n.js";
import { lobbyPage } from "./lobby.js";
import { gamePage } from "./game.js";
import { replayPage } from "./replay.js";
import { rulesPage } from "./rules.js";

/**
 * A game's board module: the one the server names for it (boards/<game>.js, with its
 * boards/<game>.css if there is one), else the generic board.
 */
async function loadBoard(gameId, info) {
  if (info?.board) {
    if (info.board_css) await addStyleSheet(`/static/boards/${info.board}.css`);
    try { return await import(`./boards/${info.board}.js`); } catch (e) { console.warn("board failed, using generic", e); }
  }
  return import("./boards/generic.js");
}

/** Link a style sheet once; resolves when it applies (so boards measure styled). */
function addStyleSheet(href) {
  if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.getAttribute("href") === href)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = el("link", { rel: "stylesheet", href });
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve); // unstyled beats blank
    document.head.append(link);
  });
}

function parseHash() {
  const raw = location.hash.replace(/^#/, "") || "/";
  const [path, query] = raw.split("?");
  return { parts: path.split("/").filter(Boolean), query: new URLSearchParams(query || "") };
}

/** The app: the games in the current language, and the page on screen (with its cleanup). */
class App {
  constructor() {
    this.games = null;
    this.cleanup = () => {};
    this.routes = 0; // which route() is the latest: an older one that finishes late steps aside
  }

  async loadGames() {
    this.games ||= await api("/api/games");
    return this.games;
  }

  drawHeader() {
    const nav = document.getElementById("nav");
    const select = el("select", { id: "lang", "aria-label": t("Language") },
      LANGUAGES.map((l) => el("option", { value: l.code, lang: l.code, selected: l.code === lang() }, l.name)));
    select.addEventListener("change", async () => {
      rememberLanguage(select.value);
      await loadLanguage(select.value);
      this.games = null;
      this.drawHeader();
      this.route();
    });
    fill(nav, el("a", { href: "#/" }, t("Lobby")), el("a", { href: "#/rules" }, t("Rules")), select);
    document.querySelector(".brand")?.setAttribute("aria-label", t("Pyramids lobby"));
  }

  async route() {
    this.cleanup();
    this.cleanup = () => {};
    document.title = "Pyramids";
    const mine = ++this.routes;
    // Each route draws into its own page: one that a newer route replaced draws on
    // unseen, and its connections are closed as soon as it is done.
    const main = el("div", { class: "page" });
    fill(document.getElementById("app"), main);
    const { parts, query } = parseHash();
    try {
      const list = await this.loadGames();
      let done = null;
      if (parts[0] === "room" && parts[1]) done = await gamePage(main, parts[1], query, list, loadBoard);
      else if (parts[0] === "replay" && parts[1]) done = await replayPage(main, parts[1], query, list, loadBoard);
      else if (parts[0] === "rules") await rulesPage(main, parts[1], list);
      else await lobbyPage(main, list);
      if (mine !== this.routes) { done?.(); return; } // the player went elsewhere meanwhile
      if (done) this.cleanup = done;
    } catch (e) {
      if (mine !== this.routes) return;
      // a way on where there is one: a game whose replay is not ready yet, or whose seat
      // link has a wrong token, can still be watched (a link without a token: a spectator)
      const code = e.error?.code;
      const watchable = (parts[0] === "replay" && code === "not-finished") || (parts[0] === "room" && code === "bad-token");
      const game = watchable ? `#/room/${encodeURIComponent(parts[1])}` : null;
      add(main, el("p", { class: "error", role: "alert" }, e.message || String(e)),
        game ? el("p", {}, el("a", { href: game, id: "watch-game" }, t("Watch this game"))) : null,
        el("p", {}, el("a", { href: "#/" }, t("Back to the lobby"))));
    }
  }

  async start() {
    try { await loadLanguage(preferredLanguage()); } catch { await loadLanguage("en").catch(() => {}); }
    this.drawHeader();
    window.addEventListener("hashchange", () => this.route());
    await this.route();
  }
}

const app = new App();
if (document.readyState === "loading") window.addEventListener("DOMContentLoaded", () => app.start());
else app.start();
