"""A resumable arena run that logs every game as it finishes (for runs of hours).

``pyramids arena`` prints and writes its figures once the whole schedule is
played; a run of hours that is stopped half-way leaves nothing. This tool
plays the very same schedule (same :class:`~pyramids.ai.arena.ArenaConfig`,
same deals and per-seat agent seeds, through the arena's own
:func:`~pyramids.ai.arena.play_match`), appends each game to a JSON-lines
log the moment it ends, skips the games a log already holds when started
again, and summarizes whatever the log holds with the arena's statistics
(win rates with Wilson intervals, mean scores, think time: mean, p99, max)::

    python -m benchmarks.arena_log pyramideto --agents mcts:level=hard,greedy \\
        --games 200 --seed 10000 --log runs/pyramideto-hard.jsonl
    python -m benchmarks.arena_log pyramideto --agents mcts:level=hard,greedy \\
        --games 200 --seed 10000 --log runs/pyramideto-hard.jsonl --summary

Games ``k`` of a schedule depend only on the seed and ``k``, so a partial log
is an honest prefix of the full run, and ``--first K`` / ``--step S`` split
one schedule between processes (each its own log) without changing a game.
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import asdict
from pathlib import Path

from pyramids.ai.arena import ArenaConfig, GameResult, play_match, schedule, summarize


def load(log: Path) -> list[GameResult]:
    """The games a log holds, in schedule order (a torn last line is ignored)."""
    out: dict[int, GameResult] = {}
    if log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            try:
                r = GameResult(**json.loads(line))
            except (json.JSONDecodeError, TypeError):
                continue
            out[r.index] = r
    return [out[k] for k in sorted(out)]


def run(config: ArenaConfig, log: Path, first: int = 0, step: int = 1) -> None:
    """Play the schedule's games ``first, first + step, ...`` not yet in ``log``."""
    config.check()
    done = {r.index for r in load(log)}
    log.parent.mkdir(parents=True, exist_ok=True)
    for match in schedule(config)[first::step]:
        if match.index in done:
            continue
        result = play_match(config, match)
        with log.open("a", encoding="utf-8") as f:
            f.write(json.dumps(asdict(result)) + "\n")


def report(config: ArenaConfig, results: list[GameResult]) -> None:
    """The arena's figures for the games played so far."""
    print(f"{config.game_id}, {len(results)} of {config.games} games, seed {config.seed}")
    for s in summarize(config, results):
        rate = "-" if math.isnan(s.win_rate) else f"{100 * s.win_rate:.1f}%"
        print(
            f"  {s.agent:<28} first place {s.wins:g}/{s.games} = {rate} "
            f"(95% {100 * s.win_low:.1f}-{100 * s.win_high:.1f})  mean score {s.mean_score:.2f}  "
            f"mean place {s.mean_rank:.2f}  s/move mean {s.mean_move_seconds:.2f} "
            f"p99 {s.p99_move_seconds:.2f} max {s.max_move_seconds:.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--agents", required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--log", type=Path, required=True)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--step", type=int, default=1)
    parser.add_argument("--summary", action="store_true", help="only summarize the log")
    args = parser.parse_args()
    config = ArenaConfig(
        args.game,
        tuple(a.strip() for a in args.agents.split(",")),
        args.games,
        args.seed,
        args.players,
    )
    if not args.summary:
        run(config, args.log, args.first, args.step)
    report(config, load(args.log))


if __name__ == "__main__":
    main()
