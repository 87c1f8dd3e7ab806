"""OpenSpiel: every registered game as a registered Python game.

``import pyramids.envs.openspiel_game`` registers ``pyramids_<game>``
(hyphens become underscores: ``pyramids_pyramido_treasure``), after which
``pyspiel.load_game("pyramids_piramides")`` or, with parameters,
``pyspiel.load_game("pyramids_pyramideto", {"players": 3})`` work as for any
built-in game.

Choices, and why (also in ``docs/adapters.md``):

* **Chance is sampled** (``SAMPLED_STOCHASTIC``; ``DETERMINISTIC`` for a game
  whose :attr:`~pyramids.engine.state.Game.chance` is false). Our engine deals from a seed
  and draws mid-game chance from its own stream, so the whole deal as one
  chance outcome would have 52! outcomes. Each new game takes the next deal
  number from a stream seeded by the ``seed`` parameter (or the fixed
  ``deal`` parameter when it is >= 0), drawn when the state is first used,
  so cloning a fresh state does not use up a deal, and a deal that was never
  played nor copied is dealt again (see :class:`_Engine`).
* **Information** is the game's :attr:`~pyramids.engine.state.Game.hidden_information`:
  ``IMPERFECT_INFORMATION`` for the four games (even the solitaire hides its
  stock order).
* **Utility**: a solitaire returns its final score (general-sum, bounds from
  :meth:`~pyramids.engine.state.Game.score_bounds`); multiplayer games return
  the zero-sum pairwise rank utility of
  :mod:`pyramids.envs.utility`. Rewards are terminal, as OpenSpiel's MCTS asks.
* **Observation** string: the seat's ``view`` as canonical JSON; tensor: the
  codec's vector of the same view, computed from the state by the codec's
  fast ``encode_state`` (equal to encoding the view, which a property test
  checks), never by building the view, which costs many times more.
  **Information state**: the same view plus a digest (SHA-1 chain) of every
  view the seat has had since the deal, so two histories share an
  information state exactly when the seat saw the same things (perfect
  recall); its tensor is the view vector (a fixed-size tensor
  cannot hold a history of any length, and the digest has no tensor form).
* **Observers** honour ``IIGObservationType.private_info``: ``SINGLE_PLAYER``
  (OpenSpiel's default) is the seat's own view; ``NONE`` is the spectator's
  view, the same tensor and string for every seat (with perfect recall, the
  digest chains the spectator's views). ``ALL_PLAYERS`` and observers
  without public information have no view to come from and are refused.
* **Variant**: the game's options are parameters, with the research defaults
  of :mod:`pyramids.envs.defaults` (the treasure hunt ends after 500 slides
  unless ``slide_limit`` says otherwise).
* ``resample_from_infostate(player, sampler)`` is ``state.determinize`` with a
  seed taken from the sampler (mixed with a counter, because OpenSpiel's
  Python ISMCTS passes a freshly seeded sampler every time); the resampled
  state keeps that seat's information state.
* ``__str__`` is the spectator's view as JSON (cheap: OpenSpiel's tests call
  it at every step); ``state.text(seat)`` is the terminal picture for people.
  Neither shows hidden cards.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from pyramids.engine.registry import game_ids, get_game
from pyramids.engine.rng import Rng
from pyramids.engine.state import Game, State
from pyramids.envs.defaults import RESEARCH_DEFAULTS, research_variant
from pyramids.envs.encodings import GameCodec, make_codec
from pyramids.envs.encodings.base import FloatArray
from pyramids.envs.text import view_text
from pyramids.envs.utility import pairwise_utility

PREFIX = "pyramids_"
#: the game length declared for a variant that nothing bounds (OpenSpiel needs a number)
UNBOUNDED_LENGTH = 10_000_000
_MASK32 = (1 << 32) - 1
_Log = tuple[Any, Any] | None


def short_name(game_id: str) -> str:
    """The OpenSpiel name of a game: ``pyramids_`` + id with underscores."""
    return PREFIX + game_id.replace("-", "_")


def _view_json(state: State[Any], seat: int | None) -> str:
    return json.dumps(state.view(seat), sort_keys=True, separators=(",", ":"))


def _chain(digest: str, view_json: str) -> str:
    return hashlib.sha1((digest + view_json).encode(), usedforsecurity=False).hexdigest()


class _Engine:
    """Our engine state inside an OpenSpiel state, dealt lazily and copied cheaply.

    OpenSpiel clones a Python state by building a new initial state and
    deep-copying its attributes; ``__deepcopy__`` here uses the engine's own
    cheap ``copy()``, and the lazy deal means that a throwaway initial state
    made for a clone never takes a deal number from the stream.

    OpenSpiel also builds a throwaway initial state *and observes it* every
    time it needs a tensor's size (at every ``observation_tensor`` call). So a
    deal that was dealt but never played, and never copied, goes back to the
    game when its state is dropped, to be dealt again next; and the views and
    tensors of a deal's first position are cached by the game. That keeps
    those size queries cheap and keeps them from shifting which deals are
    actually played.

    The information-state digests are folded lazily too: a move only keeps a
    cheap copy of the position it led to, and the views are hashed when an
    information state is first asked for. Search that never asks (MCTS) pays
    almost nothing for them. Views of the current position are cached until
    the next move, because OpenSpiel's tests and search ask for the strings
    and tensors of every seat at every step.
    """

    __slots__ = (
        "_deal_no",
        "_dealer",
        "_digests",
        "_obs",
        "_pending",
        "_shared",
        "_state",
        "_views",
    )

    def __init__(
        self,
        dealer: PyramidsSpielGame | None,
        state: State[Any] | None = None,
        digests: tuple[str, ...] = (),
    ) -> None:
        self._dealer = dealer
        self._deal_no = -1
        self._shared = False
        self._state = state
        self._digests = digests
        #: positions reached since the digests were last brought up to date (newest first)
        self._pending: _Log = None
        self._views: dict[int | None, str] = {}
        self._obs: dict[int | None, FloatArray] = {}

    def _deal_number(self) -> int:
        """This game's deal number, drawn from the game on first use."""
        if self._deal_no < 0:
            assert self._dealer is not None
            self._deal_no = self._dealer.next_deal()
        return self._deal_no

    def _unplayed(self) -> bool:
        """Whether this is a dealer's game still at its first position (cached views apply)."""
        return self._dealer is not None and (self._state is None or self._state.ply == 0)

    @property
    def state(self) -> State[Any]:
        if self._state is None:
            assert self._dealer is not None
            self._state = state = self._dealer.deal_state(self._deal_number())
            # every seat's chain (and the spectator's, last) starts from the deal's view
            self._digests = ("",) * (state.players + 1)
            self._pending = (None, state.copy())
        return self._state

    def played(self) -> None:
        """Note that a move was just played on :attr:`state`."""
        self._pending = (self._pending, self.state.copy())
        self._views = {}
        self._obs = {}

    def view_json(self, seat: int | None) -> str:
        """The current view of ``seat`` as canonical JSON (cached until the next move)."""
        text = self._views.get(seat)
        if text is None:
            if self._unplayed():
                assert self._dealer is not None
                text = self._dealer.first_position(
                    ("json", self._deal_number(), seat), lambda: _view_json(self.state, seat)
                )
            else:
                text = _view_json(self.state, seat)
            self._views[seat] = text
        return text

    def observation(self, seat: int | None, codec: GameCodec) -> FloatArray:
        """The codec's vector of ``seat``'s view now (``None``: the spectator's; cached)."""
        obs = self._obs.get(seat)
        if obs is None:
            encode = codec.observations.encode_state
            if self._unplayed():
                # OpenSpiel observes a throwaway initial state for every tensor it is
                # asked for: the cache answers it without dealing that game at all
                assert self._dealer is not None
                obs = self._dealer.first_position(
                    ("obs", self._deal_number(), seat), lambda: encode(self.state, seat)
                )
            else:
                obs = encode(self.state, seat)
            self._obs[seat] = obs
        return obs

    def __del__(self) -> None:
        # An unplayed, uncopied deal goes back to the game (see the class docstring).
        dealer, state = self._dealer, self._state
        unplayed = state is None or state.ply == 0
        if dealer is not None and self._deal_no >= 0 and not self._shared and unplayed:
            dealer.give_back(self._deal_no)

    @property
    def digests(self) -> tuple[str, ...]:
        """Per seat, then the spectator, the SHA-1 chain of every view it has had since the deal."""
        state = self.state
        seats: list[int | None] = [*range(state.players), None]
        if self._pending is not None:
            positions = []
            log = self._pending
            while log is not None:
                log, position = log
                positions.append(position)
            digests = self._digests
            for position in reversed(positions[1:]):
                digests = tuple(
                    _chain(digests[k], _view_json(position, p)) for k, p in enumerate(seats)
                )
            # the newest pending position is the current one: its views may be cached
            digests = tuple(_chain(digests[k], self.view_json(p)) for k, p in enumerate(seats))
            self._digests = digests
            self._pending = None
        return self._digests

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        self._shared = True  # both now hold this deal: neither may give it back
        other = _Engine(None, self.state.copy(), self._digests)
        other._pending = self._pending
        other._views = dict(self._views)
        other._obs = dict(self._obs)
        return other

    def __getstate__(self) -> tuple[dict[str, Any], tuple[str, ...]]:
        # A record (setup + moves + chance outcomes) is the engine's own portable form.
        self._shared = True
        return self.state.record(), self.digests

    def __setstate__(self, data: tuple[dict[str, Any], tuple[str, ...]]) -> None:
        from pyramids.engine.records import replay

        record, digests = data
        self._dealer = None
        self._deal_no = -1
        self._shared = True
        self._state = replay(record)
        self._digests = tuple(digests)
        self._pending = None
        self._views = {}
        self._obs = {}


class PyramidsSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One of our games, for a player count and variant given as game parameters."""

    def __init__(self, game_id: str, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.pyramids_game: Game[Any] = get_game(game_id)
        spec = _parameter_spec(self.pyramids_game)
        players = int(params.get("players", spec["players"]))
        self.seed = int(params.get("seed", spec["seed"]))
        self.deal = int(params.get("deal", spec["deal"]))
        self.variant = research_variant(
            self.pyramids_game.id,
            {o.name: params[o.name] for o in self.pyramids_game.options if o.name in params},
        )
        self.codec: GameCodec = make_codec(game_id, players, self.variant)
        self.players = self.codec.players
        self._deals = Rng(self.seed)
        #: deal numbers dealt but never played, to deal again first
        self._returned: list[int] = []
        self._first: dict[tuple[str, int, int | None], Any] = {}
        self._resamples = Rng(self.seed ^ 0x0BADC0DE)
        solo = self.players == 1
        game_type = _game_type(self.pyramids_game)
        variant = self.codec.variant
        low, high = self.pyramids_game.score_bounds(self.players, variant)
        length = self.pyramids_game.max_game_length(self.players, variant)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.actions.num_actions,
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=low if solo else -1.0,
            max_utility=high if solo else 1.0,
            utility_sum=None if solo else 0.0,
            max_game_length=UNBOUNDED_LENGTH if length is None else length,
        )
        full = {**{k: spec[k] for k in spec}, **params}
        super().__init__(game_type, info, full)

    def next_deal(self) -> int:
        """The deal number of the next new game (the ``deal`` parameter if fixed)."""
        if self.deal >= 0:
            return self.deal
        if self._returned:
            return self._returned.pop()
        return self._deals.next_u64() & _MASK32

    def give_back(self, deal: int) -> None:
        """A deal that was dealt but never played: deal it again next."""
        if self.deal < 0:
            self._returned.append(deal)

    def deal_state(self, deal: int) -> State[Any]:
        """A freshly dealt engine state of deal number ``deal``."""
        return self.pyramids_game.new(players=self.players, seed=deal, **self.variant)

    def first_position(self, key: tuple[str, int, int | None], make: Callable[[], Any]) -> Any:
        """A cached value (view JSON, tensor) of a deal's first position."""
        value = self._first.get(key)
        if value is None:
            if len(self._first) > 512:
                self._first.clear()
            value = self._first[key] = make()
        return value

    def resample_seed(self) -> int:
        """A counter-like stream mixed into resampling seeds (see the module docstring)."""
        return self._resamples.next_u64()

    def new_initial_state(self) -> PyramidsSpielState:
        return PyramidsSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> ViewObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {dict(params)}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = True
        if iig_obs_type is not None:
            if not iig_obs_type.public_info:
                raise ValueError("an observer without public information is not supported")
            kind = iig_obs_type.private_info
            if kind == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ValueError(
                    "private_info=ALL_PLAYERS is not supported: a view is one seat's "
                    "(SINGLE_PLAYER) or the spectator's (NONE)"
                )
            private = kind == pyspiel.PrivateInfoType.SINGLE_PLAYER
        return ViewObserver(self.codec, perfect_recall=recall, private=private)


class PyramidsSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping one of our engine states."""

    def __init__(self, game: PyramidsSpielGame) -> None:
        super().__init__(game)
        self._codec = game.codec
        self._engine = _Engine(game)

    @property
    def engine_state(self) -> State[Any]:
        """The wrapped engine state (read it; play through ``apply_action``)."""
        return self._engine.state

    @property
    def engine(self) -> _Engine:
        """The wrapper around the engine state (views cached per position)."""
        return self._engine

    def info_digest(self, seat: int) -> str:
        """The SHA-1 chain of every view ``seat`` has had (part of its information state)."""
        return self._engine.digests[seat]

    # -- the pyspiel.State API ------------------------------------------------------

    def current_player(self) -> int:
        player = self.engine_state.current_player
        return int(pyspiel.PlayerId.TERMINAL) if player is None else player

    def _legal_actions(self, player: int) -> list[int]:
        state = self.engine_state
        if state.current_player != player:
            return []
        return self._codec.actions.legal_actions(state)

    def _apply_action(self, action: int) -> None:
        state = self.engine_state
        move = self._codec.actions.decode(state, int(action))
        state.play(move)
        self._engine.played()

    def _action_to_string(self, player: int, action: int) -> str:
        state = self.engine_state
        try:
            return state.move_to_str(self._codec.actions.decode(state, int(action)))
        except (ValueError, IndexError, KeyError):
            return self._codec.actions.describe(int(action))

    def is_terminal(self) -> bool:
        return self.engine_state.is_over

    def returns(self) -> list[float]:
        state = self.engine_state
        if not state.is_over:
            return [0.0] * state.players
        if state.players == 1:
            return [float(state.scores()[0])]
        return pairwise_utility(state.ranking())

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state that ``player_id`` cannot tell from this one (hidden parts redrawn)."""
        game: PyramidsSpielGame = self.get_game()
        seed = int(probability_sampler() * (1 << 53)) ^ game.resample_seed()
        state = self.engine_state
        other = state.determinize(player_id, Rng(seed))
        known = self._engine.digests
        mine = known[player_id]
        digests = (
            *(
                mine if p == player_id else _chain(mine + str(p), _view_json(other, p))
                for p in range(state.players)
            ),
            known[-1],  # what everyone sees is the same in the resampled state
        )
        out = PyramidsSpielState(game)
        out._engine = _Engine(None, other, digests)
        return out

    def __deepcopy__(self, memo: dict[int, Any]) -> PyramidsSpielState:
        """An independent copy that plays on exactly as this state (``clone``).

        OpenSpiel's own deep copy and pickle go through its C++ serialization,
        which asks a sampled-stochastic game for its random generator's state
        and refuses a Python game; our engine state carries its chance stream
        itself, so a clone (or the record, for pickle) is the whole state.
        """
        out: PyramidsSpielState = self.clone()
        return out

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any], _Engine]]:
        """Pickled as the game's name and parameters and the engine's record."""
        game = self.get_game()
        return (_restore_state, (game.get_type().short_name, game.get_parameters(), self._engine))

    def __str__(self) -> str:
        return self._engine.view_json(None)

    def text(self, seat: int | None = None) -> str:
        """The terminal picture of ``seat``'s view (spectator by default), for people."""
        state = self.engine_state
        return view_text(state.game.id, state.view(seat))


