"""The lock files in requirements/: what `make play` and `make test` install.

A fresh clone must install the same versions today and next month, so each lock pins every
package to one version and every file to its hash (pip's ``--require-hashes``). These tests
keep the locks whole: they cover pyproject.toml's dependencies within its ranges, the play
lock agrees with the test lock, the bootstrap lock holds the build backend, the Makefile
installs from them, and the environment the suite runs in is the locked one.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCKS = ROOT / "requirements"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
MAKEFILE = (ROOT / "Makefile").read_text()
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)")


def pins(name: str) -> dict[str, str]:
    """The lock's versions by canonical package name."""
    found: dict[str, str] = {}
    for line in (LOCKS / name).read_text().splitlines():
        m = PIN.match(line)
        if m:
            found[canonicalize_name(m.group(1))] = m.group(2).rstrip(" \\")
    return found


def make_test_extras() -> list[str]:
    """The extras `make test` installs, as the Makefile names them."""
    found = re.search(r"^TEST_EXTRAS := (\S+)$", MAKEFILE, re.M)
    assert found is not None, "the Makefile names no TEST_EXTRAS"
    return found.group(1).split(",")


@pytest.mark.parametrize("lock", ["bootstrap.txt", "play.txt", "test.txt"])
def test_every_package_is_pinned_and_every_pin_hashed(lock: str) -> None:
    entries = re.split(r"\n(?=[A-Za-z0-9])", (LOCKS / lock).read_text())
    entries = [e for e in entries if e and not e.startswith("#")]
    assert entries, f"{lock} pins nothing"
    for entry in entries:
        assert PIN.match(entry), f"{lock}: not an exact pin: {entry.splitlines()[0]}"
        assert "--hash=sha256:" in entry, f"{lock}: no hash for {entry.splitlines()[0]}"


def _check_covered(requirements: list[str], locked: dict[str, str], lock: str) -> None:
    for text in requirements:
        req = Requirement(text)
        name = canonicalize_name(req.name)
        assert name in locked, f"{lock} lacks {req.name}"
        assert req.specifier.contains(locked[name], prereleases=True), (
            f"{lock} pins {req.name}=={locked[name]}, outside pyproject's {req.specifier}"
        )


def test_the_play_lock_covers_the_core_dependencies_within_their_ranges() -> None:
    _check_covered(PYPROJECT["project"]["dependencies"], pins("play.txt"), "play.txt")


def test_the_test_lock_covers_every_extra_make_test_installs() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    wanted = list(PYPROJECT["project"]["dependencies"])
    for extra in make_test_extras():
        assert extra in extras, f"the Makefile's TEST_EXTRAS names an unknown extra {extra}"
        wanted += extras[extra]
    _check_covered(wanted, pins("test.txt"), "test.txt")


def test_the_play_lock_agrees_with_the_test_lock() -> None:
    """`make test` installs test.txt over play.txt: a package must not change version."""
    play, test = pins("play.txt"), pins("test.txt")
    differ = {n: (v, test.get(n)) for n, v in play.items() if test.get(n) != v}
    assert not differ, f"play.txt and test.txt disagree (play, test): {differ}"


def test_the_bootstrap_lock_holds_the_build_backend_and_a_current_pip() -> None:
    """The editable install builds without isolation: the venv needs pyproject's backend."""
    backend = [Requirement(r) for r in PYPROJECT["build-system"]["requires"]]
    boot = pins("bootstrap.txt")
    named = [
        Requirement(line)
        for line in (LOCKS / "bootstrap.in").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    for req in backend:
        assert str(req) in {str(r) for r in named}, f"bootstrap.in lacks {req}"
        assert req.specifier.contains(boot[canonicalize_name(req.name)])
    assert "pip" in boot
    assert pins("test.txt").get("flit-core") in (None, boot["flit-core"])


def test_the_makefile_installs_every_package_from_a_lock_by_hash() -> None:
    locked = re.search(r"^LOCKED := (.*)$", MAKEFILE, re.M)
    assert locked is not None and "--require-hashes -r" in locked.group(1)
    for lock in ("bootstrap.txt", "play.txt", "test.txt"):
        assert re.search(rf"\$\(LOCKED\) \$\(LOCKS\)/{re.escape(lock)}", MAKEFILE), lock
    # the project itself comes without its dependencies: they are the locks' alone
    self_install = re.search(r"^SELF := (.*)$", MAKEFILE, re.M)
    assert self_install is not None and "--no-deps" in self_install.group(1)
    assert not re.search(r"pip install[^\n]*-e '?\.\[", MAKEFILE), "an unlocked install"


@pytest.mark.skipif(
    bool(os.environ.get("PYRAMIDS_UNLOCKED")), reason="make test-latest runs unlocked on purpose"
)
def test_the_suite_runs_on_the_locked_versions() -> None:
    """What `make test` tests is what the locks say (an old venv is reinstalled, not reused)."""
    wrong = {}
    for name, version in pins("test.txt").items():
        try:
            have = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            have = None
        if have != version:
            wrong[name] = (version, have)
    assert not wrong, f"installed versions differ from requirements/test.txt (lock, here): {wrong}"
