// The lobby: choose a game, who sits where (you, a friend by link, a bot), and start it;
// below, the games this browser knows, with whose turn it is in each.

import { el, add, fill, toast, myRooms, rememberRoom, forgetRoom } from "./util.js";
import { api } from "./net.js";
import { t, tn, name, number, dateTime } from "./i18n.js";
import { botLabel, seatName } from "./names.js";
import { chosenClock, clockField } from "./clockpick.js";
import { timeLeftText } from "./clock.js";

export function botDescription(agent, level) {
  if (agent === "random") return t("Plays any legal move at random: for trying out the rules.");
  if (agent === "greedy") return t("Takes the move that looks best right now, without looking further ahead. Quick and fair.");
  if (agent === "child") return t("Forgets much of what it has seen, like a young player: a gentle opponent in the memory game.");
  if (agent === "mcts") {
    if (level === "easy") return t("Looks a few moves ahead, briefly: beatable with a little care.");
    if (level === "medium") return t("Thinks about a second before each move: a good match for a regular player.");
    if (level === "hard") return t("Searches thousands of possible futures: the strongest bot, it takes up to two seconds a move.");
  }
  return "";
}

/** The opponent a new game offers first: the game's own choice (the server marks it). */
function defaultBot(g) {
  const b = g.bots.find((x) => x.default) || g.bots[0];
  if (!b) return "open";
  return b.levels.length ? `bot:${b.agent}:${b.levels[0]}` : `bot:${b.agent}`;
}

function playersLabel(g) {
  if (g.min_players === g.max_players) return tn("{n} player", "{n} players", g.min_players);
  return t("{min}–{max} players", { min: number(g.min_players), max: number(g.max_players) });
}

export async function lobbyPage(main, games) {
  const chooser = el("div", { class: "game-choices" });
  const form = el("section", { class: "panel create", id: "create-form", "aria-live": "polite" });
  add(main,
    el("section", { class: "hero" },
      el("h1", {}, t("Four games called Pyramids")),
      el("p", { class: "muted" }, t("Play alone, against bots, on one screen with friends (hot-seat), or online by sharing a seat link."))),
    chooser, form,
    el("section", { class: "panel" }, el("h2", {}, t("Your games")), joinForm(), myGamesList(games)));
  const select = (g, scroll) => {
    for (const b of chooser.querySelectorAll(".game-choice")) b.setAttribute("aria-pressed", String(b.dataset.game === g.id));
    createForm(form, g);
    if (scroll) form.scrollIntoView({ behavior: "smooth", block: "start" });
  };
  for (const g of games) {
    add(chooser, el("button", {
      class: "game-choice", "data-game": g.id, "aria-pressed": "false",
      onclick: () => select(g, true),
    }, el("img", { class: "game-picture", src: `/static/img/${encodeURIComponent(g.id)}.svg`, alt: "", width: 120, height: 80, onerror: (e) => e.target.remove() }),
    el("strong", {}, g.title), el("span", { class: "muted" }, playersLabel(g)), el("span", {}, g.summary)));
  }
  select(games[0], false);
}

function seatRow(g, i) {
  const kind = el("select", { "aria-label": t("Who plays seat {n}", { n: number(i + 1) }), "data-seat": i });
  add(kind, el("option", { value: "you" }, t("You (this screen)")));
  if (g.max_players > 1) {
    add(kind, el("option", { value: "open" }, t("A friend (send a link)")));
    for (const b of g.bots) {
      if (b.levels.length) for (const lv of b.levels) add(kind, el("option", { value: `bot:${b.agent}:${lv}` }, botLabel(b.agent, lv)));
      else add(kind, el("option", { value: `bot:${b.agent}` }, botLabel(b.agent)));
    }
  }
  if (i > 0) kind.value = defaultBot(g);
  const about = el("small", { class: "muted seat-about" });
  const describe = () => {
    const [k, agent, level] = kind.value.split(":");
    about.textContent = k === "bot" ? botDescription(agent, level) : "";
  };
  kind.addEventListener("change", describe);
  describe();
  const name = el("input", { type: "text", maxlength: 40, placeholder: t("Player {n}", { n: number(i + 1) }), "aria-label": t("Name for seat {n}", { n: number(i + 1) }) });
  return el("div", { class: "seat-row" }, el("span", { class: "seat-no", "aria-hidden": "true" }, number(i + 1)), kind, name, about);
}

