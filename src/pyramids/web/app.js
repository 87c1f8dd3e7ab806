// The web app: a hash router over four pages (lobby, game, replay, rules).
// Boards are ES modules under boards/, loaded by game id; unknown games use the generic board.

import { el, add, fill, toast, myRooms, rememberRoom, forgetRoom, markdown, pretty } from "./util.js";
import { api, SeatConnection } from "./net.js";

const BOARD_MODULES = {
  "piramides": "./boards/piramides.js",
  "pyramideto": "./boards/pyramideto.js",
  "pyramido": "./boards/pyramido.js",
  "pyramido-treasure": "./boards/treasure.js",
};

let games = null; // list from /api/games
let cleanup = () => {};

async function loadGames() {
  if (!games) games = await api("/api/games");
  return games;
}

async function loadBoard(gameId) {
  const path = BOARD_MODULES[gameId];
  if (path) {
    try { return await import(path); } catch (e) { console.warn("board failed, using generic", e); }
  }
  return import("./boards/generic.js");
}

function parseHash() {
  const raw = location.hash.replace(/^#/, "") || "/";
  const [path, query] = raw.split("?");
  return { parts: path.split("/").filter(Boolean), query: new URLSearchParams(query || "") };
}

async function route() {
  cleanup();
  cleanup = () => {};
  document.title = "Pyramids";
  const main = document.getElementById("app");
  const { parts, query } = parseHash();
  fill(main);
  try {
    if (parts[0] === "room" && parts[1]) await gamePage(main, parts[1], query);
    else if (parts[0] === "replay" && parts[1]) await replayPage(main, parts[1], query);
    else if (parts[0] === "rules") await rulesPage(main, parts[1]);
    else await lobbyPage(main);
  } catch (e) {
    add(main, el("p", { class: "error" }, e.message || String(e)), el("p", {}, el("a", { href: "#/" }, "Back to the lobby")));
  }
}

window.addEventListener("hashchange", route);
window.addEventListener("DOMContentLoaded", route);

// -- lobby -------------------------------------------------------------------------

async function lobbyPage(main) {
  const list = await loadGames();
  const chooser = el("div", { class: "game-choices", role: "list" });
  const form = el("section", { class: "panel create", "aria-live": "polite" });
  add(main, 
    el("section", { class: "hero" },
      el("h1", {}, "Four games called Pyramids"),
      el("p", { class: "muted" }, "Play alone, against bots, on one screen with friends (hot-seat), or online by sharing a seat link.")),
    chooser, form, el("section", { class: "panel" }, el("h2", {}, "Your games"), joinForm(), myGamesList()),
  );
  const select = (g) => {
    for (const b of chooser.children) b.setAttribute("aria-pressed", String(b.dataset.game === g.id));
    createForm(form, g);
  };
  for (const g of list) {
    const players = g.min_players === g.max_players ? `${g.min_players} player` : `${g.min_players}–${g.max_players} players`;
    add(chooser, el("button", {
      class: "game-choice", role: "listitem", "data-game": g.id, "aria-pressed": "false",
      onclick: () => select(g),
    }, el("strong", {}, g.title), el("span", { class: "muted" }, players), el("span", {}, g.summary)));
  }
  select(list[0]);
}

function seatRow(g, i, n) {
  const kind = el("select", { "aria-label": `Seat ${i + 1}`, "data-seat": i });
  add(kind, el("option", { value: "you" }, "You (this screen)"));
  if (g.max_players > 1) add(kind, el("option", { value: "open" }, "Friend (send a link)"));
  for (const b of g.bots) {
    if (b.levels.length) for (const lv of b.levels) add(kind, el("option", { value: `bot:${b.agent}:${lv}` }, `Bot: ${b.agent} (${lv})`));
    else add(kind, el("option", { value: `bot:${b.agent}` }, `Bot: ${b.agent}`));
  }
  if (i > 0) {
    const preferred = [...kind.options].find((o) => o.value.startsWith("bot:greedy")) || [...kind.options].find((o) => o.value.startsWith("bot:"));
    if (preferred) kind.value = preferred.value;
  }
  const name = el("input", { type: "text", maxlength: 40, placeholder: `Player ${i + 1}`, "aria-label": `Name of seat ${i + 1}` });
  return el("div", { class: "seat-row" }, el("span", { class: "seat-no" }, `${i + 1}`), kind, name);
}

function optionInput(o, players) {
  const id = `opt-${o.name}`;
  let input;
  if (o.kind === "bool") {
    input = el("input", { type: "checkbox", id, checked: o.default === true });
  } else if (o.choices.length || o.also.length) {
    input = el("select", { id });
    const values = o.choices.length ? o.choices : [...Array(players).keys()].map(String).concat(o.also);
    for (const v of values) add(input, el("option", { value: v, selected: String(o.default) === v }, o.name === "first_player" && /^\d+$/.test(v) ? `Seat ${Number(v) + 1}` : v));
  } else if (o.kind === "int") {
    input = el("input", { type: "number", id, value: o.default, min: o.minimum ?? undefined, max: o.maximum ?? undefined });
  } else {
    input = el("input", { type: "text", id, value: o.default });
  }
  input.dataset.option = o.name;
  input.dataset.kind = o.kind;
  return el("label", { class: "option", for: id, title: o.doc }, el("span", {}, pretty(o.name)), input, el("small", { class: "muted" }, o.doc));
}

function createForm(box, g) {
  fill(box);
  const counts = [];
  for (let n = g.min_players; n <= g.max_players; n++) counts.push(n);
  const count = el("select", { id: "players", "aria-label": "Number of players" }, counts.map((n) => el("option", { value: n }, `${n}`)));
  if (counts.includes(2)) count.value = "2";
  const seats = el("div", { class: "seats" });
  const options = el("div", { class: "options" });
  const deal = el("input", { type: "number", id: "deal", min: 0, placeholder: "random", "aria-label": "Deal number" });
  const drawSeats = () => {
    const n = Number(count.value);
    fill(seats, ...[...Array(n).keys()].map((i) => seatRow(g, i, n)));
    fill(options, ...g.options.map((o) => optionInput(o, n)));
  };
  count.addEventListener("change", drawSeats);
  drawSeats();
  const go = el("button", { class: "primary", id: "create" }, "Start the game");
  go.addEventListener("click", async () => {
    go.disabled = true;
    try { await createGame(g, seats, options, deal.value); } finally { go.disabled = false; }
  });
  add(box, 
    el("h2", {}, `New game of ${g.title}`, " ", el("a", { class: "small", href: `#/rules/${g.id}` }, "rules")),
    counts.length > 1 ? el("label", { class: "inline" }, "Players ", count) : null,
    el("h3", {}, "Seats"), seats,
    g.max_players === 1 ? el("label", { class: "inline" }, "Deal number ", deal) : null,
    g.options.length ? el("details", {}, el("summary", {}, "Variant options"), options) : null,
    go,
  );
}

async function createGame(g, seatsBox, optionsBox, dealText) {
  const seats = [];
  const mine = [];
  for (const row of seatsBox.children) {
    const [choice, name] = [row.querySelector("select").value, row.querySelector("input").value.trim()];
    const seat = { kind: "human" };
    if (name) seat.name = name;
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
  if (g.max_players === 1) body.seed = dealText !== "" ? Number(dealText) : Math.floor(Math.random() * 1000000);
  try {
    const room = await api("/api/rooms", { method: "POST", body });
    const tokens = {};
    const links = {};
    room.seats.forEach((s, i) => {
      if (s.token && mine[i]) tokens[i] = s.token;
      else if (s.token) links[i] = location.origin + s.link;
    });
    rememberRoom(room.room, { game: g.id, title: g.title, tokens, links, created: Date.now() });
    location.hash = `#/room/${room.room}`;
  } catch (e) {
    toast(e.message, "error");
  }
}

/** Paste a seat link (or a spectator link, or a bare game id) to open that game. */
function joinForm() {
  const input = el("input", { type: "text", id: "join", placeholder: "Paste a game link or id", "aria-label": "Game link or id" });
  const go = () => {
    const text = input.value.trim();
    const hash = text.includes("#/") ? text.slice(text.indexOf("#/")) : /^[\w-]+$/.test(text) ? `#/room/${text}` : null;
    if (hash) location.hash = hash;
    else toast("That is not a game link: it looks like http://host/#/room/…", "error");
  };
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
  return el("p", { class: "join" }, input, " ", el("button", { onclick: go }, "Join"));
}

function myGamesList() {
  const rooms = Object.entries(myRooms()).sort((a, b) => (b[1].created || 0) - (a[1].created || 0));
  if (!rooms.length) return el("p", { class: "muted" }, "None yet. Games you create or join appear here.");
  const ul = el("ul", { class: "my-games" });
  for (const [id, info] of rooms.slice(0, 30)) {
    const status = el("span", { class: "muted" }, "…");
    const li = el("li", {}, el("a", { href: `#/room/${id}` }, info.title || info.game), " ", status, " ",
      el("button", { class: "link", "aria-label": "Forget this game", onclick: () => { forgetRoom(id); li.remove(); } }, "forget"));
    add(ul, li);
    api(`/api/rooms/${id}`).then((s) => {
      status.textContent = s.over ? `finished — scores ${s.scores.join(" / ")}` : `move ${s.version}, ${s.seats[s.current_player]?.name ?? ""} to play`;
      if (s.over) li.insertBefore(el("a", { href: `#/replay/${id}`, class: "small" }, "replay"), status.nextSibling);
    }).catch(() => { status.textContent = "(no longer on this server)"; });
  }
  return ul;
}

// -- game page -----------------------------------------------------------------------

async function gamePage(main, roomId, query) {
  const urlToken = query.get("token");
  if (urlToken) {
    // A seat link: learn which seat it opens, remember it, and drop the token from the address bar.
    const snap = await api(`/api/rooms/${roomId}/state?token=${encodeURIComponent(urlToken)}`);
    rememberRoom(roomId, { game: snap.game, title: snap.title, tokens: { [snap.seat]: urlToken }, created: Date.now() });
    history.replaceState(null, "", `#/room/${roomId}`);
  }
  const info = myRooms()[roomId] || { tokens: {} };
  const summary = await api(`/api/rooms/${roomId}`);
  const gameInfo = (await loadGames()).find((g) => g.id === summary.game);
  const board = await loadBoard(summary.game);
  const localSeats = Object.keys(info.tokens || {}).map(Number).sort((a, b) => a - b);
  document.title = `${summary.title} — Pyramids`;

  const boardRoot = el("div", { class: "board", id: "board" });
  const side = el("aside", { class: "side" });
  const cover = el("div", { class: "cover", hidden: true });
  add(main, el("section", { class: `game game-${summary.game}` }, el("div", { class: "board-wrap" }, boardRoot, cover), side));

  const msgs = {};
  const prevViews = {};
  let shown = localSeats.length ? localSeats[0] : null;
  let pending = null;
  let summaryShown = false;
  let lastError = null;
  let online = "connecting";
  let deal;

  const humanLocal = localSeats.filter((s) => summary.seats[s].kind === "human");
  const conns = [];

  const current = () => msgs[shown === null ? "spectator" : shown];

  function chooseSeat() {
    const any = Object.values(msgs)[0];
    if (!any) return;
    const toMove = any.view.current_player;
    if (toMove !== null && toMove !== undefined && localSeats.includes(toMove) && toMove !== shown) {
      if (humanLocal.length > 1) { pending = toMove; } else { shown = toMove; }
    }
  }

  function draw() {
    const msg = current();
    if (!msg) return;
    cover.hidden = pending === null;
    if (pending !== null) {
      const name = msg.seats[pending].name;
      fill(cover, el("div", { class: "cover-box" },
        el("h2", {}, `${name}'s turn`),
        el("p", {}, `Pass the screen to ${name}. Other players, look away.`),
        el("button", { class: "primary", id: "reveal", onclick: () => { shown = pending; pending = null; draw(); } }, `Show ${name}'s hand`)));
      fill(boardRoot, el("p", { class: "muted hidden-hand" }, "Hidden until the next player confirms."));
      drawSide(null);
      setTimeout(() => document.getElementById("reveal")?.focus(), 0);
      return;
    }
    const seat = msg.seat;
    const key = seat === null ? "spectator" : seat;
    const ctx = {
      view: msg.view,
      legal: msg.legal,
      seat,
      seats: msg.seats || summary.seats,
      prev: prevViews[key] || null,
      event: msg.event || null,
      interactive: msg.legal !== null && msg.legal !== undefined,
      move: (text) => conns.find((c) => c.seatNo === seat)?.move(text),
    };
    fill(boardRoot);
    board.render(boardRoot, ctx);
    drawSide(msg);
    if (msg.view.is_over && !summaryShown) {
      summaryShown = true;
      showSummary(main, msg, board, roomId, gameInfo, info);
    }
  }

  function drawSide(msg) {
    const m = msg || current();
    const v = m.view;
    const seats = m.seats || summary.seats;
    const rows = seats.map((s, i) => el("li", { class: [v.current_player === i ? "to-move" : "", m.seat === i ? "me" : ""].join(" ") },
      el("span", { class: "who" }, s.name, s.kind === "bot" ? el("small", { class: "muted" }, " bot") : null, m.seat === i ? el("small", { class: "muted" }, " (you)") : null),
      el("span", { class: "score" }, String(v.scores?.[i] ?? "")),
      v.ranking ? el("span", { class: "rank" }, `#${v.ranking[i]}`) : null));
    let turn;
    if (v.is_over) turn = "Game over";
    else if (v.current_player === m.seat && m.seat !== null) turn = "Your move";
    else turn = `${seats[v.current_player]?.name ?? "?"} to move`;
    const buttons = el("div", { class: "buttons" });
    const conn = conns.find((c) => c.seatNo === m.seat);
    if (gameInfo?.undo && m.seat !== null) {
      add(buttons, el("button", { id: "undo", disabled: !m.can_undo, title: "Take back your last move (U)", onclick: () => conn?.undo() }, "Undo"));
    }
    if (gameInfo?.hint && m.seat !== null && !v.is_over) {
      add(buttons, el("button", { id: "hint", onclick: async () => {
        try { const h = await api(`/api/rooms/${roomId}/hint?token=${encodeURIComponent(info.tokens[m.seat])}`); toast(h.chance !== null && h.chance !== undefined ? `Hint: ${h.move} (clears the round in ${Math.round(100 * h.chance)}% of ${h.samples} sampled deals)` : `Hint: ${h.move}`); } catch (e) { toast(e.message, "error"); }
      } }, "Hint"));
    }
    if (gameInfo && gameInfo.max_players === 1) {
      add(buttons, el("button", { id: "new-deal", onclick: () => newDeal(gameInfo, v) }, "New deal"));
    }
    if (v.is_over) add(buttons, el("a", { class: "button", href: `#/replay/${roomId}` }, "Replay"));
    add(buttons, el("a", { class: "button", href: `#/rules/${summary.game}`, target: "_blank" }, "Rules"));
    const links = Object.entries(info.links || {});
    fill(side, 
      el("h2", {}, summary.title),
      deal !== undefined ? el("p", { class: "deal", id: "deal-no" }, `Deal #${deal}`) : null,
      el("p", { class: "turn", id: "turn", "aria-live": "polite" }, turn),
      board.status ? el("p", { class: "status" }, board.status(v)) : null,
      el("ol", { class: "players" }, rows),
      lastError ? el("p", { class: "error", id: "last-error", role: "alert" }, lastError) : null,
      buttons,
      links.length && !v.is_over ? el("details", { class: "invite" }, el("summary", {}, "Invite links"),
        ...links.map(([seat, link]) => el("p", {}, `${seats[seat].name}: `, el("input", { readonly: true, value: link, onclick: (e) => e.target.select() })))) : null,
      m.legal && m.legal.length ? movesList(m.legal, (t) => conn?.move(t)) : null,
      el("p", { class: "muted small", id: "conn", "data-version": m.version }, `version ${m.version} · ${online}${m.seat === null ? " · watching" : ""}`),
    );
  }

  const open = (seatNo, token) => {
    const key = seatNo === null ? "spectator" : seatNo;
    const c = new SeatConnection(roomId, token, {
      onState: (msg) => {
        if (msg.seat === undefined) msg.seat = seatNo; // events do not repeat the seat
        if (!msg.seats) msg.seats = msgs[key] ? msgs[key].seats : summary.seats; // nor the seats
        if (msg.deal !== undefined) deal = msg.deal;
        if (msgs[key] && msgs[key].version !== msg.version) prevViews[key] = msgs[key].view;
        msgs[key] = msg;
        if (msg.reply_to !== undefined) lastError = null;
        chooseSeat();
        draw();
      },
      onError: (err) => {
        lastError = err.reason;
        toast(err.reason, "error");
        if (!current()) {
          // nothing to show yet (a wrong link, a game this server does not have)
          fill(boardRoot, el("p", { class: "error", id: "last-error", role: "alert" }, err.reason),
            el("p", {}, el("a", { href: "#/" }, "Back to the lobby")));
          return;
        }
        draw();
      },
      onStatus: (s) => { online = s; if (current()) drawSide(null); },
    });
    c.seatNo = seatNo;
    conns.push(c);
  };
  if (localSeats.length) for (const s of localSeats) open(s, info.tokens[s]);
  else open(null, null);

  const keys = (e) => {
    if (e.target.matches("input, select, textarea")) return;
    if (e.key === "u" && gameInfo?.undo) conns[0]?.undo();
  };
  document.addEventListener("keydown", keys);
  cleanup = () => { for (const c of conns) c.close(); document.removeEventListener("keydown", keys); };
}

function movesList(legal, play) {
  const box = el("details", { class: "moves", open: legal.length <= 12 });
  add(box, el("summary", {}, `All legal moves (${legal.length})`));
  const wrap = el("div", { class: "move-buttons" });
  for (const t of legal) add(wrap, el("button", { class: "move", "data-move": t, onclick: () => play(t) }, t));
  add(box, wrap);
  return box;
}

async function newDeal(g, view) {
  const variant = {};
  for (const o of g.options) if (view.variant && view.variant[o.name] !== o.default) variant[o.name] = view.variant[o.name];
  const seed = Math.floor(Math.random() * 1000000);
  try {
    const room = await api("/api/rooms", { method: "POST", body: { game: g.id, seats: [{ kind: "human" }], variant, seed } });
    rememberRoom(room.room, { game: g.id, title: g.title, tokens: { 0: room.seats[0].token }, created: Date.now() });
    location.hash = `#/room/${room.room}`;
  } catch (e) { toast(e.message, "error"); }
}

function showSummary(main, msg, board, roomId, gameInfo, info) {
  const v = msg.view;
  const seats = msg.seats;
  const order = seats.map((s, i) => i).sort((a, b) => v.ranking[a] - v.ranking[b]);
  const dialog = el("dialog", { class: "summary", id: "summary" },
    el("h2", {}, v.ranking.filter((r) => r === 1).length > 1 ? "Shared win" : (seats.length === 1 ? "Game over" : `${seats[order[0]].name} wins`)),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Place"), el("th", {}, "Player"), el("th", {}, "Score"))),
      el("tbody", {}, order.map((i) => el("tr", {}, el("td", {}, `${v.ranking[i]}`), el("td", {}, seats[i].name), el("td", {}, `${v.scores[i]}`))))),
    board.summary ? board.summary(v) : null,
    el("div", { class: "buttons" },
      el("a", { class: "button", href: `#/replay/${roomId}` }, "Replay this game"),
      gameInfo && gameInfo.max_players === 1 ? el("button", { onclick: () => newDeal(gameInfo, v) }, "New deal") : el("a", { class: "button", href: "#/" }, "Lobby"),
      el("button", { class: "primary", onclick: () => dialog.close() }, "Close")));
  add(main, dialog);
  dialog.showModal();
}

// -- replay page --------------------------------------------------------------------------

async function replayPage(main, roomId, query) {
  const seatParam = query.get("seat");
  const seatQ = seatParam !== null ? `seat=${seatParam}&` : "";
  const data = await api(`/api/rooms/${roomId}/replay?${seatQ}`);
  const board = await loadBoard(data.game);
  const total = data.moves.length;
  const views = new Map([[data.ply, data.view]]);
  const fetchView = async (k) => {
    if (!views.has(k)) views.set(k, (await api(`/api/rooms/${roomId}/replay?${seatQ}ply=${k}`)).view);
    return views.get(k);
  };
  let i = total;
  let shownAt = -1;
  const root = el("div", { class: "board", id: "board" });
  const label = el("span", { id: "replay-pos" });
  const slider = el("input", { type: "range", min: 0, max: total, value: i, "aria-label": "Position in the game" });
  const seatSel = el("select", { "aria-label": "Whose view" }, el("option", { value: "" }, "Public view"),
    data.seats.map((s) => el("option", { value: s.seat, selected: String(s.seat) === seatParam }, `${s.name}'s view`)));
  seatSel.addEventListener("change", () => { location.hash = `#/replay/${roomId}${seatSel.value !== "" ? `?seat=${seatSel.value}` : ""}`; });
  const show = async () => {
    i = Math.max(0, Math.min(total, i));
    const k = i;
    const [view, prev] = await Promise.all([fetchView(k), k > 0 ? fetchView(k - 1) : null]);
    if (k !== i || k === shownAt) return; // a later step won the race
    shownAt = k;
    slider.value = k;
    label.textContent = k === 0 ? `start (0/${total})` : `move ${k}/${total}: ${data.moves[k - 1]}`;
    fill(root);
    board.render(root, { view, legal: null, seat: data.seat, seats: data.seats, prev, interactive: false, move: () => {} });
  };
  slider.addEventListener("input", () => { i = Number(slider.value); show(); });
  const step = (d) => () => { i += d; show(); };
  const keys = (e) => { if (e.key === "ArrowLeft") step(-1)(); if (e.key === "ArrowRight") step(1)(); };
  document.addEventListener("keydown", keys);
  cleanup = () => document.removeEventListener("keydown", keys);
  add(main, el("section", { class: "replay" },
    el("h2", {}, `Replay: ${data.title}`, " ", el("small", { class: "muted" }, `seed ${data.seed}`)),
    el("div", { class: "replay-controls" },
      el("button", { onclick: () => { i = 0; show(); }, "aria-label": "First position" }, "⏮"),
      el("button", { id: "prev", onclick: step(-1), "aria-label": "Previous move" }, "◀"),
      slider,
      el("button", { id: "next", onclick: step(1), "aria-label": "Next move" }, "▶"),
      el("button", { onclick: () => { i = total; show(); }, "aria-label": "Last position" }, "⏭"),
      seatSel, label),
    root,
    el("p", {}, el("a", { href: `/api/rooms/${roomId}/record`, download: `${data.game}-${roomId}.json` }, "Download the record (JSON)"))));
  await show();
}

// -- rules pages --------------------------------------------------------------------------

async function rulesPage(main, gameId) {
  const list = await loadGames();
  if (!gameId) {
    add(main, el("section", { class: "panel" }, el("h1", {}, "Rules"),
      el("ul", {}, list.map((g) => el("li", {}, el("a", { href: `#/rules/${g.id}` }, g.title), ` — ${g.summary}`)))));
    return;
  }
  const data = await api(`/api/games/${encodeURIComponent(gameId)}/rules`);
  const g = data.game;
  const body = el("article", { class: "panel rules" });
  if (data.markdown) body.innerHTML = markdown(data.markdown);
  else add(body, el("h1", {}, g.title), el("p", {}, g.summary));
  const opts = el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Option"), el("th", {}, "Default"), el("th", {}, "Meaning"))),
    el("tbody", {}, g.options.map((o) => el("tr", {}, el("td", {}, el("code", {}, o.name)), el("td", {}, String(o.default)), el("td", {}, o.doc)))));
  add(main, el("p", {}, el("a", { href: "#/rules" }, "All rules"), " · ", el("a", { href: "#/" }, "Lobby")), body,
    g.options.length ? el("section", { class: "panel" }, el("h2", {}, "Variant options"), opts) : null);
}
