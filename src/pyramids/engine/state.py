"""The engine contract: :class:`Game` (what a game is) and :class:`State` (a position).

Every face of Pyramids (terminal, server, AI, research adapters) talks to the
four games only through these two classes, so that adding a game means adding
one package under ``pyramids.games`` and one line in the registry.

A game is split in two on purpose:

* the :class:`Game` object is stateless metadata and the notation: id, player
  counts, variant options, how to deal a new game from a seed (the *setup*),
  how to read a setup back, and how moves are written;
* a :class:`State` is one position of one game and is what search copies
  millions of times, so it holds only small flat data.

Mid-game chance (a card taken at random) is drawn with :meth:`State._chance`,
which both uses the state's own seeded stream and logs the outcome, so a
record replays it without needing our PRNG and a replay cannot re-draw it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from pyramids.engine.errors import IllegalMove, PlayersError, RecordError, SeatError
from pyramids.engine.rng import Rng
from pyramids.engine.variant import Option, VariantValue, resolve_variant

M = TypeVar("M", bound=Hashable)

# A persistent singly linked list of what happened, newest first. Copying a
# state shares it, so ``copy()`` stays O(1) however long the game is.
_Log = tuple[Any, Any] | None


def _iter_log(log: _Log) -> list[Any]:
    items: list[Any] = []
    while log is not None:
        log, item = log
        items.append(item)
    items.reverse()
    return items


class Game(ABC, Generic[M]):
    """A game's metadata, setup and notation. One instance per game, in the registry."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: Bumped when a rules change makes old records replay differently.
    rules_version: ClassVar[int] = 1
    options: ClassVar[tuple[Option, ...]] = ()
    #: One line for menus and ``pyramids games``.
    summary: ClassVar[str] = ""
    #: Whether seats hold secrets from each other (a hand, what a seat alone has seen).
    #: Faces that share one screen between players hide it between turns only then.
    secret_seats: ClassVar[bool] = True
    #: Whether chance plays a part: a shuffled deal, or a random draw during play.
    #: Declared by every game (the research adapters tell OpenSpiel its chance mode).
    chance: ClassVar[bool]
    #: Whether some seat may not know the whole position (a hand, a face-down stack,
    #: even one hidden from everybody). Not the same as :attr:`secret_seats`: a stack
    #: that nobody sees hides information without giving any seat a secret.
    hidden_information: ClassVar[bool]
    #: Agents (names of :mod:`pyramids.ai.registry`) that faces offer first as an
    #: opponent, most suitable first; a face takes the first one that plays the game.
    opponents: ClassVar[tuple[str, ...]] = ("greedy", "mcts")

    # -- building states -------------------------------------------------

    def resolve_variant(self, variant: Mapping[str, Any]) -> dict[str, VariantValue]:
        """Every option of this game with its value (defaults filled in, values checked)."""
        return resolve_variant(self.id, self.options, variant)

    def check_players(self, players: int) -> None:
        """Raise :class:`PlayersError` (a ``ValueError``) unless ``players`` is a valid count."""
        if (
            not isinstance(players, int)
            or isinstance(players, bool)
            or not self.min_players <= players <= self.max_players
        ):
            given = players if type(players) is int else repr(players)
            if self.max_players == 1:  # "exactly 1 players" reads wrong; a plural has no place
                raise PlayersError(
                    "{game_id} is a solitaire: one player, not {players}",
                    code="player-count",
                    game_id=self.id,
                    players=given,
                )
            if self.min_players == self.max_players:
                raise PlayersError(
                    "{game_id} is played by exactly {count} players, not {players}",
                    code="player-count",
                    game_id=self.id,
                    count=self.min_players,
                    players=given,
                )
            raise PlayersError(
                "{game_id} is played by {minimum} to {maximum} players, not {players}",
                code="player-count",
                game_id=self.id,
                minimum=self.min_players,
                maximum=self.max_players,
                players=given,
            )

    def new(
        self,
        players: int | None = None,
        seed: int = 0,
        names: Sequence[str] | None = None,
        **variant: Any,
    ) -> State[M]:
        """A new game dealt from ``seed``: the same seed gives the same game forever."""
        if players is None:
            players = self.min_players
        self.check_players(players)
        options = self.resolve_variant(variant)
        rng = Rng(seed)
        setup = self.make_setup(players, options, rng)
        state = self.from_setup(setup, players, options)
        state._rng = rng
        state.seed = seed
        state.names = _check_names(names, players)
        return state

    def deal(
        self,
        players: int,
        rng: Rng,
        names: Sequence[str] | None = None,
        **variant: Any,
    ) -> State[M]:
        """A new game dealt from ``rng``, a stream no seed names (a room's keyed stream).

        What :meth:`new` does with ``Rng(seed)``: the setup is drawn from
        ``rng`` and the state keeps drawing its mid-game chance from it. The
        state has no :attr:`State.seed`: its deal is reproduced from the stream's
        key, not from a number (``docs/rng.md``).
        """
        self.check_players(players)
        options = self.resolve_variant(variant)
        setup = self.make_setup(players, options, rng)
        state = self.from_setup(setup, players, options)
        state._rng = rng
        state.names = _check_names(names, players)
        return state

    @abstractmethod
    def make_setup(
        self, players: int, variant: Mapping[str, VariantValue], rng: Rng
    ) -> dict[str, Any]:
        """The explicit initial setup (deal, stacks, token layout) as JSON-able data.

        Everything random at the start comes from ``rng`` here, so that a
        record can carry the setup and be checked without our PRNG.
        """

    @abstractmethod
    def from_setup(
        self, setup: Mapping[str, Any], players: int, variant: Mapping[str, VariantValue]
    ) -> State[M]:
        """Build the initial state from a setup; raise :class:`RecordError` naming the field."""

    # -- bounds ----------------------------------------------------------
    #
    # Declared once per game so that every face that needs them (OpenSpiel's
    # GameInfo, a generic encoding) reads the same numbers. ``variant`` is a
    # resolved variant (every option present), as in :meth:`make_setup`.

    @abstractmethod
    def score_bounds(
        self, players: int, variant: Mapping[str, VariantValue]
    ) -> tuple[float, float]:
        """The lowest and the highest final score one seat can have in this variant.

        True bounds, not typical values: a solitaire's utility is its score,
        and an algorithm that normalises by them must never see one outside.
        """

    @abstractmethod
    def max_game_length(self, players: int, variant: Mapping[str, VariantValue]) -> int | None:
        """The most moves (plies) a game of this variant can last; ``None`` if nothing bounds it."""

    def max_legal_moves(self, players: int, variant: Mapping[str, VariantValue]) -> int | None:
        """The most legal moves one position can offer; ``None``: not declared.

        Only a game without an encoding of its own needs it: the research
        adapters' generic encoding numbers the moves of a position by their
        place in :meth:`State.legal_moves`, so its action space is this size.
        """
        return None

    # -- notation --------------------------------------------------------

    @abstractmethod
    def move_to_str(self, state: State[M], move: M) -> str:
        """The canonical notation of ``move`` in ``state`` (what records store)."""

    @abstractmethod
    def parse_move(self, state: State[M], text: str) -> M:
        """Read a move typed by a player or stored in a record.

        Raises :class:`~pyramids.engine.errors.NotationError` for text that
        names no move; whether the move is *legal* is for :meth:`State.play`.
        """

    def __repr__(self) -> str:
        return f"<Game {self.id}>"