def _restore_state(name: str, params: dict[str, Any], engine: _Engine) -> PyramidsSpielState:
    """A pickled :class:`PyramidsSpielState` again (see its ``__reduce__``)."""
    game = pyspiel.load_game(name, params)
    out = PyramidsSpielState(game)
    out._engine = engine
    return out


class ViewObserver:
    """OpenSpiel's observer protocol over a seat's view (``tensor``, ``dict``, ``set_from``).

    ``private=False`` (``PrivateInfoType.NONE``) observes the spectator's view
    for every seat, so no seat's private information reaches the tensor.
    """

    def __init__(self, codec: GameCodec, perfect_recall: bool, private: bool = True) -> None:
        self.codec = codec
        self.perfect_recall = perfect_recall
        self.private = private
        self.tensor: FloatArray = np.zeros(codec.observations.shape, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PyramidsSpielState, player: int) -> None:
        self.tensor[:] = state.engine.observation(player if self.private else None, self.codec)

    def string_from(self, state: PyramidsSpielState, player: int) -> str:
        seat = player if self.private else None
        text = state.engine.view_json(seat)
        if self.perfect_recall:
            digests = state.engine.digests
            return f"{text}\nseen:{digests[player] if self.private else digests[-1]}"
        return text


# -- registration -------------------------------------------------------------------


