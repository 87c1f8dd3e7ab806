"""Provably fair deals: the commitment at creation, the reveal at the end, ``pyramids verify``,
the web replay's check (``web/fair.js`` under Node), rematches, and the schema migrations.

A room dealt at random has no seed: its deal is the keyed stream of its secret
(``pyramids-deal-v2``); a room whose creator chose the seed keeps ``Rng(seed)``
(``pyramids-deal-v1``). Both are checked here end to end.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import pyramids
from pyramids.cli.main import app as cli
from pyramids.engine.errors import RecordError
from pyramids.engine.registry import get_game
from pyramids.engine.rng import KeyedRng
from pyramids.server import fair
from pyramids.server.storage import SCHEMA_VERSION, Store
from tests.server.client import HTTP, Session, create, state, wait_over
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.timeout(90)

WEB = Path(__file__).resolve().parents[2] / "src" / "pyramids" / "web"


def _bot_game(live: LiveServer, game: str = "pyramido-treasure", **spec: Any) -> dict[str, Any]:
    """A finished game between greedy bots (the treasure hunt has mid-game chance)."""
    room = create(live.url, game=game, seats=[{"agent": "greedy"}, {"agent": "greedy"}], **spec)
    wait_over(live.url, room["room"])
    return room


def test_the_commitment_is_public_from_creation_and_the_seed_is_not(live: LiveServer) -> None:
    room = create(live.url, game="pyramideto", players=2)
    commitment = room["commitment"]
    assert isinstance(commitment, str) and len(commitment) == 64
    assert room["reveal"] is None and "seed" not in room and "deal" not in room
    summary = HTTP.get(f"{live.url}/api/rooms/{room['room']}").json()
    assert summary["commitment"] == commitment and summary["reveal"] is None
    for seat in [None, *(s["token"] for s in room["seats"])]:
        assert state(live.url, room["room"], seat)["commitment"] == commitment

    async def run() -> None:
        async with Session(live.ws_url, room["room"], None) as s:
            assert (await s.recv())["commitment"] == commitment

    asyncio.run(run())
    other = create(live.url, game="pyramideto", players=2)
    assert other["commitment"] != commitment


def test_a_new_room_has_no_seed_and_is_dealt_from_its_secret(tmp_path: Path) -> None:
    """No 53-bit seed to search: the room stores none, and its game is its secret's stream."""
    db = tmp_path / "games.db"
    live = LiveServer(db).start()
    try:
        room = _bot_game(live)
        summary = HTTP.get(f"{live.url}/api/rooms/{room['room']}").json()
        replay = HTTP.get(f"{live.url}/api/rooms/{room['room']}/replay").json()
        record = HTTP.get(f"{live.url}/api/rooms/{room['room']}/record").json()
    finally:
        live.stop()
    reveal = summary["reveal"]
    assert reveal == {"secret": reveal["secret"], "scheme": "pyramids-deal-v2"}
    assert summary["commitment"] == room["commitment"]
    # the byte layout of docs/server.md, by hand
    message = b"pyramids-deal-v2\x00" + bytes.fromhex(reveal["secret"])
    assert hashlib.sha256(message).hexdigest() == room["commitment"]
    assert replay["reveal"] == reveal and replay["seed"] is None
    assert record["reveal"] == reveal and "seed" not in record
    assert record["generator"] == "hmac-sha256-ctr" and record["chance"]
    # the setup and every chance outcome are the secret's stream, dealt again here
    names = record["players"]
    stream = KeyedRng(bytes.fromhex(reveal["secret"]))
    fresh = get_game(record["game"]).deal(len(names), stream, names=names, **record["variant"])
    assert fresh.setup() == record["setup"]
    for text in record["moves"]:
        fresh.play(fresh.parse_move(text))
    drawn = [{"ply": p, "choices": n, "outcome": v} for p, n, v in fresh.chance_outcomes()]
    assert drawn == record["chance"]
    # the database holds no seed for it: the column is unused, the generator is named
    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT seed, generator, secret FROM rooms WHERE id = ?", (room["room"],)
        ).fetchone()
    assert row == (0, "hmac-sha256-ctr", reveal["secret"])
    unused = pyramids.new_game(record["game"], players=len(names), seed=0, **record["variant"])
    assert unused.setup() != record["setup"]
    store = Store(f"sqlite:///{db}")
    try:
        stored = store.load_room(room["room"])
        assert stored is not None and stored.seed is None
    finally:
        store.close()


