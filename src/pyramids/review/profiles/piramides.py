"""How Pirámides is reviewed: by the solver, on deals of the unseen cards."""

from pyramids.review.model import ReviewProfile, Thresholds

PROFILE = ReviewProfile(
    # a clear is worth a whole new deal: losing a tenth of the chance is a real error
    thresholds=Thresholds(inaccuracy=0.05, mistake=0.10, blunder=0.25),
    by_solver=True,
)
