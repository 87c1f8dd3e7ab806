// Small DOM and SVG helpers shared by the pages and the boards (no framework, no build step).

const SVG_NS = "http://www.w3.org/2000/svg";

/** Create an HTML element: el("button", {class: "x", onclick: f}, "text", child). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

/** Create an SVG element with attributes and children. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "text") {
      node.textContent = value;
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

/** node.append(...) that skips null/undefined/false (the DOM would print "null"). */
export function add(node, ...children) {
  append(node, children);
  return node;
}

/** node.replaceChildren(...) that skips null/undefined/false. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * Squeeze each SVG label marked `data-fit="<width>"` into that width (drawing units).
 * Why: a label's length depends on the language (Czech "hromádka 1 · 22" is a third
 * longer than "stack 1 · 22"), and a label wider than its slot runs into its
 * neighbour's. Call it once the drawing is in the page: text is measured as rendered.
 */
export function fitLabels(root) {
  for (const text of root.querySelectorAll("text[data-fit]")) {
    const width = Number(text.dataset.fit);
    text.removeAttribute("textLength");
    if (text.getComputedTextLength() > width) {
      text.setAttribute("textLength", String(width));
      text.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }
}

/**
 * Make an SVG or HTML element act as a button: focusable, Enter/Space activate it.
 * Why: the boards are drawn in SVG but must be playable by keyboard.
 */
export function clickable(node, label, action) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.classList.add("hit");
  node.addEventListener("click", (e) => { e.stopPropagation(); action(); });
  node.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); action(); }
  });
  return node;
}

let toastTimer = null;
/** Show a short message at the bottom of the screen (errors in red). */
export function toast(text, kind = "info") {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = text;
  box.className = `show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.className = ""; }, kind === "error" ? 6000 : 3000);
}

/** Title-case a word list id like "sacred-dog" -> "Sacred dog". */
export function pretty(id) {
  const s = String(id).replace(/[-_]/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// -- the games this browser knows (tokens of its seats), kept in localStorage ---------

const KEY = "pyramids.rooms";

export function myRooms() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}

export function rememberRoom(room, info) {
  const all = myRooms();
  const old = all[room] || { tokens: {}, links: {} };
  all[room] = {
    ...old, ...info,
    tokens: { ...old.tokens, ...(info.tokens || {}) },
    links: { ...old.links, ...(info.links || {}) },
  };
  localStorage.setItem(KEY, JSON.stringify(all));
  return all[room];
}

export function forgetRoom(room) {
  const all = myRooms();
  delete all[room];
  localStorage.setItem(KEY, JSON.stringify(all));
}

/**
 * Mark `wrap` with `scrolls` while `box` is wider than it shows, and `at-end` once it is
 * scrolled to its right end, so that the style sheet can say that more follows (a shadow on
 * the cut edge, a "scroll" hint). Kept up to date as the box is resized or scrolled.
 */
export function markScroll(box, wrap = box) {
  const update = () => {
    const more = box.scrollWidth - box.clientWidth > 1;
    wrap.classList.toggle("scrolls", more);
    wrap.classList.toggle("at-end", more && box.scrollLeft + box.clientWidth >= box.scrollWidth - 1);
  };
  box.addEventListener("scroll", update, { passive: true });
  if (typeof ResizeObserver === "function") new ResizeObserver(update).observe(box);
  requestAnimationFrame(update);
}
