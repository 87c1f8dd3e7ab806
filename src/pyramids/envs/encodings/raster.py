"""Tiny raster drawing for ``rgb_array`` rendering, with numpy only.

Why not the SVG renderer: rasterising SVG needs a heavy native dependency
(cairo, a browser) that research users should not need to install for an
optional image. These helpers draw filled rectangles and a 3x5 pixel font,
which is enough for cards and counters; :func:`observation_image` is the
fallback for a game without its own picture (its observation vector as a grid
of grey cells, so an ``rgb_array`` frame always shows the same information
the agent gets).
"""

from __future__ import annotations

import math

import numpy as np

from pyramids.envs.encodings.base import FloatArray, GameCodec, ImageArray, View

Colour = tuple[int, int, int]

# 3x5 glyphs, rows top to bottom, '#' = ink.
_GLYPHS: dict[str, tuple[str, ...]] = {
    "A": (".#.", "#.#", "###", "#.#", "#.#"),
    "J": ("..#", "..#", "..#", "#.#", ".#."),
    "Q": (".#.", "#.#", "#.#", "##.", ".##"),
    "K": ("#.#", "##.", "#..", "##.", "#.#"),
    "T": ("###", ".#.", ".#.", ".#.", ".#."),
    "*": ("#.#", ".#.", "###", ".#.", "#.#"),
    "?": ("##.", "..#", ".#.", "...", ".#."),
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("##.", "..#", ".#.", "#..", "###"),
    "3": ("##.", "..#", ".#.", "..#", "##."),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "##.", "..#", "##."),
    "6": (".##", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", ".#.", ".#.", ".#."),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "##."),
    "-": ("...", "...", "###", "...", "..."),
    " ": ("...", "...", "...", "...", "..."),
}


def canvas(height: int, width: int, colour: Colour) -> ImageArray:
    """A new image filled with ``colour``."""
    img: ImageArray = np.empty((height, width, 3), dtype=np.uint8)
    img[:, :] = colour
    return img


def rect(img: ImageArray, top: int, left: int, height: int, width: int, colour: Colour) -> None:
    """Fill a rectangle (clipped to the image)."""
    img[max(top, 0) : max(top + height, 0), max(left, 0) : max(left + width, 0)] = colour


def text(img: ImageArray, top: int, left: int, s: str, colour: Colour, scale: int = 2) -> None:
    """Draw ``s`` with the 3x5 font; characters it lacks are drawn as '?'."""
    x = left
    for ch in s.upper():
        glyph = _GLYPHS.get(ch, _GLYPHS["?"])
        for r, row in enumerate(glyph):
            for c, px in enumerate(row):
                if px == "#":
                    rect(img, top + r * scale, x + c * scale, scale, scale, colour)
        x += 4 * scale


def observation_image(obs: FloatArray, cell: int = 6) -> ImageArray:
    """The observation vector as a near-square grid of grey cells (white = 1.0)."""
    n = max(int(obs.size), 1)
    cols = math.ceil(math.sqrt(n))
    rows = math.ceil(n / cols)
    grid = np.zeros(rows * cols, dtype=np.float32)
    grid[: obs.size] = np.clip(obs.ravel(), 0.0, 1.0)
    grey = (grid.reshape(rows, cols) * 255).astype(np.uint8)
    big = np.kron(grey, np.ones((cell, cell), dtype=np.uint8))
    out: ImageArray = np.repeat(big[:, :, None], 3, axis=2)
    return out


def view_image(codec: GameCodec, view: View) -> ImageArray:
    """The ``rgb_array`` frame of a view: the game's own drawing, else its observation grid."""
    if codec.raster is not None:
        return codec.raster(view)
    return observation_image(codec.observations.encode(view))
