# Two commands for a fresh clone (see README): `make play` and `make test`.
# Each sets up the virtual environment in .venv on first use, from the lock files in
# requirements/: exact versions, each file checked against its hash, so a new upstream
# release never changes what a fresh clone installs. `make play` installs only what playing
# needs (requirements/play.txt: the core dependencies, about 50 MB, under 20 s on this
# machine); `make test` adds the test tools and every extra (requirements/test.txt, whose
# versions agree with play.txt's: a test checks). `make lock` makes the locks anew from
# pyproject.toml's ranges; `make test-latest` runs the suite on the newest releases in a
# throw-away venv (docs/testing.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
LOCKS := requirements
PLAY_STAMP := $(VENV)/.installed-play
TEST_STAMP := $(VENV)/.installed-test
# The venv gets the locked pip and flit_core (requirements/bootstrap.txt) before anything
# else: pip 25 and later resolve in half the CPU of the pip 23 that Python 3.11 bundles, and
# flit_core, the build backend, lets the editable install build without an isolated
# environment of its own (pip would make one and fetch flit_core into it: about a second).
# When the Python that makes the venv has pip 22.3 or later, that pip installs them
# (`--python`), so the venv is made without ensurepip (0.2 s of CPU instead of 6).
OUTER_PIP := $(shell $(PYTHON) -c "import sys, pip; v = pip.__version__.split('.'); \
	sys.exit((int(v[0]), int(v[1])) < (22, 3))" 2>/dev/null && echo yes)
ifeq ($(OUTER_PIP),yes)
VENV_FLAGS := --without-pip
BOOTSTRAP_PIP := $(PYTHON) -m pip --python $(BIN)/python
else
VENV_FLAGS :=
BOOTSTRAP_PIP := $(BIN)/python -m pip
endif
QUIET := --quiet --disable-pip-version-check
PIP := $(BIN)/python -m pip
# every package from a lock, each file checked against the lock's hashes
LOCKED := install $(QUIET) --require-hashes -r
# the project itself: its dependencies come from the locks alone
SELF := install $(QUIET) --no-deps --no-build-isolation -e
TEST_EXTRAS := dev,fast,rl,openspiel,pysol,solver,postgres,cluster,plot,redis

.PHONY: play test lint typecheck bench clean i18n golden lock test-latest

# Makefile too: a change to an install line reinstalls existing venvs.
$(PLAY_STAMP): pyproject.toml Makefile $(LOCKS)/bootstrap.txt $(LOCKS)/play.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(BOOTSTRAP_PIP) $(LOCKED) $(LOCKS)/bootstrap.txt --no-compile
	$(PIP) $(LOCKED) $(LOCKS)/play.txt --no-compile
	$(PIP) $(SELF) . --no-compile
	touch $(PLAY_STAMP)

$(TEST_STAMP): $(PLAY_STAMP) $(LOCKS)/test.txt
	$(PIP) $(LOCKED) $(LOCKS)/test.txt
	touch $(TEST_STAMP)

# Make the three locks anew from pyproject.toml's ranges (and requirements/bootstrap.in),
# each version the newest that fits, each file's hash from PyPI (the machine's own pip
# configuration, such as a local mirror, is hidden so that the locks name PyPI's files).
# Read `git diff requirements` and run `make test` before committing them.
LOCK_VENV := .lock-venv
COMPILE := env -u PIP_FIND_LINKS -u PIP_INDEX_URL -u PIP_EXTRA_INDEX_URL \
	PIP_CONFIG_FILE=/dev/null $(LOCK_VENV)/bin/pip-compile --quiet --upgrade \
	--generate-hashes --allow-unsafe --strip-extras
lock:
	test -x $(LOCK_VENV)/bin/pip-compile || ($(PYTHON) -m venv $(LOCK_VENV) && \
		$(LOCK_VENV)/bin/pip install $(QUIET) 'pip-tools>=7.5,<8')
	$(COMPILE) $(foreach e,$(subst $(comma), ,$(TEST_EXTRAS)),--extra $(e)) \
		-o $(LOCKS)/test.txt pyproject.toml
	$(COMPILE) -c $(LOCKS)/test.txt -o $(LOCKS)/play.txt pyproject.toml
	$(COMPILE) -c $(LOCKS)/test.txt -o $(LOCKS)/bootstrap.txt $(LOCKS)/bootstrap.in
comma := ,

# The whole suite on the newest releases that pyproject.toml's ranges admit, in a throw-away
# venv: prints how the versions differ from the locks, then runs lint, types and tests.
# Main stays on the locks whatever this finds.
test-latest:
	PYTHON=$(PYTHON) TEST_EXTRAS=$(TEST_EXTRAS) bash $(LOCKS)/test-latest

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
	rm -rf $(VENV) $(LOCK_VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
