"""The server's bounds against hostile input: bounded input, message shapes, one error
format, headers, chosen seeds, rate limits. Each test is an attack that a server without
the bound it checks lets through.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pyramids.server.limits import DEFAULTS, Rate, RateLimits, address_key, parse_rate_options
from pyramids.server.protocol import MAX_BODY, MAX_DEPTH, ProtocolError
from tests.server.client import HTTP, Session, create, move, state
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.timeout(60)


def _error(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """``r`` is the documented error object with ``status`` and ``code``."""
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert set(body) >= {"error"} and "detail" not in body, body
    err: dict[str, Any] = body["error"]
    assert err["code"] == code, err
    assert isinstance(err["reason"], str) and err["reason"]
    assert isinstance(err["params"], dict)
    return err


def _post_raw(live: LiveServer, path: str, content: bytes) -> httpx.Response:
    return HTTP.post(
        f"{live.url}{path}", content=content, headers={"content-type": "application/json"}
    )


# -- input bounds ---------------------------------------------------------------------


def test_a_body_over_the_limit_is_413_before_it_is_read(live: LiveServer) -> None:
    big = b'{"game": "piramides", "x": "' + b"a" * MAX_BODY + b'"}'
    _error(_post_raw(live, "/api/rooms", big), 413, "too-large")

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it is read
        yield b'{"game": "piramides", "x": "'
        for _ in range(MAX_BODY // 1024 + 1):
            yield b"a" * 1024
        yield b'"}'

    r = HTTP.post(f"{live.url}/api/rooms", content=chunks())
    _error(r, 413, "too-large")


@pytest.mark.parametrize(
    ("content", "what"),
    [
        (b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), "nests deeper"),
        (b"[" * 1000, "nests deeper"),  # at the interpreter's recursion limit
        (b"[" * 30000, "values"),  # refused before it is parsed
        (b"[" + b"1," * 30000 + b"1]", "values"),
        (b'{"game": "piramides", "seed": 1' + b"0" * 5000 + b"}", "number"),
        (b'{"game": "piramides", "seed": 1.' + b"5" * 100 + b"}", "number"),
        (b'{"game": "piramides", "seed": NaN}', "NaN"),
        (b'{"game": "piramides", "seats": [{"name": "\\ud800"}]}', "surrogate"),
        (b'{"game": "piramides", "seats": [{"name": "a\\udfff"}]}', "surrogate"),
        # where the JSON breaks, not the parser's English sentence ("Expecting value...")
        (b'{"game": "piramides",\n "seed": }', "line 2, column 10"),
        (b'{"game": "pir\xe1mides"}', "UTF-8"),
    ],
)
def test_hostile_json_is_400_with_the_error_object(
    live: LiveServer, content: bytes, what: str
) -> None:
    err = _error(_post_raw(live, "/api/rooms", content), 400, "bad-json")
    assert what in err["reason"]
    assert "Expecting" not in err["reason"] and "codec" not in err["reason"]


@pytest.mark.parametrize("players", [10**8, 4611686018427387904, -1, 0, 5])
def test_player_counts_out_of_range_are_refused_before_anything_is_built(
    live: LiveServer, players: int
) -> None:
    r = HTTP.post(f"{live.url}/api/rooms", json={"game": "pyramideto", "players": players})
    err = _error(r, 400, "bad-request")
    assert err["rule"] == "player-count"


def test_players_as_a_float_or_text_is_refused(live: LiveServer) -> None:
    for players in (1e8, "3", True):
        r = HTTP.post(f"{live.url}/api/rooms", json={"game": "pyramideto", "players": players})
        _error(r, 400, "bad-request")


@pytest.mark.parametrize("seed", [-1, 2**53, 2**63, 2**64, 1.5, "7", True])
def test_seeds_out_of_range_are_400(live: LiveServer, seed: Any) -> None:
    r = HTTP.post(f"{live.url}/api/rooms", json={"game": "piramides", "seed": seed})
    err = _error(
        r, 400, "bad-request" if not isinstance(seed, int) or seed < 10**20 else "bad-json"
    )
    assert "seed" in err["reason"] or "number" in err["reason"]


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, "tab\there", "nul\x00", 7, ["Ana"]])
def test_bad_seat_names_are_400(live: LiveServer, name: Any) -> None:
    r = HTTP.post(f"{live.url}/api/rooms", json={"game": "piramides", "seats": [{"name": name}]})
    _error(r, 400, "bad-request")


def test_unknown_fields_of_a_new_room_are_refused(live: LiveServer) -> None:
    r = HTTP.post(f"{live.url}/api/rooms", json={"game": "piramides", "practise": True})
    err = _error(r, 400, "bad-request")
    assert "practise" in err["reason"]


def test_a_long_move_text_is_bad_message(live: LiveServer) -> None:
    room = create(live.url, game="piramides")
    r = move(live.url, room["room"], room["seats"][0]["token"], "A1" * 1000, 0)
    _error(r, 400, "bad-message")


# -- WebSocket messages of the wrong shape ------------------------------------------


def test_websocket_messages_of_the_wrong_shape_get_bad_message_and_stay_open(
    live: LiveServer,
) -> None:
    room = create(live.url, game="piramides", seed=3)
    token = room["seats"][0]["token"]

    async def run() -> None:
        async with Session(live.ws_url, room["room"], token) as s:
            snap = await s.recv()
            cases: list[tuple[Any, str]] = [
                ({"type": ["move"]}, "bad-message"),
                ({"type": {}}, "bad-message"),
                ({"type": None}, "bad-message"),
                ({"type": 7}, "bad-message"),
                ("[]", "bad-message"),
                ('"move"', "bad-message"),
                ("42", "bad-message"),
                ("null", "bad-message"),
                ({"type": "move", "move": ["G3"], "version": 0}, "bad-message"),
                ({"type": "move", "move": "G3", "version": [0]}, "bad-message"),
                ({"type": "sync", "version": {"v": 1}}, "bad-message"),
                ({"type": "chat", "text": {"x": 1}}, "bad-message"),
                ('{"type": "ping", "id": "\\ud800"}', "bad-json"),
                ('{"type": "move", "move": "\\udc00", "version": 0}', "bad-json"),
                ("[" * 5000, "bad-json"),
                ('{"type": "ping", "id": 1' + "0" * 400 + "}", "bad-json"),
                ("x" * (MAX_BODY + 1), "too-large"),
            ]
            for payload, code in cases:
                await s.send(payload)
                msg = await s.recv()
                assert msg["type"] == "error", (payload, msg)
                assert msg["error"]["code"] == code, (str(payload)[:60], msg)
            await s.ws.send(b'{"type": "ping", "id": "bytes"}')  # a binary frame works too
            assert (await s.recv())["reply_to"] == "bytes"
            # still open, and the game is untouched
            await s.send({"type": "move", "move": snap["legal"][0], "version": 0, "id": 1})
            ev = await s.until(lambda m: m.get("reply_to") == 1)
            assert ev["type"] == "event" and ev["version"] == 1

    asyncio.run(run())


# -- one error format everywhere ------------------------------------------------------


def test_framework_errors_use_the_documented_error_object(live: LiveServer) -> None:
    room = create(live.url, game="piramides", seed=1)
    rid = room["room"]
    _error(HTTP.get(f"{live.url}/api/rooms/{rid}/replay?seat=x"), 400, "bad-request")
    _error(HTTP.get(f"{live.url}/api/rooms/{rid}/replay?ply=1.5"), 400, "bad-request")
    _error(HTTP.get(f"{live.url}/api/rooms/a%2Fb/state"), 404, "not-found")
    _error(HTTP.get(f"{live.url}/api/nothing-here"), 404, "not-found")
    _error(HTTP.get(f"{live.url}/static/no-such-file.js"), 404, "not-found")
    r = HTTP.delete(f"{live.url}/api/rooms/{rid}")
    _error(r, 405, "method-not-allowed")
    assert "GET" in r.headers["allow"]
    err = _error(HTTP.get(f"{live.url}/api/rooms/{rid}/replay?seat=x&lang=es"), 400, "bad-request")
    assert err["reason"]  # worded in the request's language where a translation exists


def test_openapi_documents_every_error_response_with_the_error_object(live: LiveServer) -> None:
    schema = HTTP.get(f"{live.url}/openapi.json").json()
    assert "HTTPValidationError" not in json.dumps(schema)
    assert "ErrorResponse" in schema["components"]["schemas"]
    for path, item in schema["paths"].items():
        for method, op in item.items():
            codes = set(op["responses"])
            assert "422" not in codes or path.endswith("/moves"), (path, method)
            errors = {c for c in codes if c.startswith(("4", "5"))}
            assert "400" in errors, (path, method)
            for c in errors:
                ref = op["responses"][c]["content"]["application/json"]["schema"]["$ref"]
                assert ref.endswith("/ErrorResponse")
    create_op = schema["paths"]["/api/rooms"]["post"]
    assert {"201", "413", "429"} <= set(create_op["responses"])
    assert "requestBody" in create_op
    assert "Retry-After" in create_op["responses"]["429"]["headers"]


# -- headers --------------------------------------------------------------------------


def test_pages_carry_the_security_headers(live: LiveServer) -> None:
    page = HTTP.get(f"{live.url}/")
    csp = page.headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["script-src"] == "'self'"  # no inline script
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in directives["style-src"]
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["referrer-policy"] == "no-referrer"
    assert "<script>" not in page.text
    for path in ("/static/app.js", "/api/games"):
        r = HTTP.get(f"{live.url}{path}")
        assert r.headers["x-content-type-options"] == "nosniff"
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]


def test_answers_that_carry_seat_tokens_are_not_stored(live: LiveServer) -> None:
    r = HTTP.post(f"{live.url}/api/rooms", json={"game": "piramides"})
    assert r.status_code == 201 and r.json()["seats"][0]["token"]
    assert r.headers["cache-control"] == "no-store"
    token = r.json()["seats"][0]["token"]
    s = HTTP.get(f"{live.url}/api/rooms/{r.json()['room']}/state", params={"token": token})
    assert s.headers["cache-control"] == "no-store"


def test_the_web_app_has_no_inline_script_or_handler() -> None:
    web = Path(__file__).resolve().parents[2] / "src" / "pyramids" / "web"
    html = (web / "index.html").read_text(encoding="utf-8")
    assert "<script>" not in html and "<script " in html
    assert " onclick=" not in html and "javascript:" not in html
    for js in web.rglob("*.js"):
        text = js.read_text(encoding="utf-8")
        assert "eval(" not in text and "new Function" not in text, js


def test_docs_page_scripts_are_allowed_by_hash(live: LiveServer) -> None:
    r = HTTP.get(f"{live.url}/docs")
    assert r.status_code == 200
    assert "'sha256-" in r.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]


# -- chosen seeds ---------------------------------------------------------------------


def test_a_chosen_seed_is_refused_in_a_room_for_several(live: LiveServer) -> None:
    for seats in ([{"kind": "human"}] * 2, [{"kind": "human"}, {"agent": "random"}]):
        r = HTTP.post(
            f"{live.url}/api/rooms", json={"game": "pyramideto", "seats": seats, "seed": 5}
        )
        err = _error(r, 400, "bad-request")
        assert "practice" in err["reason"]


def test_a_practice_room_may_choose_and_every_seat_is_told(live: LiveServer) -> None:
    r = HTTP.post(
        f"{live.url}/api/rooms",
        json={"game": "pyramideto", "players": 2, "seed": 5, "practice": True},
    )
    assert r.status_code == 201, r.text
    room = r.json()
    assert room["practice"] is True and "deal" not in room
    for token in [None, *(s["token"] for s in room["seats"])]:
        assert state(live.url, room["room"], token)["practice"] is True
    assert HTTP.get(f"{live.url}/api/rooms/{room['room']}").json()["practice"] is True

    async def run() -> None:
        async with Session(live.ws_url, room["room"], room["seats"][1]["token"]) as s:
            assert (await s.recv())["practice"] is True

    asyncio.run(run())


def test_solitaire_keeps_its_deal_number_and_fair_rooms_say_so(live: LiveServer) -> None:
    solo = create(live.url, game="piramides", seed=4242)
    assert solo["deal"] == 4242 and solo["practice"] is False
    fair = create(live.url, game="pyramideto", players=2)
    assert fair["practice"] is False and "deal" not in fair


# -- rate limits ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, Any]]:
    """A server with small limits, and a solitaire room made before any test spent them."""
    rates = dict(DEFAULTS)
    rates.update(
        {
            "moves-per-connection": Rate(3, 60),
            "moves-per-address": Rate(5, 60),
            "rooms-per-address": Rate(6, 60),
            "messages-per-connection": Rate(40, 60),
        }
    )
    server = LiveServer(
        tmp_path_factory.mktemp("limits") / "limits.db", rate_limits=RateLimits(rates)
    ).start()
    room = create(server.url, game="piramides")
    yield server, room
    server.stop()


def test_room_creation_is_limited_per_address_with_retry_after(limited: Any) -> None:
    server, _room = limited
    codes = []
    for _ in range(8):
        r = HTTP.post(f"{server.url}/api/rooms", json={"game": "piramides"})
        codes.append(r.status_code)
    assert codes == [201] * 5 + [429] * 3, codes
    err = _error(r, 429, "rate-limited")
    assert int(r.headers["retry-after"]) >= 1 and err["retry_after"] >= 1


def test_moves_are_limited_per_connection_and_per_address(limited: Any) -> None:
    limited, room = limited
    rid, token = room["room"], room["seats"][0]["token"]

    async def run() -> None:
        async with Session(limited.ws_url, rid, token) as s:
            snap = await s.recv()
            version = snap["version"]
            outcomes = []
            for k in range(5):
                await s.send({"type": "move", "move": "draw", "version": version, "id": k})
                msg = await s.until(lambda m, k=k: m.get("reply_to") == k)
                outcomes.append(msg["type"])
                if msg["type"] == "event":
                    version = msg["version"]
                else:
                    assert msg["error"]["code"] == "rate-limited"
                    assert msg["error"]["retry_after"] >= 1
            assert outcomes == ["event"] * 3 + ["error"] * 2
            # a refused move changed nothing
            assert state(limited.url, rid, token)["version"] == version

        # another connection of the same seat has its own bucket, the address shares one
        async with Session(limited.ws_url, rid, token) as s:
            snap = await s.recv()
            version = snap["version"]
            results = []
            for k in range(4):
                await s.send({"type": "move", "move": "draw", "version": version, "id": k})
                msg = await s.until(lambda m, k=k: m.get("reply_to") == k)
                results.append(msg["type"])
                version = msg.get("version", version)
            assert results.count("event") >= 1 and results[-1] == "error"

    asyncio.run(run())
    r = move(limited.url, rid, token, "draw", state(limited.url, rid, token)["version"])
    _error(r, 429, "rate-limited")
    assert "retry-after" in r.headers


def test_rate_limit_options_parse_and_refuse_nonsense() -> None:
    rates = parse_rate_options(["moves-per-address=600/10", "hints-per-address=off"])
    assert rates["moves-per-address"] == Rate(600, 10.0) and rates["hints-per-address"] is None
    assert all(r is None for r in parse_rate_options(["off"]).values())
    for bad in ("moves=1/1", "moves-per-address=0/10", "moves-per-address=5", "x"):
        with pytest.raises(ValueError):
            parse_rate_options([bad])
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff") == "2001:db8::/64"
    assert address_key("::ffff:10.0.0.1") == "10.0.0.1"


def test_a_refusal_spends_nothing_and_buckets_refill() -> None:
    limits = RateLimits({"moves-per-connection": Rate(2, 10), "moves-per-address": Rate(3, 10)})
    own: dict[str, Any] = {}
    limits.check("moves", "1.2.3.4", own, now=0.0)
    limits.check("moves", "1.2.3.4", own, now=0.0)
    with pytest.raises(ProtocolError) as e:
        limits.check("moves", "1.2.3.4", own, now=0.0)
    assert e.value.code == "rate-limited" and e.value.extra["retry_after"] == 5
    limits.check("moves", "1.2.3.4", {}, now=0.0)  # the address still had one left
    limits.check("moves", "1.2.3.4", own, now=5.0)  # one back after 10/2 s


def test_the_shared_table_stays_bounded_under_a_flood_of_addresses() -> None:
    limits = RateLimits({"rooms-per-address": Rate(1, 1000)}, max_keys=100)
    for i in range(1000):
        limits.check("rooms", f"10.0.{i // 256}.{i % 256}", now=float(i))
    assert len(limits._shared) <= 100
