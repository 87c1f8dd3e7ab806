# Two commands for a fresh clone (see README): `make play` and `make test`.
# Each sets up the virtual environment in .venv on first use. `make play` installs
# only what playing needs (the core dependencies: about 50 MB, under 20 s on
# this machine); `make test` adds the test tools and the research extras on top.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PLAY_STAMP := $(VENV)/.installed-play
TEST_STAMP := $(VENV)/.installed-test
# The venv gets a current pip before anything else: pip 25 and later resolve this project's
# dependencies in half the CPU of the pip 23 that Python 3.11 bundles (link evaluation over
# the configured indexes: 11.7 s against 6.9 s here), which pays for the 2 s of installing
# it. When the Python that makes the venv has pip 22.3 or later, that pip installs it
# (`--python`), so the venv is made without ensurepip (0.2 s of CPU instead of 6);
# otherwise ensurepip's pip upgrades itself. flit_core, the build backend, comes with it, so
# that the editable install builds without an isolated environment of its own (pip would
# make one and resolve flit_core into it: about a second). --no-build-isolation holds for
# every package pip builds, and the venv has no setuptools: where a dependency has no wheel
# for the platform, the install is tried again with isolation.
OUTER_PIP := $(shell $(PYTHON) -c "import sys, pip; v = pip.__version__.split('.'); \
	sys.exit((int(v[0]), int(v[1])) < (22, 3))" 2>/dev/null && echo yes)
ifeq ($(OUTER_PIP),yes)
VENV_FLAGS := --without-pip
BOOTSTRAP_PIP := $(PYTHON) -m pip --python $(BIN)/python
else
VENV_FLAGS :=
BOOTSTRAP_PIP := $(BIN)/python -m pip
endif
# installs into the venv; an index without pip 25.1+ still gets a venv, with whatever pip it has
BOOTSTRAP = $(BOOTSTRAP_PIP) install --quiet --disable-pip-version-check --no-compile
# the build backend of pyproject.toml's [build-system] (a test checks they agree)
BACKEND := 'flit_core>=3.12,<4'
PIP := $(BIN)/python -m pip
PIP_INSTALL := $(PIP) install --quiet --disable-pip-version-check
TEST_EXTRAS := [dev,fast,rl,openspiel,pysol,solver,postgres,cluster]

.PHONY: play test lint typecheck bench clean i18n golden

# Makefile too: a change to an install line reinstalls existing venvs.
$(PLAY_STAMP): pyproject.toml Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(BOOTSTRAP) 'pip>=25.1,<27' $(BACKEND) || $(BOOTSTRAP) pip $(BACKEND)
	$(PIP_INSTALL) --no-compile --no-build-isolation -e . || $(PIP_INSTALL) --no-compile -e .
	touch $(PLAY_STAMP)

$(TEST_STAMP): $(PLAY_STAMP)
	$(PIP_INSTALL) --no-build-isolation -e '.$(TEST_EXTRAS)' || $(PIP_INSTALL) -e '.$(TEST_EXTRAS)'
	touch $(TEST_STAMP)

# ARGS go to the server, e.g. make play ARGS="--port 8080"
# The server may write its byte code even where PYTHONDONTWRITEBYTECODE is set (as on
# this machine): the play install is not compiled (see above), so without that every
# start would compile the server's modules again (10 s instead of 1).
play: $(PLAY_STAMP)
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pyramids serve $(ARGS)

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(TEST_STAMP)
	$(BIN)/mypy --strict src

test: lint typecheck
	$(BIN)/python -m pytest -n 2 tests

# Rewrite the golden playthroughs after an intended rules change (then read git diff tests/golden).
golden: $(PLAY_STAMP)
	$(BIN)/python -m pyramids.engine.playthrough tests/golden/*.txt

# Extract the messages of the code into the catalogs, update every language, compile them.
i18n: $(TEST_STAMP)
	$(BIN)/python -m pyramids.i18n.build

bench: $(TEST_STAMP)
	$(BIN)/python -m benchmarks $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
