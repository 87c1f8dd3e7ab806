"""The terminal face of Pyramids (Typer + Rich)."""
