// The game screen: one object owns everything shown about a room (the connections of the
// seats on this screen, the views they got, the news log, the selection on the board) and
// draws the board and the side panel from it.

import { el, add, fill, fitLabels, toast, myRooms, rememberRoom, forgetRoom } from "./util.js";
import { api, SeatConnection } from "./net.js";
import { ClockPanel, ConnectionBanner } from "./clock.js";
import { shareButton } from "./share.js";
import { PresencePanel } from "./presence.js";
import { ChatBadge } from "./chatbadge.js";
import { notifyButton, notifyTurn } from "./notify.js";
import { t, number, ordinal, percent } from "./i18n.js";
import { BoardKeys } from "./focus.js";
import { ask } from "./dialogs.js";
import { icon } from "./icons.js";
import { openCreated } from "./lobby.js";
import { rememberCommitment } from "./fair.js";

/** How long another player's move stays on screen before the next one is shown (ms). */
const PACE = 650;
const NEWS_LIMIT = 40;
const SOUND_KEY = "pyramids.sound";

export class GameScreen {
  constructor(main, { roomId, summary, gameInfo, board, info }) {
    this.main = main;
    this.roomId = roomId;
    this.summary = summary;
    this.gameInfo = gameInfo;
    this.board = board;
    this.info = info;
    this.localSeats = Object.keys(info.tokens || {}).map(Number).sort((a, b) => a - b);
    this.humanLocal = this.localSeats.filter((s) => summary.seats[s]?.kind === "human");
    this.msgs = {};
    this.prevViews = {};
    this.queues = {};
    this.busy = {};
    this.ui = {};
    this.news = [];
    this.chat = new Map(); // seq -> line, from any of this screen's connections
    this.highlight = new Set();
    this.shown = this.localSeats.length ? this.localSeats[0] : null;
    this.pending = null;
    this.summaryShown = false;
    this.lastError = null;
    this.online = "connecting";
    this.deal = undefined;
    this.wasMyTurn = false;
    this.conns = [];
    this.timers = new Set();

    this.turnLine = el("p", { class: "turn", id: "turn", "aria-live": "polite" });
    this.statusLine = el("p", { class: "status", id: "status" });
    this.boardRoot = el("div", { class: "board", id: "board" });
    this.sideMain = el("div", { class: "side-main" });
    this.chatSection = el("section", { class: "chat", "aria-label": t("Chat"), hidden: true });
    this.side = el("aside", { class: "side", "aria-label": t("Game information") }, this.sideMain, this.chatSection);
    this.newsBox = el("ol", { class: "news-log", id: "news", "aria-live": "polite", "aria-label": t("What happened") });
    this.cover = el("div", { class: "cover", hidden: true });
    this.chatBadge = new ChatBadge(this.chatSection);
    this.clocks = new ClockPanel();
    this.banner = new ConnectionBanner(this.boardRoot);
    this.presence = new PresencePanel((lines) => { this.tell(lines); if (this.current()) this.drawSide(); });
    add(main, el("section", { class: `game game-${summary.game}` },
      el("div", { class: "turn-bar" }, this.turnLine, this.statusLine, this.clocks.root, this.presence.root, this.banner.root),
      el("div", { class: "board-wrap" }, this.boardRoot, this.cover),
      this.side, this.chatBadge.root));
    this.keys = new BoardKeys(this.boardRoot, {
      onEscape: () => { if (this.board.cancel?.(this.ctx())) this.draw(); },
    });
    this.boardRoot.addEventListener("click", () => this.clickedOutOfTurn());
    this.keydown = (e) => {
      if (e.target.matches("input, select, textarea")) return;
      if (e.key === "u" && this.gameInfo?.undo) this.undo();
    };
    document.addEventListener("keydown", this.keydown);
    if (this.localSeats.length) for (const s of this.localSeats) this.open(s, info.tokens[s]);
    else this.open(null, null);
  }

  close() {
    for (const c of this.conns) c.close();
    for (const id of this.timers) clearTimeout(id);
    this.clocks.close();
    this.presence.close();
    this.chatBadge.close();
    this.keys.close();
    document.removeEventListener("keydown", this.keydown);
  }

  key(seat) { return seat === null ? "spectator" : seat; }
  current() { return this.msgs[this.key(this.shown)]; }
  conn(seat) { return this.conns.find((c) => c.seatNo === seat); }