def test_a_chosen_seed_is_still_dealt_by_it_and_revealed(live: LiveServer) -> None:
    room = _bot_game(live, seed=5, practice=True)
    summary = HTTP.get(f"{live.url}/api/rooms/{room['room']}").json()
    reveal = summary["reveal"]
    assert reveal == {"seed": 5, "secret": reveal["secret"], "scheme": "pyramids-deal-v1"}
    assert fair.check(5, reveal["secret"], room["commitment"])
    message = b"pyramids-deal-v1\x00" + (5).to_bytes(8, "big") + bytes.fromhex(reveal["secret"])
    assert hashlib.sha256(message).hexdigest() == room["commitment"]
    record = HTTP.get(f"{live.url}/api/rooms/{room['room']}/record").json()
    assert record["seed"] == 5 and "generator" not in record
    assert record["practice"] is True and record["room"] == room["room"]
    names = record["players"]
    dealt = pyramids.new_game(record["game"], players=len(names), seed=5, **record["variant"])
    assert dealt.setup() == record["setup"]


def _verify(tmp_path: Path, record: dict[str, Any], *extra: str) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(cli, ["verify", str(path), "--json", *extra])
    return result.exit_code, json.loads(result.stdout)


def _play_out(live: LiveServer, room: dict[str, Any]) -> None:
    """Finish a room of human seats through REST, greedy moves for every seat."""
    from pyramids.engine.rng import Rng

    rid = room["room"]
    tokens = [s["token"] for s in room["seats"]]
    rng = Rng(1)
    while True:
        summary = HTTP.get(f"{live.url}/api/rooms/{rid}").json()
        if summary["over"]:
            return
        seat = summary["current_player"]
        snap = state(live.url, rid, tokens[seat])
        choice = snap["legal"][rng.below(len(snap["legal"]))]
        r = HTTP.post(
            f"{live.url}/api/rooms/{rid}/moves",
            json={"token": tokens[seat], "move": choice, "version": snap["version"]},
        )
        assert r.status_code == 200, r.text


def _tampered(record: dict[str, Any], change: Any) -> dict[str, Any]:
    bad = copy.deepcopy(record)
    change(bad)
    return bad


def _other_chance(record: dict[str, Any]) -> None:
    first = record["chance"][0]
    first["outcome"] = (first["outcome"] + 1) % first["choices"]


def _failing(tmp_path: Path, record: dict[str, Any]) -> set[str]:
    """The checks ``pyramids verify`` fails on ``record`` (it must fail some, exit 1)."""
    code, out = _verify(tmp_path, record)
    assert code == 1 and not out["ok"], out
    return {c["check"] for c in out["checks"] if not c["ok"]}


def test_pyramids_verify_passes_a_keyed_record_and_catches_every_tampering(
    live: LiveServer, tmp_path: Path
) -> None:
    room = _bot_game(live)
    record = HTTP.get(f"{live.url}/api/rooms/{room['room']}/record").json()
    assert record["chance"], "the treasure hunt's record should hold chance outcomes"
    code, out = _verify(tmp_path, record)
    assert code == 0 and out["ok"], out
    assert {c["check"] for c in out["checks"]} == {"moves", "deal", "commitment"}
    assert "revealed secret" in out["checks"][1]["detail"]
    code, _ = _verify(tmp_path, record, "--commitment", room["commitment"].upper())
    assert code == 0
    secret = record["reveal"]["secret"]
    flipped = format(int(secret[0], 16) ^ 1, "x") + secret[1:]
    cases: list[tuple[Any, set[str] | None]] = [
        # another secret deals another game and hashes to another commitment
        (lambda r: r["reveal"].update(secret=flipped), {"deal", "commitment"}),
        (lambda r: r["reveal"].update(secret="00" * 32), {"deal", "commitment"}),
        (lambda r: r["reveal"].update(secret="zz"), {"deal", "commitment"}),
        (lambda r: r.update(commitment="ab" * 32), {"commitment"}),
        (lambda r: r["reveal"].update(scheme="pyramids-deal-v1"), {"commitment"}),
        (lambda r: (r.pop("commitment"), r.pop("reveal")), {"deal", "commitment"}),
        # a seed cannot stand in for the secret: a record with both does not replay
        (lambda r: r.update(seed=0), {"moves"}),
        (lambda r: r.pop("generator"), {"deal"}),
        (lambda r: r.update(generator="mt19937"), {"moves"}),
        (_other_chance, None),  # the moves may no longer replay, or the chance differs
    ]
    for change, failing in cases:
        found = _failing(tmp_path, _tampered(record, change))
        if failing:
            assert found == failing, (change, found)
    code, out = _verify(tmp_path, record, "--commitment", "cd" * 32)
    assert code == 1 and "noted" in out["checks"][-1]["detail"]


