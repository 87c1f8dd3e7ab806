// The time control of a new table, chosen in the lobby's table options.
//
// The server knows the controls (docs/server.md, "Clocks"); the lobby is told
// each game's real-time presets with the game (`clock_presets`), so the
// choices read "5 min + 5 s", not only "quick".

import { el } from "./util.js";
import { t, tn } from "./i18n.js";
import { formatTime } from "./clock.js";

const DAYS = [1, 2, 3, 7];

/** "5 min + 5 s": a preset's starting time and the time added per move. */
function presetLabel([base, increment]) {
  return t("{time} + {seconds} s a move", { time: formatTime(base), seconds: increment });
}

/** The select of a game's time controls (none for a solitaire). */
export function clockField(g) {
  if (g.max_players === 1) return null;
  const select = el("select", { id: "clock" },
    el("option", { value: "untimed" }, t("No clock (casual)")));
  const presets = g.clock_presets || {};
  const names = { quick: t("Real-time, quick"), standard: t("Real-time, standard"), slow: t("Real-time, slow") };
  for (const [name, value] of Object.entries(presets)) {
    select.append(el("option", { value: `preset:${name}` }, `${names[name] || name}: ${presetLabel(value)}`));
  }
  for (const d of DAYS) {
    select.append(el("option", { value: `turn:${d}` }, tn("Turn-based: {n} day a move", "Turn-based: {n} days a move", d, { n: d })));
  }
  return el("label", { class: "inline", for: "clock" }, t("Clock"), " ", select);
}

/** The `clock` of the new room's request, from the select (undefined: untimed). */
export function chosenClock() {
  const value = document.getElementById("clock")?.value;
  if (!value || value === "untimed") return undefined;
  const [kind, arg] = value.split(":");
  if (kind === "preset") return { kind: "realtime", preset: arg };
  return { kind: "turn", days: Number(arg) };
}
