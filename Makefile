# Two commands for a fresh clone (see README): `make play` and `make test`.
# Each creates the virtual environment in .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck bench clean i18n

# Makefile too: a change to the install line (a new extra) reinstalls existing venvs.
$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,rl,openspiel,pysol,postgres]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/pyramids serve

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

test: lint typecheck
	$(BIN)/python -m pytest -n 2 tests

# Extract the messages of the code into the catalogs, update every language, compile them.
i18n: $(STAMP)
	$(BIN)/python -m pyramids.i18n.build

bench: $(STAMP)
	$(BIN)/python -m benchmarks $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
