"""Running Pyramids on more than one process or machine, on existing engines.

* :mod:`pyramids.cluster.broker`: the Redis side of many ``pyramids serve``
  instances on one database (pub/sub fan-out of committed events, bot leases,
  the set of bots waiting for an instance); needs the ``redis`` package
  (extras ``redis`` or ``cluster``).
* :mod:`pyramids.cluster.ray_executor`: arena, simulate and solve batches as
  Ray tasks (extra ``cluster``).

Nothing here is imported unless asked for: a single ``pyramids serve`` on
SQLite and the local batch commands never load Redis or Ray.
"""
