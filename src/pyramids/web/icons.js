// Small SVG icons for buttons: drawn, not font glyphs, so they never render as empty boxes.

import { svg } from "./util.js";

const PATHS = {
  first: "M5 4h2v16H5zM20 4v16L9 12z",
  prev: "M17 4v16L6 12z",
  next: "M7 4v16l11-8z",
  last: "M17 4h2v16h-2zM4 4v16l11-8z",
  sound: "M4 9h4l5-4v14l-5-4H4zM16 8q3 4 0 8M18.5 5.5q5.5 6.5 0 13",
  mute: "M4 9h4l5-4v14l-5-4H4zM16 9l6 6M22 9l-6 6",
};

/** An icon (24x24 viewBox) for a button; the button carries the accessible name. */
export function icon(name) {
  const stroke = name === "sound" || name === "mute";
  return svg("svg", { class: "icon", viewBox: "0 0 24 24", width: 20, height: 20, "aria-hidden": "true", focusable: "false" },
    svg("path", stroke
      ? { d: PATHS[name], fill: "currentColor", stroke: "currentColor", "stroke-width": 1.6, "stroke-linejoin": "round" }
      : { d: PATHS[name], fill: "currentColor" }));
}
