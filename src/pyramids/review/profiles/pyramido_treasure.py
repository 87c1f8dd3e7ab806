"""How the treasure hunt is reviewed: by search, with Pyramido's bands."""

from pyramids.review.model import ReviewProfile, Thresholds

PROFILE = ReviewProfile(
    # as Pyramido: chance events (the hunt) make values noisy, so wider bands
    thresholds=Thresholds(inaccuracy=0.07, mistake=0.14, blunder=0.28),
)
