// Talking to the server: REST helpers and one WebSocket per seat with versioned resync.

import { lang, t } from "./i18n.js";

/** Call the REST API; resolves to the JSON body or rejects with the server's error object. */
export async function api(path, options = {}) {
  const init = { headers: { "Content-Type": "application/json" }, ...options };
  path += `${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(lang())}`;
  if (init.body && typeof init.body !== "string") init.body = JSON.stringify(init.body);
  const res = await fetch(path, init);
  let body = null;
  try { body = await res.json(); } catch { body = null; }
  if (!res.ok) {
    const err = (body && body.error) || { code: "http", reason: t("The server answered {status}.", { status: res.status }) };
    throw Object.assign(new Error(err.reason), { error: err, body });
  }
  return body;
}

/**
 * A live connection of one seat (or a spectator) to a room.
 *
 * It keeps the last version it saw; after a drop it reconnects with
 * `since=<version>` and the server sends the missed events or a snapshot.
 * `onState(msg)` gets every message that carries a view; `onError(err)`
 * every rejection (with the current state already applied).
 */
export class SeatConnection {
  constructor(room, token, { onState, onError, onStatus, onRematch, onChat, onPresence, since = null }) {
    this.room = room;
    this.token = token || null;
    this.onState = onState;
    this.onError = onError;
    this.onStatus = onStatus || (() => {});
    this.onRematch = onRematch || (() => {});
    this.onChat = onChat || (() => {});
    this.onPresence = onPresence || (() => {});
    this.version = null;
    // the first connection may ask for the events after `since` (the page rebuilds its news
    // of them); later ones ask for what they missed after the last version they saw
    this.since = since;
    this.last = null;
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.nextId = 1;
    this.connect();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = new URLSearchParams();
    if (this.token) q.set("token", this.token);
    q.set("lang", lang());
    const since = this.version ?? this.since;
    if (since !== null && since !== undefined) q.set("since", String(since));
    return `${proto}//${location.host}/ws/rooms/${encodeURIComponent(this.room)}?${q}`;
  }

  connect() {
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => { this.retry = 0; this.onStatus("online"); };
    ws.onmessage = (e) => this.receive(JSON.parse(e.data));
    ws.onclose = (e) => {
      if (this.closed) return;
      this.onStatus("offline", e.code);
      if (e.code >= 4400 && e.code < 4500) return; // unknown game or bad token: retrying cannot help
      const wait = Math.min(5000, 250 * 2 ** this.retry++);
      setTimeout(() => { if (!this.closed) this.connect(); }, wait);
    };
  }

  receive(msg) {
    if (msg.type === "snapshot") {
      this.apply(msg);
    } else if (msg.type === "event") {
      if (this.version !== null && msg.version <= this.version) return; // already have it
      if (this.version !== null && msg.version > this.version + 1) {
        this.send({ type: "sync", version: this.version }); // a gap: ask for what is missing
        return;
      }
      this.apply(msg);
    } else if (msg.type === "chat") {
      this.onChat([msg], false);
    } else if (msg.type === "chat-history") {
      this.onChat(msg.lines, true);
    } else if (msg.type === "presence") {
      this.onPresence(msg.seats);
    } else if (msg.type === "synced") {
      this.onStatus("synced"); // reconnected with nothing missed: in sync again
    } else if (msg.type === "rematch") {
      this.onRematch(msg.room);
    } else if (msg.type === "error") {
      if (msg.snapshot) this.apply(msg.snapshot);
      this.onError(msg.error, msg);
    }
  }

  apply(msg) {
    this.version = msg.version;
    this.last = msg;
    this.onState(msg, this);
  }

  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    this.onError({ code: "offline", reason: t("Not connected to the server; retrying…") });
    return false;
  }

  move(text) {
    return this.send({ type: "move", move: text, version: this.version, id: this.nextId++ });
  }

  chat(text) {
    return this.send({ type: "chat", text, id: this.nextId++ });
  }

  undo() {
    return this.send({ type: "undo", version: this.version, id: this.nextId++ });
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
