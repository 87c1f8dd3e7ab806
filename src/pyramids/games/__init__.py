"""The four games, one package each; they import the engine and nothing above it."""
