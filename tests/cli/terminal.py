"""A pseudo-terminal around ``python -m pyramids``: what a person at a real terminal sees.

Why a pty rather than Typer's test runner: line editing, Tab completion, the
hot-seat scrollback clear, Ctrl-C and Ctrl-D only exist on a terminal, and
Rich draws differently on one (colours, full width). The helper keeps the raw
output (to check escape sequences) and a copy with the escapes removed (to
read the words), and waits for text instead of sleeping.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from collections.abc import Mapping
from pathlib import Path

import pexpect

#: CSI sequences (colours, cursor, bracketed paste), OSC titles, and carriage returns
ESCAPES = re.compile(
    r"\x1b\[[0-9;?<=>]*[ -/]*[@-~]"  # CSI: colours, cursor moves, bracketed paste
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: window titles
    r"|\x1b[()][0-9A-B]|\x1b[=>]|\r"
)


def _default_signals() -> None:
    """In the child before it starts: Ctrl-C and Ctrl-\\ do what they do at a shell prompt.

    Why: a shell without job control (a script, CI, ``make test &``) starts
    background commands with SIGINT and SIGQUIT ignored, everything they start
    inherits that, and Python installs its ``KeyboardInterrupt`` handler only
    when SIGINT is not ignored. The program under test would then not hear
    Ctrl-C at all (the Ctrl-C test failed in every background run, and only
    there), while a person's shell gives the program it runs the defaults.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


class Terminal:
    """``pyramids ARGS`` on a 120x60 pseudo-terminal, in English unless ``--lang`` says.

    The environment is a clean one (``env`` adds to it), but ``PYTHONPATH``
    is kept, so that a checkout put first on the path is the one tested.
    """

    def __init__(
        self,
        home: Path,
        *args: str,
        timeout: float = 15.0,
        env: Mapping[str, str] | None = None,
    ) -> None:
        clean = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "INPUTRC": "/dev/null",
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        if "PYTHONPATH" in os.environ:
            clean["PYTHONPATH"] = os.environ["PYTHONPATH"]
        clean.update(env or {})
        self.timeout = timeout
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "pyramids", *args],
            cwd=str(home),
            env=clean,
            encoding="utf-8",
            codec_errors="replace",
            dimensions=(60, 120),
            timeout=timeout,
            preexec_fn=_default_signals,
        )
        self.raw = ""
        self.text = ""
        self._pending = ""
        self.pos = 0
        self.raw_pos = 0

    def _read(self) -> bool:
        """Read what the program wrote so far; False once it has exited and all is read."""
        try:
            chunk = self.child.read_nonblocking(65536, timeout=0.05)
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            self._clean(final=True)
            return False
        self.raw += chunk
        self._pending += chunk
        self._clean()
        return True

    def _clean(self, final: bool = False) -> None:
        """Move the pending raw output into ``text``, escapes removed (a cut escape waits)."""
        cut = self._pending.rfind("\x1b")
        if not final and cut >= 0 and not ESCAPES.match(self._pending, cut):
            ready, self._pending = self._pending[:cut], self._pending[cut:]
        else:
            ready, self._pending = self._pending, ""
        self.text += ESCAPES.sub("", ready)

    def expect(self, wanted: str) -> str:
        """Wait until ``wanted`` is shown after what was already read; return the text up to it."""
        deadline = time.monotonic() + self.timeout
        while True:
            found = self.text.find(wanted, self.pos)
            if found >= 0:
                seen = self.text[self.pos : found + len(wanted)]
                self.pos = found + len(wanted)
                self.raw_pos = len(self.raw)
                return seen
            alive = self._read()
            if not alive or time.monotonic() > deadline:
                if self.text.find(wanted, self.pos) >= 0:
                    continue
                tail = self.text[self.pos :][-3000:]
                raise AssertionError(
                    f"{wanted!r} not shown; the screen after the last match:\n{tail}"
                )

    def prompt(self, name: str = "Player 1") -> str:
        """Wait for the prompt of ``name``; return what was shown before it."""
        return self.expect(f"{name}> ")

    def send(self, line: str) -> None:
        """Type ``line`` and Enter."""
        self.child.send(line + "\r")

    def type(self, keys: str) -> None:
        """Type keys without Enter (e.g. ``"dr\\t"`` to complete)."""
        self.child.send(keys)

    def interrupt(self) -> None:
        """Ctrl-C at the prompt, as a person presses it: not in the instant the prompt shows.

        A Ctrl-C sent the very moment the prompt appears can be lost while readline
        is still setting the terminal up (seen about one run in three); no person
        is that fast, so the test waits as briefly as a person would.
        """
        time.sleep(0.3)
        self.child.sendintr()

    def wait_exit(self) -> int:
        """Read to the end; the exit status (128 + n for a signal)."""
        deadline = time.monotonic() + self.timeout
        while self._read():
            if time.monotonic() > deadline:
                raise AssertionError("the program did not exit:\n" + self.text[-2000:])
        self.child.close()
        if self.child.exitstatus is not None:
            return int(self.child.exitstatus)
        return 128 + int(self.child.signalstatus or 0)

    def close(self) -> None:
        """Stop the program if it still runs (end of a test, or a failed one)."""
        if self.child.isalive():
            self.child.terminate(force=True)
