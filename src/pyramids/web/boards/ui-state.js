// What a board whose turn is a choice in several steps (Pyramido, the treasure hunt, Pyramideto's
// piece then its target) keeps between redraws: its choices so far (`ui`, which the app hands
// over as ctx.ui and keeps per seat), whether the view it draws brought a new move (so that
// what the move changed may move in), and its own keyboard where the app brings none. Not a board: the app loads boards by game
// id (boards/<game>.js), and this file is only imported by them.

import { BoardKeys } from "../focus.js";

/**
 * The redraw state of one board module. `render(root, ctx)` and `cancel(ctx)` are the board's
 * own (cancel drops the latest step of a choice and says whether there was one).
 *
 * - `begin(root, ctx)`: the ui of this draw and what the view is; sets `ui.animate` (true only
 *   on the first draw of a new move) and remembers the view. Returns `{ ui, fresh, newPly }`:
 *   `fresh`, a view not drawn before (a move, or an error sent with the state again);
 *   `newPly`, a view of another move, where the board starts its choice again.
 * - `redraw(root, ctx)`: draw again, through the app when it can.
 * - `ownKeys(root, ctx)`: arrows, Enter and Escape when the board is drawn without the app
 *   (no ctx.ui); the app owns a BoardKeys of its own.
 */
export function boardUi({ render, cancel }) {
  const fallback = new WeakMap(); // root -> ui, while the app does not hand us ctx.ui
  const own = new WeakMap(); // root -> { keys, ctx, focus } of the board's own keyboard

  function redraw(root, ctx) {
    if (ctx.redraw) { ctx.redraw(); return; }
    root.replaceChildren();
    render(root, ctx);
  }

  function begin(root, ctx) {
    let ui = ctx.ui;
    if (!ui) {
      if (!fallback.has(root)) fallback.set(root, {});
      ui = fallback.get(root);
    }
    ctx.__ui = ui;
    const v = ctx.view;
    const fresh = ui.view !== v;
    const newPly = fresh && ui.ply !== v.ply;
    ui.animate = newPly && ui.view !== undefined;
    if (fresh) {
      ui.ply = v.ply;
      ui.view = v;
    }
    return { ui, fresh, newPly };
  }

  function ownKeys(root, ctx) {
    if (ctx.ui) return;
    let mine = own.get(root);
    if (!mine) {
      mine = { ctx, focus: false };
      mine.keys = new BoardKeys(root, { onEscape: () => { const c = mine.ctx; if (c && cancel(c)) redraw(root, c); } });
      own.set(root, mine);
      root.addEventListener("focusin", () => { mine.focus = true; });
      root.addEventListener("focusout", (e) => { if (e.relatedTarget && !root.contains(e.relatedTarget)) mine.focus = false; });
    }
    mine.ctx = ctx;
    mine.keys.refresh({ focus: mine.focus });
  }

  return { begin, redraw, ownKeys };
}