def _parameter_spec(game: Game[Any]) -> dict[str, Any]:
    spec: dict[str, Any] = {"players": game.min_players, "seed": 0, "deal": -1}
    for option in game.options:
        spec[option.name] = option.default
    spec.update(RESEARCH_DEFAULTS.get(game.id, {}))  # the adapters' defaults (docstring)
    return spec


def _game_type(game: Game[Any]) -> Any:
    solo = game.max_players == 1
    return pyspiel.GameType(
        short_name=short_name(game.id),
        long_name=f"Pyramids: {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
            if game.chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if game.hidden_information
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=(
            pyspiel.GameType.Utility.GENERAL_SUM if solo else pyspiel.GameType.Utility.ZERO_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_spec(game),
    )


class _Creator:
    """Builds the OpenSpiel game of one of our games from OpenSpiel's parameters.

    OpenSpiel keeps the creator in a C++ registry that is destroyed after the
    interpreter has shut down; if that released the last reference, Python
    would free the object without holding the GIL and abort at exit. A
    reference cycle (never collected while the registry holds it) keeps the
    count above zero, as a class would (OpenSpiel's own examples register
    classes).
    """

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self._keep_alive = self

    def __call__(self, params: Mapping[str, Any] | None = None) -> PyramidsSpielGame:
        return PyramidsSpielGame(self.game_id, params)


def register(game_id: str) -> str:
    """Register ``game_id`` with OpenSpiel (idempotent); return its OpenSpiel name."""
    name = short_name(game_id)
    if name not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(get_game(game_id)), _Creator(game_id))
    return name


def register_all() -> list[str]:
    """Register every game of the registry; return the OpenSpiel names.

    Loading one needs a codec (:func:`~pyramids.envs.encodings.make_codec`
    says which module is missing when a game has none).
    """
    return [register(g) for g in game_ids()]


register_all()
