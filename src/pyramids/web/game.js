// The game screen: one object owns everything shown about a room (a SeatView per seat on this
// screen, with its connection, views and choices in progress; the news log; the chat and
// rematch boxes) and draws the board and the side panel from it.

import { el, add, fill, fitLabels, toast, myRooms, rememberRoom, forgetRoom, markScroll } from "./util.js";
import { api } from "./net.js";
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
import { ChatBox } from "./chat.js";
import { Rematch } from "./rematch.js";
import { SeatView } from "./seat-view.js";
import { localSeats, localView, seatName } from "./names.js";

const NEWS_LIMIT = 40;
/** How many past events a page asks for when it opens, to retell them in "What happened". */
const NEWS_EVENTS = 24;
const SOUND_KEY = "pyramids.sound";

export class GameScreen {
  constructor(main, { roomId, summary, gameInfo, board, info }) {
    this.main = main;
    this.roomId = roomId;
    this.summary = summary;
    this.gameInfo = gameInfo;
    this.board = board;
    this.info = info;
    this.solitaire = summary.seats.length === 1;
    this.localSeats = Object.keys(info.tokens || {}).map(Number).sort((a, b) => a - b);
    this.humanLocal = this.localSeats.filter((s) => summary.seats[s]?.kind === "human");
    this.seats = new Map(); // seat number (null: the spectator) -> SeatView
    this.news = [];
    this.highlight = new Set();
    this.shown = this.localSeats.length ? this.localSeats[0] : null;
    this.pending = null;
    this.summaryShown = false;
    this.lastError = null;
    this.online = "connecting";
    this.deal = undefined;
    this.wasMyTurn = false;
    this.timers = new Set();
    this.chat = new ChatBox({
      send: (text) => !!this.seatView(this.current()?.seat)?.conn.chat(text),
      nameOf: (seat, stored) => (summary.seats[seat] ? seatName({ ...summary.seats[seat], name: stored }, seat) : stored),
    });
    this.rematches = new Rematch({ roomId, summary, tokens: info.tokens, tell: (lines) => this.tell(lines), redraw: () => this.drawSide() });

    this.turnLine = el("p", { class: "turn", id: "turn", "aria-live": "polite" });
    this.statusLine = el("p", { class: "status", id: "status" });
    this.boardRoot = el("div", { class: "board", id: "board" });
    this.sideMain = el("div", { class: "side-main" });
    this.side = el("aside", { class: "side", "aria-label": t("Game information") }, this.sideMain, this.chat.section);
    this.newsBox = el("ol", { class: "news-log", id: "news", "aria-live": "polite", "aria-label": t("What happened") });
    this.cover = el("div", { class: "cover", hidden: true });
    this.chatBadge = new ChatBadge(this.chat.section);
    this.clocks = new ClockPanel();
    this.banner = new ConnectionBanner(this.boardRoot);
    this.presence = new PresencePanel((lines) => { this.tell(lines); if (this.current()) this.drawSide(); });
    add(main, el("section", { class: `game game-${summary.game}` },
      el("div", { class: "turn-bar" }, this.turnLine, this.statusLine, this.clocks.root, this.presence.root, this.banner.root),
      el("div", { class: "board-wrap" }, this.boardRoot, this.cover),
      this.side, this.chatBadge.root));
    // the turn bar's height, for what sticks under it (a board's quarry on a phone)
    const bar = this.turnLine.parentNode;
    if (typeof ResizeObserver === "function") {
      this.barSize = new ResizeObserver(() => bar.parentNode.style.setProperty("--bar-h", `${bar.offsetHeight}px`));
      this.barSize.observe(bar);
    }
    this.keys = new BoardKeys(this.boardRoot, {
      onEscape: () => { if (this.board.cancel?.(this.ctx())) this.draw(); },
    });
    this.boardRoot.addEventListener("click", () => this.clickedOutOfTurn());
    this.keydown = (e) => {
      if (e.target.matches("input, select, textarea")) return;
      if (e.key === "u") this.undo();
    };
    document.addEventListener("keydown", this.keydown);
    if (this.localSeats.length) for (const s of this.localSeats) this.open(s, info.tokens[s]);
    else this.open(null, null);
  }