  // -- connections and the pace of other players' moves -------------------------------

  open(seatNo, token) {
    const key = this.key(seatNo);
    this.queues[key] = [];
    const c = new SeatConnection(this.roomId, token, {
      onState: (msg) => {
        if (msg.seat === undefined) msg.seat = seatNo; // events do not repeat the seat
        this.queues[key].push(msg);
        this.pump(key);
      },
      onError: (err) => this.showError(err),
      onStatus: (s, code) => {
        this.banner.status(s, code);
        if (s === "online") this.presence.say(c);
        if (s === "synced") return;
        this.online = s;
        if (this.current()) this.drawSide();
      },
      onRematch: (room) => this.offerRematch(room),
      onChat: (lines, whole) => this.gotChat(lines, whole),
      onPresence: (states) => this.presence.update(states, this.current()?.seats || this.summary.seats),
    });
    c.seatNo = seatNo;
    this.conns.push(c);
  }

  pump(key) {
    if (this.busy[key]) return;
    const msg = this.queues[key].shift();
    if (!msg) return;
    this.apply(key, msg);
    const other = msg.type === "event" && msg.event && !this.localSeats.includes(msg.event.seat);
    if (other && this.queues[key].length) {
      this.busy[key] = true;
      const id = setTimeout(() => { this.timers.delete(id); this.busy[key] = false; this.pump(key); }, PACE);
      this.timers.add(id);
    } else {
      this.pump(key);
    }
  }

  apply(key, msg) {
    const old = this.msgs[key];
    if (!msg.seats) msg.seats = old ? old.seats : this.summary.seats; // events do not repeat them
    if (msg.deal !== undefined) this.deal = msg.deal;
    if (old && old.version !== msg.version) {
      this.prevViews[key] = old.view;
      this.highlight.clear();
      if (key === this.key(this.shown) || this.shown === null) this.tell(this.board.explain?.(msg.view, old.view) || []);
    }
    msg.lastMover = msg.event ? msg.event.seat : old?.lastMover ?? null;
    this.msgs[key] = msg;
    this.banner.synced();
    this.clocks.update(msg, msg.seats);
    if (msg.reply_to !== undefined) this.lastError = null;
    this.chooseSeat();
    this.draw();
  }

  gotChat(lines, whole) {
    if (whole) this.chat.clear();
    else this.chatBadge.add(lines.filter((l) => !this.localSeats.includes(l.seat)).length);
    for (const line of lines) this.chat.set(line.seq, line);
    this.chatSeen = true;
    this.drawChat();
  }