def _check_names(names: Sequence[str] | None, players: int) -> tuple[str, ...]:
    if names is None:
        return tuple(f"Player {i + 1}" for i in range(players))
    names = tuple(names)
    if len(names) != players or not all(isinstance(n, str) and n for n in names):
        raise PlayersError(
            "names must be {count} non-empty strings", code="player-names", count=players
        )
    return names


def check_seat(seat: object, players: int) -> int:
    """``seat`` if it is a seat number of a ``players``-player game, else :class:`SeatError`.

    One check for every place a caller names a seat (a view, a review, an
    adapter), so that all of them refuse ``True``, ``1.0`` and ``-1`` alike
    and say so in the same translatable words.

    >>> check_seat(1, 2)
    1
    >>> check_seat(2, 2)
    Traceback (most recent call last):
    ...
    pyramids.engine.errors.SeatError: no seat 2 in a 2-player game
    """
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players:
        return seat
    raise SeatError(
        "no seat {number} in a {count}-player game",
        number=seat if type(seat) is int else repr(seat),
        count=players,
    )


class State(ABC, Generic[M]):
    """One position of one game.

    Subclasses implement the rules (:meth:`legal_moves`, :meth:`_check`,
    :meth:`_apply`, ...); this base class keeps the bookkeeping that every game
    shares: the move log for records, the seeded stream for mid-game chance,
    and the setup the game started from.
    """

    game: ClassVar[Game[Any]]

    __slots__ = (
        "_chance_log",
        "_forced",
        "_log",
        "_ply",
        "_rng",
        "_setup",
        "names",
        "players",
        "seed",
        "variant",
    )

    players: int
    variant: Mapping[str, VariantValue]
    seed: int | None
    names: tuple[str, ...]
    _setup: Mapping[str, Any]
    _rng: Rng
    _log: _Log
    _chance_log: _Log
    _ply: int
    _forced: list[tuple[int, int, int]] | None

    def _init_base(
        self, setup: Mapping[str, Any], players: int, variant: Mapping[str, VariantValue]
    ) -> None:
        """Called by :meth:`Game.from_setup` implementations before game fields are set."""
        self.players = players
        self.variant = variant
        self.seed = None
        self.names = _check_names(None, players)
        self._setup = setup
        self._rng = Rng(0)
        self._log = None
        self._chance_log = None
        self._ply = 0
        self._forced = None

    def _copy_base(self, other: State[M]) -> None:
        """Copy the shared bookkeeping into ``other`` (used by :meth:`copy`)."""
        other.players = self.players
        other.variant = self.variant
        other.seed = self.seed
        other.names = self.names
        other._setup = self._setup
        other._rng = self._rng.copy()
        other._log = self._log
        other._chance_log = self._chance_log
        other._ply = self._ply
        other._forced = None if self._forced is None else list(self._forced)

    # -- the contract ----------------------------------------------------

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to move (0-based), or ``None`` once the game is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """True once the game has ended."""

    @abstractmethod
    def legal_moves(self) -> list[M]:
        """Every legal move of the player to move (empty once the game is over)."""

    @abstractmethod
    def _check(self, move: M) -> None:
        """Raise :class:`IllegalMove` naming the rule unless ``move`` is legal. Must not mutate."""

    @abstractmethod
    def _apply(self, move: M) -> None:
        """Apply a move already known to be legal."""

    @abstractmethod
    def copy(self) -> State[M]:
        """An independent copy; cheap, because search copies states all the time."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Each seat's score so far (final once :attr:`is_over`)."""

    @abstractmethod
    def view(self, player: int | None) -> dict[str, Any]:
        """JSON-able dict of what ``player`` may see; ``None`` is a spectator.

        This is the only way hidden information leaves a state.
        """

    @abstractmethod
    def determinize(self, player: int | None, rng: Rng) -> State[M]:
        """A full state consistent with everything ``player`` has seen.

        Hidden parts are drawn from ``rng``; the state's own chance stream is
        replaced too, so future chance is as unknown as it is at the table.
        """

    def determinizer(self, player: int | None) -> Callable[[Rng], State[M]]:
        """``rng -> self.determinize(player, rng)``, for many samples of this position.

        Why: a search draws a sample every iteration, thousands of times from
        one position, and much of a sample's cost (which cards are hidden,
        where each may go) is the same every time. A game may work that out
        once here; the function gives exactly the states (and draws exactly
        the numbers from ``rng``) that ``determinize`` would. Once this state
        is played on, the function falls back to ``determinize`` of the state
        as it is then. The default is ``determinize`` itself.
        """
        self._check_viewer(player)

        def sample(rng: Rng) -> State[M]:
            return self.determinize(player, rng)

        return sample

    def play(self, move: M) -> None:
        """Play ``move``; raise :class:`IllegalMove` (state unchanged) if the rules forbid it."""
        if self.is_over:
            raise IllegalMove("game-over", "the game is over: no more moves can be played")
        self._check(move)
        self._log = (self._log, move)
        self._ply += 1
        self._apply(move)

    def play_legal(self, move: M) -> None:
        """Play a move just taken from this position's :meth:`legal_moves`, unchecked.

        Why: a search plays thousands of moves it has itself taken from
        :meth:`legal_moves` (or :meth:`random_move`) a moment before, and
        checking each again is a tenth of a random playout. Any other move is
        a caller's bug that this method does not catch: faces, adapters and
        servers use :meth:`play`.
        """
        self._log = (self._log, move)
        self._ply += 1
        self._apply(move)

    def random_move(self, rng: Rng) -> M:
        """A uniformly random legal move: ``legal_moves()[rng.below(len(legal_moves()))]``.

        A game may compute it faster (without building the whole list) but
        must return that very move for the same ``rng``, so that searches and
        seeded games do not change. Raises :class:`ValueError` once the game is over.
        """
        moves = self.legal_moves()
        if not moves:
            raise ValueError("no legal move: the game is over")
        return moves[rng.below(len(moves))]

    def ranking(self) -> list[int]:
        """Each seat's place, 1 = best; tied seats share a place.

        The default ranks by :meth:`scores`; games with tie-breaks override it.
        """
        s = self.scores()
        return [1 + sum(1 for other in s if other > mine) for mine in s]

    def winners(self) -> list[int]:
        """The seats ranked first (more than one on a shared win)."""
        return [p for p, r in enumerate(self.ranking()) if r == 1]

    # -- history and records ----------------------------------------------

    @property
    def ply(self) -> int:
        """Number of moves played since the setup."""
        return self._ply

    def moves_played(self) -> list[M]:
        """The moves played so far, oldest first."""
        return _iter_log(self._log)

    def move_to_str(self, move: M) -> str:
        """Shortcut for ``self.game.move_to_str(self, move)``."""
        return self.game.move_to_str(self, move)

    def parse_move(self, text: str) -> M:
        """Shortcut for ``self.game.parse_move(self, text)``."""
        move: M = self.game.parse_move(self, text)
        return move

    def setup(self) -> Mapping[str, Any]:
        """The explicit setup this game started from (secret while the game runs)."""
        return self._setup

    def record(self) -> dict[str, Any]:
        """The game so far as a JSON-able record (schema in ``docs/records.md``)."""
        from pyramids.engine.records import make_record

        return make_record(self)

    def notation_log(self) -> list[str]:
        """The moves played so far in notation, replayed from the setup.

        Notation can depend on the position (a card name, a turned board), so
        each move is written in the state it was played in.
        """
        state = self.game.from_setup(self._setup, self.players, self.variant)
        out: list[str] = []
        forced = list(self.chance_outcomes())
        state._forced = forced
        for move in self.moves_played():
            out.append(state.move_to_str(move))
            state.play(move)
        return out

    def chance_outcomes(self) -> Iterator[tuple[int, int, int]]:
        """``(ply, choices, outcome)`` of every chance event so far."""
        return iter(_iter_log(self._chance_log))

    def _chance(self, choices: int) -> int:
        """Draw a chance outcome in ``[0, choices)`` and log it for the record.

        During a replay the outcome comes from the record instead (checked to
        be in range and at the same ply); the stream is still advanced so that
        a game continued after a replay goes on exactly as it would have.
        """
        value = self._rng.below(choices)
        if self._forced:
            ply, n, forced = self._forced.pop(0)
            if ply != self._ply or n != choices or not 0 <= forced < choices:
                raise RecordError(
                    "chance",
                    "chance event at move {ply} does not match the record "
                    "(expected {choices} possible outcomes at move {ply}, "
                    "record has {recorded_choices} at move {recorded_ply} with outcome {outcome})",
                    ply=self._ply,
                    choices=choices,
                    recorded_choices=n,
                    recorded_ply=ply,
                    outcome=forced,
                )
            value = forced
        self._chance_log = (self._chance_log, (self._ply, choices, value))
        return value

    def _view_header(self, player: int | None) -> dict[str, Any]:
        """The public part every view starts with."""
        return {
            "game": self.game.id,
            "players": self.players,
            "names": list(self.names),
            "variant": dict(self.variant),
            "viewer": player,
            "current_player": self.current_player,
            "is_over": self.is_over,
            "ply": self._ply,
            "scores": self.scores(),
            "ranking": self.ranking() if self.is_over else None,
        }

    def _check_viewer(self, player: int | None) -> None:
        if player is not None:
            check_seat(player, self.players)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.id} ply={self._ply} over={self.is_over}>"