def test_pyramids_verify_passes_a_seeded_record_and_catches_every_tampering(
    live: LiveServer, tmp_path: Path
) -> None:
    room = _bot_game(live, seed=11, practice=True)
    record = HTTP.get(f"{live.url}/api/rooms/{room['room']}/record").json()
    assert record["chance"], "the treasure hunt's record should hold chance outcomes"
    code, out = _verify(tmp_path, record)
    assert code == 0 and out["ok"], out
    assert {c["check"] for c in out["checks"]} == {"moves", "deal", "commitment", "practice"}
    for change, failing in [
        (lambda r: r["reveal"].update(secret="00" * 32), {"commitment"}),
        (lambda r: r.update(commitment="ab" * 32), {"commitment"}),
        (lambda r: (r.pop("commitment"), r.pop("reveal")), {"commitment"}),
        (lambda r: r["reveal"].update(seed=r["seed"] + 1), {"commitment"}),
        (lambda r: r.update(generator="hmac-sha256-ctr"), {"moves"}),
        (_other_chance, None),
    ]:
        found = _failing(tmp_path, _tampered(record, change))
        if failing:
            assert found == failing, (change, found)


def test_verify_checks_chance_against_the_seed_not_only_against_the_moves() -> None:
    """A record whose chance was re-drawn but whose moves still replay is caught."""
    import pyramids
    from pyramids.ai.registry import make_agent
    from pyramids.engine.rng import Rng

    for seed in range(40):
        state_ = pyramids.new_game("pyramido-treasure", players=2, seed=seed)
        agent, rng = make_agent("random", "pyramido-treasure"), Rng(seed)
        while not state_.is_over and not list(state_.chance_outcomes()):
            state_.play(agent.choose(state_, rng))
        if state_.is_over:
            continue
        record = state_.record()
        ply, choices, outcome = next(iter(state_.chance_outcomes()))
        if choices < 2:
            continue
        record["chance"][0]["outcome"] = (outcome + 1) % choices
        record["moves"] = record["moves"][:ply]
        record["chance"] = record["chance"][:1]
        try:
            final = pyramids.replay(record, check_result=False)
        except ValueError:
            continue
        record["result"] = {"over": final.is_over, "scores": final.scores(), "ranking": None}
        found = {f.check: f.ok for f in fair.verify_record(record)}
        assert found["moves"] is True and found["deal"] is False
        return
    pytest.skip("no deal with an early chance event among the seeds tried")


