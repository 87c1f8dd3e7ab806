"""The web app's files: compressed, cached for a year under a versioned address.

``/static/v-HASH/...`` serves the files with ``Cache-Control: public,
max-age=31536000, immutable``, where HASH is a digest of every file's path and
content (:func:`web_version`): a new release changes it, so a browser never
uses a stale file, and until then never asks again. The page (``/``) is
served with ``no-cache`` and its ``/static/`` addresses rewritten to the
versioned ones (:func:`versioned_page`); the modules it loads import each
other by relative address, so they stay under the same version. The plain
``/static/...`` addresses (a few built by the scripts at run time) answer
``no-cache``: revalidated by their ``ETag``, never stale either.

Both are compressed by Starlette's :class:`GZipMiddleware` (answers over
500 bytes, for clients that accept gzip). Why only the static files: API
answers carry seat tokens beside text a client chose, which compression
should not mix (the BREACH attack).
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path
from typing import Any

from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Scope

#: the cache lifetime of a versioned file: a year, never revalidated
IMMUTABLE = "public, max-age=31536000, immutable"
#: the plain addresses and the page: kept, but checked with the server before each use
REVALIDATE = "no-cache"
#: answers smaller than this are sent as they are (compressing costs more than it saves)
GZIP_MINIMUM = 500


@cache
def web_version(directory: Path) -> str:
    """A digest of every file under ``directory`` (paths and contents), 12 hex digits."""
    digest = hashlib.sha256()
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        digest.update(path.relative_to(directory).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def versioned_prefix(directory: Path) -> str:
    """``/static/v-HASH`` for the files of ``directory`` as they are now."""
    return f"/static/v-{web_version(directory)}"


@cache
def versioned_page(path: Path, prefix: str) -> bytes:
    """The page at ``path`` with each ``"/static/`` address moved under ``prefix``."""
    return path.read_bytes().replace(b'"/static/', f'"{prefix}/'.encode())


class CachedFiles(StaticFiles):
    """Starlette's static files with one ``Cache-Control`` on every file they serve."""

    def __init__(self, *, directory: Path, cache_control: str, **kwargs: Any) -> None:
        super().__init__(directory=directory, **kwargs)
        self.cache_control = cache_control

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = self.cache_control
        return response


def static_files(directory: Path, cache_control: str) -> ASGIApp:
    """The files of ``directory`` with ``cache_control``, compressed."""
    return GZipMiddleware(
        CachedFiles(directory=directory, cache_control=cache_control), minimum_size=GZIP_MINIMUM
    )
