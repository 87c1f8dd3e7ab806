"""How Pyramido is reviewed: by search, its playouts valued by the score lead."""

from pyramids.review.model import ReviewProfile, Thresholds

PROFILE = ReviewProfile(
    # long games of small steps: noisier values, so wider bands
    thresholds=Thresholds(inaccuracy=0.07, mistake=0.14, blunder=0.28),
    # its playouts run to the end of the game: fewer of them fit in the minute
    iteration_share=0.6,
    # a win-or-lose playout is too noisy; a ten-point lead is a near-certain win
    lead_scale=10.0,
)
