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
        """Ctrl-C at the prompt: the SIGINT the key raises, again if the first shows nothing.

        Why again: CPython's readline checks for a signal only when its wait for
        a key is interrupted, so a SIGINT that lands while readline is still busy
        drawing the prompt is held until the next key (seen under load, about
        one run in three when sent the instant the prompt showed). A person whose
        Ctrl-C did nothing presses it again; the second signal interrupts the
        wait and both become one ``KeyboardInterrupt``. It is sent only when
        the program has written nothing for two seconds, so it cannot land in
        the answer to the first. The signal goes to the process itself rather
        than through the terminal, whose echo of ``^C`` would look like an answer.
        """
        time.sleep(0.3)
        for _ in range(5):
            shown = len(self.raw)
            self.child.kill(signal.SIGINT)
            deadline = time.monotonic() + 2.0
            while time.monotonic() < deadline:
                if not self._read() or len(self.raw) > shown:
                    return

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
