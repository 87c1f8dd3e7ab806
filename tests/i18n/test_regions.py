"""Portuguese is Brazilian: named so, and European Portuguese readers get it on purpose."""

from __future__ import annotations

import re
from pathlib import Path

from pyramids.i18n import REGIONS, from_environment, negotiate

WEB = Path(__file__).resolve().parents[2] / "src" / "pyramids" / "web" / "i18n.js"


def test_the_portuguese_catalog_is_named_brazilian() -> None:
    assert REGIONS["pt"] == "BR"
    names = dict(re.findall(r'\{ code: "(\w+)", name: "([^"]+)" \}', WEB.read_text()))
    assert names["pt"] == "Português (Brasil)"


def test_european_portuguese_readers_get_the_brazilian_catalog() -> None:
    assert negotiate("pt-PT,pt;q=0.9,en;q=0.5") == "pt"
    assert negotiate("pt-BR") == "pt"
    assert from_environment({"LANG": "pt_PT.UTF-8"}) == "pt"
    assert from_environment({"LANG": "pt_BR.UTF-8"}) == "pt"