function optionInput(g, o, players) {
  const id = `opt-${o.name}`;
  let input;
  if (o.kind === "bool") {
    input = el("input", { type: "checkbox", id, checked: o.default === true });
  } else if (o.choices.length || o.also.length) {
    input = el("select", { id });
    const values = o.choices.length ? o.choices : [...Array(players).keys()].map(String).concat(o.also);
    for (const v of values) {
      let label = v;
      if (o.name === "first_player" && /^\d+$/.test(v)) label = t("Seat {n}", { n: number(Number(v) + 1) });
      else if (v === "random") label = t("at random");
      else if (o.choices.length) label = name(o.name, v); // e.g. a layout, by its name in the language
      add(input, el("option", { value: v, selected: String(o.default) === v }, label));
    }
  } else if (o.kind === "int") {
    input = el("input", { type: "number", id, value: o.default, min: o.minimum ?? undefined, max: o.maximum ?? undefined });
  } else {
    input = el("input", { type: "text", id, value: o.default });
  }
  input.dataset.option = o.name;
  input.dataset.kind = o.kind;
  // the option's help is written for the terminal, which counts seats from 0; the menu says "Seat 1"
  const help = o.name === "first_player" ? t("Who moves first: seat 1 is the player the rulebook says starts; at random, the game's seed draws it.") : o.doc;
  const doc = el("small", { class: "muted", id: `${id}-doc` }, help);
  input.setAttribute("aria-describedby", `${id}-doc`);
  return el("div", { class: "option" }, el("label", { for: id }, o.label || o.name), input, doc);
}

function createForm(box, g) {
  fill(box);
  const counts = [];
  for (let n = g.min_players; n <= g.max_players; n++) counts.push(n);
  const count = el("select", { id: "players" }, counts.map((n) => el("option", { value: n }, number(n))));
  if (counts.includes(2)) count.value = "2";
  const seats = el("div", { class: "seats" });
  const options = el("div", { class: "options" });
  const deal = el("input", { type: "number", id: "deal", min: 0, placeholder: t("random") });
  const drawSeats = () => {
    const n = Number(count.value);
    fill(seats, ...[...Array(n).keys()].map((i) => seatRow(g, i)));
    fill(options, ...g.options.map((o) => optionInput(g, o, n)));
  };
  count.addEventListener("change", drawSeats);
  drawSeats();
  const go = el("button", { class: "primary", id: "create" }, t("Start the game"));
  go.addEventListener("click", async () => {
    go.disabled = true;
    try { await createGame(g, seats, options, deal.value); } finally { go.disabled = false; }
  });
  const table = g.max_players > 1 ? el("details", { class: "table-options" }, el("summary", {}, t("Table options")),
    clockField(g),
    el("label", { class: "check" }, el("input", { type: "checkbox", id: "spectator-chat" }), " ", t("Spectators may read the chat")),
    el("label", { class: "check" }, el("input", { type: "checkbox", id: "practice-room" }), " ",
      t("Practice room: choose the deal (every player is told; for analysis, not for fair play)")),
    el("label", { class: "inline", for: "deal" }, t("Deal number"), " ", deal)) : null;
  add(box,
    el("h2", {}, t("New game of {game}", { game: g.title }), " ", el("a", { class: "small", href: `#/rules/${g.id}` }, t("rules"))),
    counts.length > 1 ? el("label", { class: "inline", for: "players" }, t("Players"), " ", count) : null,
    el("h3", {}, t("Seats")), seats,
    g.max_players === 1 ? el("label", { class: "inline", for: "deal" }, t("Deal number"), " ", deal) : null,
    g.options.length ? el("details", {}, el("summary", {}, t("Variant options")), options) : null,
    table,
    go);
}