  close() {
    for (const sv of this.seats.values()) sv.close();
    for (const id of this.timers) clearTimeout(id);
    this.barSize?.disconnect();
    this.clocks.close();
    this.presence.close();
    this.chatBadge.close();
    this.keys.close();
    document.removeEventListener("keydown", this.keydown);
  }

  seatView(seat) { return this.seats.get(seat ?? null); }
  current() { return this.seatView(this.shown)?.msg || null; }

  // -- connections ---------------------------------------------------------------------

  /**
   * Connect `seat` (null: a spectator). Why ask for the recent events rather than a snapshot:
   * "What happened" is told from the views before and after each event, so a page that opens
   * (a reload, a language switch) retells the last events in its own language.
   */
  open(seat, token) {
    const version = this.summary.version ?? 0;
    const since = version > 0 ? Math.max(0, version - NEWS_EVENTS) : null;
    const sv = new SeatView(this.roomId, seat, token, {
      since,
      catchUpTo: version,
      mine: this.localSeats,
      timers: this.timers,
      handlers: {
        apply: (view, msg, how) => this.apply(view, msg, how),
        onError: (err) => this.showError(err),
        onStatus: (s, code) => {
          this.banner.status(s, code);
          if (s === "online") this.presence.say(this.seats.get(seat)?.conn);
          if (s === "synced") return;
          this.online = s;
          if (this.current()) this.drawSide();
        },
        onRematch: (room) => this.rematches.offer(room, this.side),
        onChat: (lines, whole) => {
          if (!whole) this.chatBadge.add(lines.filter((l) => !this.localSeats.includes(l.seat)).length);
          this.chat.got(lines, whole);
          this.drawChat();
        },
        onPresence: (states) => this.presence.update(states, this.current()?.seats || this.summary.seats),
      },
    });
    this.seats.set(seat, sv);
  }

  /** One message for seat view `sv`; `catchingUp`: an event the page catches up on, not drawn. */
  apply(sv, msg, { catchingUp = false } = {}) {
    const old = sv.msg;
    // the names as this reader sees them (names.js); events do not repeat the seats
    msg.rawSeats = msg.seats || old?.rawSeats || this.summary.seats;
    msg.seats = localSeats(msg.rawSeats);
    msg.view = localView(msg.view, msg.rawSeats);
    if (msg.deal !== undefined) this.deal = msg.deal;
    // the view before: the last one applied, or for the first event a page is sent when it
    // opens, the one the server sends with it (`before`)
    const before = old ? old.view : msg.before ? localView(msg.before, msg.rawSeats) : null;
    if (before && old?.version !== msg.version) {
      sv.prev = before;
      this.highlight.clear();
      if (sv.seat === this.shown) this.tell(this.board.explain?.(msg.view, before) || []);
    }
    msg.lastMover = msg.event ? msg.event.seat : old?.lastMover ?? null;
    sv.msg = msg;
    this.banner.synced();
    this.clocks.update(msg, msg.seats);
    if (msg.reply_to !== undefined) this.lastError = null;
    this.chooseSeat();
    if (catchingUp) return;
    this.draw();
  }

  drawChat() {
    const m = this.current();
    if (!m) return;
    this.chat.draw({ seated: m.seat !== null && this.pending === null, solitaire: this.solitaire });
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
    const any = [...this.seats.values()].find((sv) => sv.msg)?.msg;
    if (!any) return;
    const toMove = any.view.current_player;
    if (toMove !== null && toMove !== undefined && this.localSeats.includes(toMove) && toMove !== this.shown) {
      if (this.humanLocal.length > 1 && this.gameInfo?.secrets !== false) this.pending = toMove;
      else this.shown = toMove;
    }
  }