def test_verify_refuses_an_unreadable_file(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text("{nope", encoding="utf-8")
    assert CliRunner().invoke(cli, ["verify", str(tmp_path / "x.json")]).exit_code == 2
    assert CliRunner().invoke(cli, ["verify", str(tmp_path / "missing.json")]).exit_code == 2


def test_a_practice_record_says_so(live: LiveServer, tmp_path: Path) -> None:
    room = create(
        live.url, game="pyramideto", seats=[{"agent": "greedy"}] * 2, seed=5, practice=True
    )
    wait_over(live.url, room["room"])
    record = HTTP.get(f"{live.url}/api/rooms/{room['room']}/record").json()
    code, out = _verify(tmp_path, record)
    assert code == 0 and record["practice"] is True
    assert any(c["check"] == "practice" for c in out["checks"])


def test_a_rematch_never_reuses_a_chosen_seed_and_gets_a_fresh_commitment(
    live: LiveServer,
) -> None:
    import pyramids

    for spec in (
        {"game": "piramides", "seed": 77, "variant": {"rounds": 1}},
        {"game": "pyramideto", "players": 2, "seed": 5, "practice": True},
    ):
        room = create(live.url, **spec)
        _play_out(live, room)
        token = room["seats"][0]["token"]
        r = HTTP.post(f"{live.url}/api/rooms/{room['room']}/rematch", json={"token": token})
        assert r.status_code == 201, r.text
        new = r.json()
        assert new["commitment"] != room["commitment"] and new["reveal"] is None
        assert new["practice"] is False and "deal" not in new
        fresh = state(live.url, new["room"], token)
        assert fresh["commitment"] == new["commitment"] and "deal" not in fresh
        names = [s["name"] for s in room["seats"]]
        variant = spec.get("variant", {})
        chosen = pyramids.new_game(
            spec["game"], players=len(names), seed=spec["seed"], names=names, **variant
        )
        assert fresh["view"] != chosen.view(0)


# -- the web replay's check -------------------------------------------------------------


NODE = shutil.which("node")


def _node(script: str) -> Any:
    """Run ``script`` under Node; skip without it, or fail where CI requires it
    (``PYRAMIDS_REQUIRE_NODE=1``, set by ``.ci/run``, which installs Node)."""
    if NODE is None:
        reason = "the web check is run under Node (apt-get install nodejs)"
        if os.environ.get("PYRAMIDS_REQUIRE_NODE") == "1":
            pytest.fail(f"Node required in CI but missing: {reason}", pytrace=False)
        pytest.skip(reason)
    out = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(out.stdout)


def test_fair_js_computes_the_servers_commitment_and_judges_a_reveal() -> None:
    secret = fair.new_secret()
    cases = [(0, "00" * 32), (42, secret), (2**53 - 1, secret), (2**63 + 5, secret)]
    url = (WEB / "fair.js").as_uri()
    script = f"""
import {{ commitmentOf, sha256Fallback, checkDeal }} from {json.dumps(url)};
const cases = {json.dumps([[str(s), k] for s, k in cases])};
const out = {{ commitments: [], fallback: [], verdicts: [] }};
for (const [seed, secret] of cases) out.commitments.push(await commitmentOf(seed, secret));
for (const n of [0, 1, 55, 56, 57, 63, 64, 65, 127, 1000]) {{
  const bytes = new Uint8Array(n).map((_, i) => (i * 31 + 7) & 255);
  const digest = Array.from(sha256Fallback(bytes), (b) => b.toString(16).padStart(2, "0"));
  out.fallback.push(digest.join(""));
}}
const secret = cases[1][1];
const good = {{ commitment: out.commitments[1], reveal: {{ seed: 42, secret }} }};
const judge = async (info) => out.verdicts.push((await checkDeal("r1", info)).status);
await judge(good);
await judge({{ ...good, reveal: {{ seed: 43, secret }} }});
await judge({{ commitment: good.commitment, reveal: null }});
await judge({{ ...good, reveal: {{ seed: 42, secret: "zz" }} }});
console.log(JSON.stringify(out));
"""
    out = _node(script)
    assert out["commitments"] == [fair.commitment(s, k) for s, k in cases]
    expected = [
        hashlib.sha256(bytes((i * 31 + 7) & 255 for i in range(n))).hexdigest()
        for n in [0, 1, 55, 56, 57, 63, 64, 65, 127, 1000]
    ]
    assert out["fallback"] == expected
    assert out["verdicts"] == ["fair", "mismatch", "unchecked", "mismatch"]


@pytest.mark.skipif(NODE is None, reason="the web check is run under Node (apt-get install nodejs)")
def test_fair_js_checks_a_keyed_room_after_its_end(live: LiveServer) -> None:
    """The replay of a room dealt from its secret, judged by the browser's code."""
    room = _bot_game(live)
    replay = HTTP.get(f"{live.url}/api/rooms/{room['room']}/replay").json()
    secret = replay["reveal"]["secret"]
    cases = ["00" * 32, secret, fair.new_secret()]
    url = (WEB / "fair.js").as_uri()
    script = f"""
import {{ keyedCommitmentOf, checkDeal }} from {json.dumps(url)};
const replay = {json.dumps(replay)};
const out = {{ commitments: [], verdicts: [] }};
for (const secret of {json.dumps(cases)}) out.commitments.push(await keyedCommitmentOf(secret));
const judge = async (info) => out.verdicts.push((await checkDeal("r2", info)).status);
const other = (reveal) => ({{ ...replay, reveal: {{ ...replay.reveal, ...reveal }} }});
await judge(replay);
await judge(other({{ secret: {json.dumps(cases[2])} }}));
await judge(other({{ scheme: "pyramids-deal-v1" }}));
await judge(other({{ scheme: "pyramids-deal-v1", seed: 0 }}));
await judge({{ ...replay, commitment: "ab".repeat(32) }});
console.log(JSON.stringify(out));
"""
    out = _node(script)
    assert out["commitments"] == [fair.keyed_commitment(k) for k in cases]
    assert out["commitments"][1] == replay["commitment"] == room["commitment"]
    assert out["verdicts"] == ["fair", "mismatch", "mismatch", "mismatch", "mismatch"]


# -- storage ------------------------------------------------------------------------------


def test_a_schema_1_database_migrates_and_its_rooms_have_no_commitment(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as conn:
        conn.executescript(
            """
            CREATE TABLE rooms (id VARCHAR(32) PRIMARY KEY, game VARCHAR(64) NOT NULL,
                variant TEXT NOT NULL, seed BIGINT NOT NULL, players INTEGER NOT NULL,
                created_at FLOAT NOT NULL, over BOOLEAN NOT NULL, public_seed BOOLEAN NOT NULL);
            CREATE TABLE seats (room_id VARCHAR(32), seat INTEGER, name VARCHAR(80) NOT NULL,
                kind VARCHAR(16) NOT NULL, agent VARCHAR(64), level VARCHAR(32),
                token_hash VARCHAR(64), PRIMARY KEY (room_id, seat));
            CREATE TABLE events (room_id VARCHAR(32), version INTEGER, kind VARCHAR(16) NOT NULL,
                seat INTEGER, data TEXT NOT NULL, created_at FLOAT NOT NULL,
                PRIMARY KEY (room_id, version));
            CREATE TABLE meta (key VARCHAR(64) PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO meta VALUES ('schema', '1');
            INSERT INTO rooms VALUES ('old1', 'piramides', '{"rounds": 1}', 9, 1, 0, 0, 1);
            INSERT INTO seats VALUES ('old1', 0, 'Ana', 'human', NULL, NULL, 'x');
            """
        )
    store = Store(f"sqlite:///{db}")
    try:
        row = store.load_room("old1")
        assert row is not None and row.secret is None and row.practice is False
        assert row.seed == 9
    finally:
        store.close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT value FROM meta").fetchone()[0] == SCHEMA_VERSION
        columns = {r[1] for r in conn.execute("PRAGMA table_info(rooms)")}
    assert {"spectator_chat", "secret", "practice", "generator"} <= columns

    live = LiveServer(db).start()
    try:
        summary = HTTP.get(f"{live.url}/api/rooms/old1").json()
        assert summary["commitment"] is None and summary["practice"] is False
        assert create(live.url, game="piramides")["commitment"]
    finally:
        live.stop()


def test_a_schema_3_room_keeps_its_seed_its_deal_and_its_commitment(tmp_path: Path) -> None:
    """Rooms made before the keyed scheme go on, dealt by their seed, under a v1 commitment."""
    db = tmp_path / "three.db"
    secret = "11" * 32
    names = ["Ana", "Bo"]
    store = Store(f"sqlite:///{db}")
    store.close()
    with sqlite3.connect(db) as conn:  # the schema-3 shape: no generator column
        conn.executescript(
            f"""
            ALTER TABLE rooms DROP COLUMN generator;
            UPDATE meta SET value = '3' WHERE key = 'schema';
            INSERT INTO rooms (id, game, variant, seed, players, created_at, over,
                public_seed, spectator_chat, secret, practice)
                VALUES ('old3', 'pyramideto', '{{}}', 9, 2, 0, 0, 0, 0, '{secret}', 0);
            INSERT INTO seats VALUES ('old3', 0, 'Ana', 'human', NULL, NULL, 'x');
            INSERT INTO seats VALUES ('old3', 1, 'Bo', 'human', NULL, NULL, 'y');
            """
        )
    live = LiveServer(db).start()
    try:
        summary = HTTP.get(f"{live.url}/api/rooms/old3").json()
        view = state(live.url, "old3")["view"]
    finally:
        live.stop()
    assert summary["commitment"] == fair.commitment(9, secret)
    assert view == pyramids.new_game("pyramideto", players=2, seed=9, names=names).view(None)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT value FROM meta").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("SELECT seed, generator FROM rooms").fetchone() == (9, "splitmix64")


def test_a_record_names_its_generator_and_replay_checks_the_name() -> None:
    key = bytes(range(32))
    dealt = get_game("pyramideto").deal(2, KeyedRng(key))
    record = dealt.record()
    assert record["generator"] == "hmac-sha256-ctr" and "seed" not in record
    assert pyramids.replay(record).setup() == dealt.setup()
    for bad, field in [
        ({**record, "generator": "mt19937"}, "generator"),
        ({**record, "generator": 7}, "generator"),
        ({**record, "seed": 3}, "generator"),
    ]:
        with pytest.raises(RecordError) as caught:
            pyramids.replay(bad)
        assert caught.value.field == field
    seeded = pyramids.new_game("pyramideto", players=2, seed=3).record()
    assert "generator" not in seeded
    assert pyramids.replay({**seeded, "generator": "splitmix64"}).seed == 3