  /** The chat lives outside the redrawn side panel, so typing survives every move. */
  drawChat() {
    const m = this.current();
    if (!m || this.summary.seats.length < 2) return;
    const seated = m.seat !== null && this.pending === null;
    if (!seated && !this.chatSeen) { this.chatSection.hidden = true; return; }
    this.chatSection.hidden = false;
    if (!this.chatList) {
      this.chatList = el("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite", "aria-label": t("Chat") });
      this.chatEmpty = el("p", { class: "muted small" });
      add(this.chatSection, el("h3", {}, t("Chat")), this.chatList, this.chatEmpty);
      const input = el("input", { type: "text", id: "chat-input", maxlength: 300, autocomplete: "off", "aria-label": t("Message to the table") });
      const send = () => {
        const text = input.value.trim();
        const seat = this.current()?.seat;
        if (!text || seat === null || seat === undefined) return;
        if (this.conn(seat)?.chat(text)) input.value = "";
      };
      input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); send(); } });
      this.chatForm = el("div", { class: "chat-send" }, input, el("button", { id: "chat-send", onclick: send }, t("Send")));
      add(this.chatSection, this.chatForm);
    }
    this.chatForm.hidden = !seated;
    const lines = [...this.chat.values()].sort((a, b) => a.seq - b.seq).slice(-30);
    fill(this.chatList, lines.map((l) => el("li", {}, el("strong", {}, l.name), ": ", l.text)));
    this.chatList.scrollTop = this.chatList.scrollHeight;
    this.chatEmpty.hidden = lines.length > 0;
    this.chatEmpty.textContent = seated ? t("Say hello to the table.") : t("No messages yet.");
  }

  tell(lines, kind = "info") {
    for (const text of lines) this.news.push({ text, kind });
    if (this.news.length > NEWS_LIMIT) this.news.splice(0, this.news.length - NEWS_LIMIT);
  }

  showError(err) {
    this.lastError = err.reason;
    this.tell([err.reason], "error");
    this.highlight = new Set(placesIn([err.params && Object.values(err.params), err.move]));
    if (!this.current()) {
      // nothing to show yet (a wrong link, a game this server does not have)
      // a seat token this browser kept that the game refuses: the game can still be
      // watched, once the token is forgotten (without a token the page opens as a spectator)
      const target = `#/room/${encodeURIComponent(this.roomId)}`;
      const watchInstead = (e) => {
        e.preventDefault();
        forgetRoom(this.roomId);
        if (location.hash === target) location.reload();
        else location.hash = target;
      };
      const watch = err.code === "bad-token" ? el("p", {}, el("a", { href: target, id: "watch-game", onclick: watchInstead }, t("Watch this game"))) : null;
      fill(this.boardRoot, el("p", { class: "error", id: "last-error", role: "alert" }, err.reason),
        watch, el("p", {}, el("a", { href: "#/" }, t("Back to the lobby"))));
      return;
    }
    // the side panel's copy is below the board on a phone, out of sight: say it where it is seen
    toast(err.reason, "error");
    this.draw();
  }

  chooseSeat() {
    const any = Object.values(this.msgs)[0];
    if (!any) return;
    const toMove = any.view.current_player;
    if (toMove !== null && toMove !== undefined && this.localSeats.includes(toMove) && toMove !== this.shown) {
      if (this.humanLocal.length > 1 && this.gameInfo?.secrets !== false) this.pending = toMove;
      else this.shown = toMove;
    }
  }

  // -- drawing -----------------------------------------------------------------------------

  ctx() {
    const msg = this.current();
    const seat = msg.seat;
    const key = this.key(seat);
    const interactive = msg.legal !== null && msg.legal !== undefined;
    return {
      view: msg.view,
      legal: msg.legal,
      seat,
      seats: msg.seats || this.summary.seats,
      prev: this.prevViews[key] || null,
      event: msg.event || null,
      lastMover: msg.lastMover,
      interactive,
      ui: (this.ui[key] ||= {}),
      redraw: () => this.draw(),
      move: (text) => this.conn(seat)?.move(text),
    };
  }

  draw() {
    const msg = this.current();
    if (!msg) return;
    this.cover.hidden = this.pending === null;
    if (this.pending !== null) return this.drawCover(msg);
    const hadFocus = this.boardRoot.contains(document.activeElement);
    const ctx = this.ctx();
    fill(this.boardRoot);
    this.board.render(this.boardRoot, ctx);
    fitLabels(this.boardRoot);
    for (const node of this.boardRoot.querySelectorAll("[data-place]")) {
      node.classList.toggle("flagged", this.highlight.has(node.dataset.place));
    }
    const myTurn = ctx.interactive && !ctx.view.is_over;
    this.keys.refresh({ focus: hadFocus || (myTurn && (document.activeElement === document.body || !document.activeElement)) });
    this.drawSide();
    this.announceTurn(myTurn);
    if (msg.view.is_over && !this.summaryShown) {
      this.summaryShown = true;
      this.showSummary(msg);
    }
  }

  drawCover(msg) {
    const name = msg.seats[this.pending].name;
    fill(this.cover, el("div", { class: "cover-box", role: "dialog", "aria-modal": "true", "aria-labelledby": "cover-title" },
      el("h2", { id: "cover-title" }, t("{player}'s turn", { player: name })),
      el("p", {}, t("Pass the screen to {player}. Other players, look away.", { player: name })),
      el("button", { class: "primary", id: "reveal", onclick: () => { this.shown = this.pending; this.pending = null; this.draw(); } },
        t("Show {player}'s hand", { player: name }))));
    fill(this.boardRoot, el("p", { class: "muted hidden-hand" }, t("Hidden until the next player confirms.")));
    this.drawSide();
    setTimeout(() => document.getElementById("reveal")?.focus(), 0);
  }

  turnText(v, m) {
    const seats = m.seats || this.summary.seats;
    if (v.is_over) return t("Game over");
    if (this.pending !== null) return t("{player}'s turn", { player: seats[this.pending]?.name ?? "?" });
    if (v.current_player === m.seat && m.seat !== null) return t("Your move");
    return t("{player} to move", { player: seats[v.current_player]?.name ?? "?" });
  }

  announceTurn(myTurn) {
    const base = `${this.summary.title} — Pyramids`;
    document.title = myTurn && this.localSeats.length ? "● " + t("Your move") + " — " + base : base;
    if (myTurn && !this.wasMyTurn && this.humanLocal.length && soundOn()) beep();
    if (myTurn && !this.wasMyTurn && this.humanLocal.length && this.summary.seats.length > 1) notifyTurn(this.summary.title);
    this.wasMyTurn = myTurn;
  }

  clickedOutOfTurn() {
    const m = this.current();
    if (!m || m.view.is_over || this.pending !== null) return;
    if (m.seat === null) { toast(t("You are watching this game: only its players can move.")); return; }
    if (m.legal === null || m.legal === undefined) {
      const name = (m.seats || this.summary.seats)[m.view.current_player]?.name ?? "?";
      toast(t("Not your turn: {player} is to move.", { player: name }));
    }
  }

  drawSide() {
    const m = this.current();
    const v = m.view;
    const seats = m.seats || this.summary.seats;
    const you = this.pending === null ? m.seat : null;
    this.turnLine.textContent = this.turnText(v, m);
    this.statusLine.textContent = this.board.status ? this.board.status(v) : "";
    const rows = seats.map((s, i) => el("li", { class: [v.current_player === i && !v.is_over ? "to-move" : "", you === i ? "me" : ""].join(" ") },
      el("span", { class: "who" }, s.name, s.kind === "bot" ? el("small", { class: "muted" }, " ", t("(bot)")) : null, you === i ? el("small", { class: "muted" }, " ", t("(you)")) : null),
      el("span", { class: "score" }, v.scores?.[i] !== undefined ? number(v.scores[i]) : ""),
      v.ranking && v.is_over ? el("span", { class: "rank" }, ordinal(v.ranking[i])) : null));
    const buttons = el("div", { class: "buttons" });
    const seated = m.seat !== null && this.pending === null;
    if (this.gameInfo?.undo && seated) {
      add(buttons, el("button", { id: "undo", disabled: !m.can_undo || v.is_over, title: t("Take back your last move (U)"), onclick: () => this.undo() }, t("Undo")));
    }
    if (this.gameInfo?.hint && seated && !v.is_over) add(buttons, el("button", { id: "hint", onclick: () => this.hint(m) }, t("Hint")));
    if (this.gameInfo && this.gameInfo.max_players === 1) add(buttons, el("button", { id: "new-deal", onclick: () => this.newDeal(v) }, t("New deal")));
    if (v.is_over) {
      add(buttons, el("a", { class: "button", href: `#/replay/${this.roomId}` }, t("Replay")));
      if (this.gameInfo.max_players > 1 && seated) add(buttons, el("button", { id: "rematch", onclick: () => this.rematch() }, t("Rematch")));
    }
    add(buttons, el("a", { class: "button", href: `#/rules/${this.summary.game}`, target: "_blank" }, t("Rules")));
    const sound = soundOn();
    add(buttons, el("button", { id: "sound", class: "icon-button", "aria-pressed": String(sound),
      "aria-label": t("Sound when it is your turn"), title: t("Sound when it is your turn"),
      onclick: () => { setSound(!sound); this.drawSide(); } }, icon(sound ? "sound" : "mute")));
    if (seated && seats.length > 1) add(buttons, notifyButton(() => this.drawSide()));
    const links = Object.entries(this.info.links || {});
    this.drawChat();
    fill(this.sideMain,
      el("h2", {}, this.summary.title),
      this.summary.practice ? el("p", { class: "practice", id: "practice" }, t("Practice room: its creator chose the deal, so it may be known in advance.")) : null,
      this.summary.commitment && !v.is_over && seats.length > 1 ? el("details", { class: "commitment" }, el("summary", {}, t("Fair deal")),
        el("p", { class: "small" }, t("Before the first move the server published this fingerprint of the deal. When the game ends it reveals the deal, and the replay checks that they match.")),
        el("code", { class: "hash" }, this.summary.commitment)) : null,
      this.deal !== undefined ? el("p", { class: "deal", id: "deal-no" }, t("Deal #{deal}", { deal: this.deal })) : null,
      el("ol", { class: "players", "aria-label": t("Players") }, rows),
      this.lastError ? el("p", { class: "error", id: "last-error", role: "alert" }, this.lastError) : null,
      buttons,
      (links.length || this.info.spectator) && !v.is_over ? el("details", { class: "invite", open: links.length > 0 && (m.version ?? 0) === 0 },
        el("summary", {}, t("Invite links")),
        ...links.map(([seat, link]) => el("label", { class: "invite-link" }, t("Seat of {player}:", { player: seats[seat].name }),
          el("input", { readonly: true, value: link, onclick: (e) => e.target.select() }),
          shareButton(link, t("Seat of {player}:", { player: seats[seat].name })))),
        this.info.spectator ? el("label", { class: "invite-link" }, t("Watch only:"),
          el("input", { readonly: true, id: "spectator-link", value: this.info.spectator, onclick: (e) => e.target.select() }),
          shareButton(this.info.spectator, t("Watch only:"))) : null) : null,
      this.news.length ? el("section", { class: "news-box" }, el("h3", {}, t("What happened")), this.newsList()) : null,
      m.legal && m.legal.length && this.pending === null ? movesList(m.legal, (text) => this.conn(m.seat)?.move(text)) : null,
      el("p", { class: "muted small", id: "conn", "data-version": m.version },
        t("version {version}", { version: m.version }), " · ", onlineText(this.online), m.seat === null ? " · " : "", m.seat === null ? t("watching") : ""));
  }

  newsList() {
    fill(this.newsBox, ...this.news.slice().reverse().map((n) => el("li", { class: n.kind }, n.text)));
    return this.newsBox;
  }

  // -- actions -----------------------------------------------------------------------------

  undo() {
    const m = this.current();
    if (!m || m.view.is_over || !m.can_undo) return;
    this.conn(m.seat)?.undo();
  }

  async hint(m) {
    try {
      const h = await api(`/api/rooms/${this.roomId}/hint?token=${encodeURIComponent(this.info.tokens[m.seat])}`);
      this.highlight = new Set(placesIn([h.move]));
      const text = h.chance !== null && h.chance !== undefined
        ? t("Hint: {move} (clears the round in {chance} of {samples} sampled deals)", { move: h.move, chance: percent(h.chance), samples: number(h.samples) })
        : t("Hint: {move}", { move: h.move });
      this.tell([text]);
      toast(text);
      this.draw();
    } catch (e) { toast(e.message, "error"); }
  }

  async newDeal(view) {
    if (!view.is_over && (this.current()?.version ?? 0) > 0) {
      const sure = await ask(t("Abandon this game and deal a new one? The game stays in your list."), t("New deal"), t("Keep playing"));
      if (!sure) return;
    }
    const g = this.gameInfo;
    const variant = {};
    for (const o of g.options) if (view.variant && view.variant[o.name] !== o.default) variant[o.name] = view.variant[o.name];
    const seed = Math.floor(Math.random() * 1000000);
    try {
      const room = await api("/api/rooms", { method: "POST", body: { game: g.id, seats: [{ kind: "human", name: this.summary.seats[0].name }], variant, seed } });
      openCreated(room, g, [true]);
    } catch (e) { toast(e.message, "error"); }
  }

  async rematch() {
    const m = this.current();
    try {
      const room = await api(`/api/rooms/${this.roomId}/rematch`, { method: "POST", body: { token: this.info.tokens[m.seat] } });
      this.joinRematch(room.room);
    } catch (e) { toast(e.message, "error"); }
  }

  joinRematch(newRoom) {
    // The rematch keeps every seat's link: this screen's tokens open the same seats there.
    rememberRoom(newRoom, { game: this.summary.game, title: this.summary.title, tokens: this.info.tokens, links: {}, created: Date.now() });
    location.hash = `#/room/${newRoom}`;
  }

  offerRematch(newRoom) {
    if (this.rematchOffered === newRoom) return;
    this.rematchOffered = newRoom;
    this.tell([t("A rematch has started.")]);
    const dialog = document.getElementById("summary");
    const where = dialog?.querySelector(".buttons") || this.side;
    add(where, el("button", { class: "primary", id: "join-rematch", onclick: () => this.joinRematch(newRoom) }, t("Join the rematch")));
    this.drawSide();
  }

  showSummary(msg) {
    const v = msg.view;
    const seats = msg.seats;
    const order = seats.map((s, i) => i).sort((a, b) => v.ranking[a] - v.ranking[b]);
    const winners = v.ranking.filter((r) => r === 1).length;
    let title;
    if (seats.length === 1) title = t("Game over");
    else if (winners === seats.length) title = t("Draw"); // everyone first: nobody won
    else if (winners > 1) title = t("Shared win");
    else title = t("{player} wins", { player: seats[order[0]].name });
    const multi = this.gameInfo && this.gameInfo.max_players > 1;
    const seated = msg.seat !== null;
    const dialog = el("dialog", { class: "summary", id: "summary", "aria-labelledby": "summary-title" },
      el("h2", { id: "summary-title" }, title),
      this.board.endReason ? el("p", { class: "end-reason" }, this.board.endReason(v)) : null,
      el("div", { class: "table-scroll", tabindex: "0" }, el("table", { class: "results" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Place")), el("th", { scope: "col" }, t("Player")), el("th", { scope: "col" }, t("Score")))),
        el("tbody", {}, order.map((i) => el("tr", {}, el("td", {}, ordinal(v.ranking[i])), el("td", {}, seats[i].name), el("td", {}, number(v.scores[i]))))))),
      this.board.summary ? el("div", { class: "table-scroll", tabindex: "0" }, this.board.summary(v)) : null,
      el("div", { class: "buttons" },
        el("a", { class: "button", href: `#/replay/${this.roomId}` }, t("Replay this game")),
        multi && seated ? el("button", { id: "summary-rematch", onclick: () => this.rematch() }, t("Rematch")) : null,
        !multi ? el("button", { onclick: () => { dialog.close(); this.newDeal(v); } }, t("New deal")) : el("a", { class: "button", href: "#/" }, t("Lobby")),
        el("button", { class: "primary", id: "summary-close", onclick: () => dialog.close() }, t("Close"))));
    add(this.main, dialog);
    dialog.showModal();
  }
}