  // -- drawing -----------------------------------------------------------------------------

  ctx() {
    const sv = this.seatView(this.shown);
    const msg = sv.msg;
    const interactive = msg.legal !== null && msg.legal !== undefined;
    return {
      view: msg.view,
      legal: msg.legal,
      seat: msg.seat,
      seats: msg.seats,
      prev: sv.prev,
      event: msg.event || null,
      lastMover: msg.lastMover,
      interactive,
      ui: sv.ui,
      redraw: () => this.draw(),
      move: (text) => sv.conn.move(text),
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
    const seats = m.seats;
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
      const name = m.seats[m.view.current_player]?.name ?? "?";
      toast(t("Not your turn: {player} is to move.", { player: name }));
    }
  }

  drawSide() {
    const m = this.current();
    const v = m.view;
    const seats = m.seats;
    const you = this.pending === null ? m.seat : null;
    this.turnLine.textContent = this.turnText(v, m);
    this.statusLine.textContent = this.board.status ? this.board.status(v) : "";
    const rows = seats.map((s, i) => el("li", { class: [v.current_player === i && !v.is_over ? "to-move" : "", you === i ? "me" : ""].join(" ") },
      el("span", { class: "who" }, s.name, s.kind === "bot" ? el("small", { class: "muted" }, " ", t("(bot)")) : null, you === i ? el("small", { class: "muted" }, " ", t("(you)")) : null),
      scoreCell(this.board, v, i),
      v.ranking && v.is_over && !this.solitaire ? el("span", { class: "rank" }, ordinal(v.ranking[i])) : null));
    const buttons = el("div", { class: "buttons" });
    const seated = m.seat !== null && this.pending === null;
    // the solitaire takes back any move; other games the steps of the turn being played,
    // while the server offers it (docs/server.md)
    if (seated && (this.gameInfo?.undo || (m.can_undo && !v.is_over))) {
      add(buttons, el("button", { id: "undo", disabled: !m.can_undo || v.is_over, title: t("Take back your last move (U)"), onclick: () => this.undo() }, t("Undo")));
    }
    if (this.gameInfo?.hint && seated && !v.is_over) add(buttons, el("button", { id: "hint", onclick: () => this.hint(m) }, t("Hint")));
    if (this.gameInfo && this.gameInfo.max_players === 1) add(buttons, el("button", { id: "new-deal", onclick: () => this.newDeal(v) }, t("New deal")));
    if (v.is_over) {
      add(buttons, el("a", { class: "button", href: `#/replay/${this.roomId}` }, t("Replay")));
      if (this.gameInfo.max_players > 1 && seated) add(buttons, el("button", { id: "rematch", onclick: () => this.rematches.ask(m.seat) }, t("Rematch")));
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
      (links.length || this.info.spectator) && !v.is_over && !this.solitaire ? el("details", { class: "invite", open: links.length > 0 && (m.version ?? 0) === 0 },
        el("summary", {}, t("Invite links")),
        ...links.map(([seat, link]) => el("label", { class: "invite-link" }, t("Seat of {player}:", { player: seats[seat].name }),
          el("input", { readonly: true, value: link, onclick: (e) => e.target.select() }),
          shareButton(link, t("Seat of {player}:", { player: seats[seat].name })))),
        this.info.spectator ? el("label", { class: "invite-link" }, t("Watch only:"),
          el("input", { readonly: true, id: "spectator-link", value: this.info.spectator, onclick: (e) => e.target.select() }),
          shareButton(this.info.spectator, t("Watch only:"))) : null) : null,
      this.news.length ? el("section", { class: "news-box" }, el("h3", {}, t("What happened")), this.newsList()) : null,
      m.legal && m.legal.length && this.pending === null ? movesList(m.legal, (text) => this.seatView(m.seat)?.conn.move(text), this.moveLabel()) : null,
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
    if (!m || m.view.is_over || !m.can_undo || m.seat === null || this.pending !== null) return;
    this.seatView(m.seat)?.conn.undo();
  }

  async hint(m) {
    try {
      const h = await api(`/api/rooms/${this.roomId}/hint?token=${encodeURIComponent(this.info.tokens[m.seat])}`);
      this.highlight = new Set(placesIn([h.move]));
      const text = h.chance !== null && h.chance !== undefined
        ? t("Hint: {move} (clears the round in {chance} of {samples} sampled deals)", { move: this.moveLabel()(h.move), chance: percent(h.chance), samples: number(h.samples) })
        : t("Hint: {move}", { move: this.moveLabel()(h.move) });
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

  /** How a move is written for this reader: the board's words where it has them (moveLabel). */
  moveLabel() {
    return (text) => (this.board.moveLabel ? this.board.moveLabel(text) : text);
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
    const multi = !this.solitaire;
    const seated = msg.seat !== null;
    const dialog = el("dialog", { class: "summary", id: "summary", "aria-labelledby": "summary-title" },
      el("h2", { id: "summary-title" }, title),
      this.board.endReason ? el("p", { class: "end-reason" }, this.board.endReason(v)) : null,
      // a solitaire has no places: its one player is always "first"
      scrolling(el("table", { class: "results" },
        el("thead", {}, el("tr", {}, multi ? el("th", { scope: "col" }, t("Place")) : null, el("th", { scope: "col" }, t("Player")), el("th", { scope: "col" }, t("Score")))),
        el("tbody", {}, order.map((i) => el("tr", {}, multi ? el("td", {}, ordinal(v.ranking[i])) : null, el("td", {}, seats[i].name), el("td", {}, number(v.scores[i]))))))),
      this.board.summary ? scrolling(this.board.summary(v)) : null,
      el("div", { class: "buttons" },
        el("a", { class: "button", href: `#/replay/${this.roomId}` }, t("Replay this game")),
        multi && seated ? el("button", { id: "summary-rematch", onclick: () => this.rematches.ask(msg.seat) }, t("Rematch")) : null,
        !multi ? el("button", { onclick: () => { dialog.close(); this.newDeal(v); } }, t("New deal")) : el("a", { class: "button", href: "#/" }, t("Lobby")),
        el("button", { class: "primary", id: "summary-close", autofocus: true, onclick: () => dialog.close() }, t("Close"))));
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

/** A player's score in the players list, with the board's words for it where it has them. */
function scoreCell(board, v, i) {
  if (v.scores?.[i] === undefined) return el("span", { class: "score" });
  const words = board.scoreText ? board.scoreText(v, i) : null;
  return el("span", { class: "score", title: words || undefined }, words || number(v.scores[i]));
}

/**
 * A table that may be wider than a phone, in a box that scrolls sideways. Why the shadows
 * and the hint: a clipped column with nothing to show that more follows reads as missing;
 * the box says "scroll" only while something is out of sight (util.js's markScroll).
 */
function scrolling(table) {
  const box = el("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("Scores (scroll sideways for more)") }, table);
  const hint = el("p", { class: "scroll-hint small muted", "aria-hidden": "true" }, t("Scroll sideways for more →"));
  const wrap = el("div", { class: "scroll-wrap" }, hint, box);
  markScroll(box, wrap);
  return wrap;
}

function movesList(legal, play, label) {
  const box = el("details", { class: "moves", open: legal.length <= 12 });
  add(box, el("summary", {}, t("All legal moves ({n})", { n: number(legal.length) })));
  const wrap = el("div", { class: "move-buttons" });
  for (const text of legal) {
    const shown = label(text);
    add(wrap, el("button", { class: "move", "data-move": text, "aria-label": shown !== text ? `${shown} (${text})` : undefined, onclick: () => play(text) }, shown));
  }
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
