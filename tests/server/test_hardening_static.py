"""The web app's files (``docs/server.md``, *Static files*): compressed, cached for a
year at versioned addresses that change with every release, revalidated elsewhere."""

from __future__ import annotations

import gzip
import re
import shutil
from pathlib import Path

import httpx

from pyramids.server.routes.pages import WEB_DIR
from pyramids.server.static import web_version
from tests.server.conftest import LiveServer

YEAR = 365 * 24 * 3600


def _versioned(live: LiveServer) -> tuple[str, str]:
    page = httpx.get(f"{live.url}/").text
    script = re.search(r'src="(/static/v-[0-9a-f]{12}/app\.js)"', page)
    style = re.search(r'href="(/static/v-[0-9a-f]{12}/style\.css)"', page)
    assert script and style, page[:500]
    return script.group(1), style.group(1)


def test_the_page_names_its_files_by_version_and_is_revalidated(live: LiveServer) -> None:
    r = httpx.get(f"{live.url}/")
    assert r.headers["cache-control"] == "no-cache"
    script, _ = _versioned(live)
    assert script.startswith(f"/static/v-{web_version(WEB_DIR)}/")
    assert "/static/app.js" not in r.text


def test_versioned_files_are_cached_for_a_year(live: LiveServer) -> None:
    script, style = _versioned(live)
    for path, name in ((script, "app.js"), (style, "style.css")):
        r = httpx.get(f"{live.url}{path}")
        assert r.status_code == 200 and r.content == (WEB_DIR / name).read_bytes()
        control = r.headers["cache-control"]
        assert "immutable" in control
        assert int(re.search(r"max-age=(\d+)", control).group(1)) >= YEAR  # type: ignore[union-attr]
    # a module the page imports by relative address stays under the same version
    lobby = script.replace("app.js", "lobby.js")
    assert "immutable" in httpx.get(f"{live.url}{lobby}").headers["cache-control"]


def test_other_versions_and_plain_addresses_are_never_cached_stale(live: LiveServer) -> None:
    assert httpx.get(f"{live.url}/static/v-000000000000/app.js").status_code == 404
    r = httpx.get(f"{live.url}/static/app.js")
    assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
    again = httpx.get(f"{live.url}/static/app.js", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304


def test_files_are_compressed_for_clients_that_accept_it(live: LiveServer) -> None:
    script, _ = _versioned(live)
    raw = httpx.get(
        f"{live.url}{script}", headers={"Accept-Encoding": "gzip"}, follow_redirects=True
    )
    assert raw.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in raw.headers["vary"].lower()
    body = (WEB_DIR / "app.js").read_bytes()
    with httpx.stream("GET", f"{live.url}{script}", headers={"Accept-Encoding": "gzip"}) as s:
        wire = b"".join(s.iter_raw())
    assert gzip.decompress(wire) == body and len(wire) < len(body) / 2
    plain = httpx.get(f"{live.url}{script}", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == body
    # the API is never compressed (its answers carry seat tokens)
    api = httpx.get(f"{live.url}/api/games", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in api.headers


def test_the_version_changes_with_any_file(tmp_path: Path) -> None:
    copy = tmp_path / "web"
    shutil.copytree(WEB_DIR, copy)
    before = web_version(copy)
    assert before == web_version(WEB_DIR)
    other = tmp_path / "web2"
    shutil.copytree(WEB_DIR, other)
    (other / "app.js").write_bytes((other / "app.js").read_bytes() + b"\n// next release\n")
    assert web_version(other) != before
    third = tmp_path / "web3"
    shutil.copytree(WEB_DIR, third)
    (third / "boards" / "new.js").write_text("export {};\n")
    assert web_version(third) != before
