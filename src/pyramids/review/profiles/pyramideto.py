"""How Pyramideto is reviewed: by search, with many of its one-ply playouts."""

from pyramids.review.model import ReviewProfile, Thresholds

PROFILE = ReviewProfile(
    # a tempo game: one move rarely changes the result by much, unless it hands a win over
    thresholds=Thresholds(inaccuracy=0.06, mistake=0.12, blunder=0.25),
    # its playouts are one ply: three times the iterations fit in the same time
    iteration_share=3.0,
)