async function createGame(g, seatsBox, optionsBox, dealText) {
  const seats = [];
  const mine = [];
  for (const row of seatsBox.children) {
    const choice = row.querySelector("select").value;
    const typed = row.querySelector("input").value.trim();
    const i = seats.length;
    // a seat left unnamed gets the server's default name, which every reader sees in
    // their own language (names.js), not in this creator's
    const seat = { kind: "human" };
    if (typed) seat.name = typed;
    if (choice.startsWith("bot:")) {
      const [, agent, level] = choice.split(":");
      Object.assign(seat, { kind: "bot", agent });
      if (level) seat.level = level;
    }
    mine.push(choice === "you");
    seats.push(seat);
  }
  const variant = {};
  for (const input of optionsBox.querySelectorAll("[data-option]")) {
    const o = g.options.find((x) => x.name === input.dataset.option);
    let value = input.type === "checkbox" ? input.checked : input.value;
    if (o.kind === "int" && /^\d+$/.test(String(value))) value = Number(value);
    if (String(value) !== String(o.default)) variant[o.name] = value;
  }
  const body = { game: g.id, seats, variant };
  const clock = chosenClock();
  if (clock) body.clock = clock;
  if (g.max_players === 1) body.seed = dealText !== "" ? Number(dealText) : Math.floor(Math.random() * 1000000);
  else {
    if (document.getElementById("spectator-chat")?.checked) body.spectator_chat = true;
    if (document.getElementById("practice-room")?.checked) {
      body.practice = true;
      if (dealText !== "") body.seed = Number(dealText);
    }
  }
  try {
    const room = await api("/api/rooms", { method: "POST", body });
    openCreated(room, g, mine);
  } catch (e) {
    toast(e.message, "error");
  }
}

/** Remember a new room's tokens (seats on this screen) and links (seats for friends), open it. */
export function openCreated(room, g, mine) {
  const tokens = {};
  const links = {};
  room.seats.forEach((s, i) => {
    if (s.token && mine[i]) tokens[i] = s.token;
    else if (s.token) links[i] = location.origin + s.link;
  });
  rememberRoom(room.room, { game: g.id, title: g.title, tokens, links, spectator: location.origin + room.spectator_link, created: Date.now() });
  location.hash = `#/room/${room.room}`;
}

/** Paste a seat link (or a spectator link, or a bare game id) to open that game. */
function joinForm() {
  const input = el("input", { type: "text", id: "join", placeholder: t("Paste a game link or id"), "aria-label": t("Game link or id") });
  const go = () => {
    const text = input.value.trim();
    const hash = text.includes("#/") ? text.slice(text.indexOf("#/")) : /^[\w-]+$/.test(text) ? `#/room/${text}` : null;
    if (hash) location.hash = hash;
    else toast(t("That is not a game link: it looks like http://host/#/room/…"), "error");
  };
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
  return el("p", { class: "join" }, input, " ", el("button", { onclick: go }, t("Join")));
}

function myGamesList(games) {
  const rooms = Object.entries(myRooms()).sort((a, b) => (b[1].created || 0) - (a[1].created || 0));
  if (!rooms.length) return el("p", { class: "muted", id: "no-games" }, t("None yet. Games you create or join appear here."));
  const ul = el("ul", { class: "my-games" });
  for (const [id, info] of rooms.slice(0, 30)) {
    const title = games.find((g) => g.id === info.game)?.title || info.title || info.game;
    const status = el("span", { class: "game-status muted" }, "…");
    const actions = el("span", { class: "game-actions" });
    const when = info.created ? el("time", { class: "muted small", datetime: new Date(info.created).toISOString() }, dateTime(info.created)) : null;
    const li = el("li", { "data-room": id }, el("a", { class: "game-link", href: `#/room/${id}` }, title), when, status, actions);
    add(actions, el("button", { class: "link", "aria-label": t("Forget this game"), onclick: () => { forgetRoom(id); li.remove(); } }, t("forget")));
    add(ul, li);
    api(`/api/rooms/${id}`).then((s) => {
      const mine = Object.keys(info.tokens || {}).map(Number);
      if (s.over) {
        status.textContent = t("finished: scores {scores}", { scores: s.scores.map((x) => number(x)).join(" / ") });
        actions.prepend(el("a", { href: `#/replay/${id}`, class: "small" }, t("replay")));
      } else if (mine.includes(s.current_player)) {
        status.textContent = t("your turn (move {n})", { n: number(s.version + 1) }) + timeLeftText(s);
        li.classList.add("your-turn");
        ul.prepend(li); // the games where it is your turn come first
      } else {
        status.textContent = t("{player} to play (move {n})", { player: s.seats[s.current_player] ? seatName(s.seats[s.current_player], s.current_player) : "?", n: number(s.version + 1) }) + timeLeftText(s);
      }
    }).catch(() => { status.textContent = t("no longer on this server"); });
  }
  return ul;
}
