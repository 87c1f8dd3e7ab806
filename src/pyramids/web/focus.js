// Keyboard play on a board: arrow keys move between the things the player can act on now,
// Enter (or Space) acts, Escape cancels a selection, and focus survives a redraw.
//
// Boards mark each thing that can be acted on with `actionable(node, key, label, action)`;
// covered cards and dead targets simply are not marked, so the arrows skip them. Why by
// geometry: every board has its own shape (a pyramid, a grid, a row of stacks), and "the
// nearest actionable thing to the right" is what a player expects on all of them.

/** Mark a board element as actionable: focusable, labelled, and acting on click or Enter. */
export function actionable(node, key, label, action) {
  node.setAttribute("tabindex", "-1");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.dataset.act = key;
  node.classList.add("hit");
  node.addEventListener("click", (e) => { e.stopPropagation(); action(); });
  node.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); action(); }
  });
  return node;
}

function centre(node) {
  const r = node.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

const DIRECTIONS = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/** The actionable element nearest to `from` in direction (dx, dy), or null. */
export function nearest(items, from, dx, dy) {
  const a = centre(from);
  let best = null;
  let bestScore = Infinity;
  for (const node of items) {
    if (node === from) continue;
    const b = centre(node);
    const along = (b.x - a.x) * dx + (b.y - a.y) * dy;
    if (along <= 1) continue;
    const across = Math.abs((b.x - a.x) * dy) + Math.abs((b.y - a.y) * dx);
    const score = along + 2 * across;
    if (score < bestScore) { bestScore = score; best = node; }
  }
  return best;
}

/**
 * One keyboard controller per board root. Exactly one actionable element is in the tab
 * order (roving tabindex), so Tab enters the board once and the arrows move inside it.
 */
export class BoardKeys {
  constructor(root, { onEscape } = {}) {
    this.root = root;
    this.onEscape = onEscape || (() => {});
    this.lastKey = null;
    this.handler = (e) => this.keydown(e);
    root.addEventListener("keydown", this.handler);
    root.addEventListener("focusin", (e) => {
      const key = e.target?.dataset?.act;
      if (key) this.lastKey = key;
    });
  }

  items() {
    return [...this.root.querySelectorAll("[data-act]")].filter((n) => n.getAttribute("aria-disabled") !== "true");
  }

  /** After a redraw: put the roving tabindex (and focus, if the board had it) back. */
  refresh({ focus = false } = {}) {
    const items = this.items();
    if (!items.length) return;
    const target = items.find((n) => n.dataset.act === this.lastKey) || items[0];
    for (const n of items) n.setAttribute("tabindex", n === target ? "0" : "-1");
    if (focus) target.focus({ preventScroll: true });
  }

  /** Is keyboard focus somewhere inside the board (or was it on the board before a redraw)? */
  owns(active = document.activeElement) {
    return this.root.contains(active) || active === document.body || active === null;
  }

  keydown(e) {
    if (e.key === "Escape") { this.onEscape(); e.preventDefault(); return; }
    const dir = DIRECTIONS[e.key];
    if (!dir) return;
    const items = this.items();
    if (!items.length) return;
    const from = items.includes(document.activeElement) ? document.activeElement : null;
    const next = from ? nearest(items, from, dir[0], dir[1]) : items[0];
    e.preventDefault();
    if (!next) return;
    for (const n of items) n.setAttribute("tabindex", n === next ? "0" : "-1");
    this.lastKey = next.dataset.act;
    next.focus();
  }

  close() {
    this.root.removeEventListener("keydown", this.handler);
  }
}