/** The place names a hint or an error mentions (notation words: G7, d6, 3, draw...). */
function placesIn(things) {
  const out = [];
  for (const x of things.flat(2)) {
    if (x === null || x === undefined) continue;
    for (const word of String(x).split(/[\s,;>()\-]+/)) if (word) out.push(word);
  }
  return out;
}

function movesList(legal, play) {
  const box = el("details", { class: "moves", open: legal.length <= 12 });
  add(box, el("summary", {}, t("All legal moves ({n})", { n: number(legal.length) })));
  const wrap = el("div", { class: "move-buttons" });
  for (const text of legal) add(wrap, el("button", { class: "move", "data-move": text, onclick: () => play(text) }, text));
  add(box, wrap);
  return box;
}

function onlineText(state) {
  if (state === "online") return t("online");
  if (state === "offline") return t("offline, reconnecting…");
  return t("connecting…");
}

function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === "on"; } catch { return false; }
}

function setSound(on) {
  try { localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch { /* not remembered */ }
  if (on) beep();
}

let audio = null;
/** A short soft chime (made by the Web Audio API: no sound file to load). */
function beep() {
  try {
    audio ||= new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.15, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.4);
  } catch { /* no audio here */ }
}

export async function gamePage(main, roomId, query, games, loadBoard) {
  const urlToken = query.get("token");
  if (urlToken) {
    // A seat link: learn which seat it opens, remember it, and drop the token from the address bar.
    const snap = await api(`/api/rooms/${roomId}/state?token=${encodeURIComponent(urlToken)}`);
    rememberRoom(roomId, { game: snap.game, title: snap.title, tokens: { [snap.seat]: urlToken }, created: Date.now() });
    history.replaceState(null, "", `#/room/${roomId}`);
  }
  const info = myRooms()[roomId] || { tokens: {} };
  const summary = await api(`/api/rooms/${roomId}`);
  const gameInfo = games.find((g) => g.id === summary.game);
  summary.title = gameInfo?.title || summary.title;
  rememberCommitment(roomId, summary.commitment);
  const board = await loadBoard(summary.game, gameInfo);
  const screen = new GameScreen(main, { roomId, summary, gameInfo, board, info });
  return () => screen.close();
}
