"""Each game's review profile: a module named after the game, whose ``PROFILE`` it is.

A :class:`~pyramids.review.model.ReviewProfile` says how the review grades a
game and spends its budget on it (:mod:`pyramids.engine.faces` finds the
module); a game without one is reviewed by search with the default bands.
Light to import, like :mod:`pyramids.review.model`.
"""

from __future__ import annotations

from pyramids.engine.faces import face_attribute, face_path
from pyramids.review.model import DEFAULT_PROFILE, ReviewProfile, Thresholds


def profile_for(game_id: str) -> ReviewProfile:
    """The review profile of ``game_id`` (:data:`DEFAULT_PROFILE` if it has none)."""
    profile = face_attribute(__name__, game_id, "PROFILE", DEFAULT_PROFILE)
    if not isinstance(profile, ReviewProfile):
        raise TypeError(f"{face_path(__name__, game_id)}.PROFILE is not a ReviewProfile")
    return profile


def thresholds_for(game_id: str) -> Thresholds:
    """The grading bands of a game (a game without its own gets the default bands)."""
    return profile_for(game_id).thresholds
