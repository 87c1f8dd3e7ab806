"""Benchmarks: ``make bench`` (or ``python -m benchmarks [name ...]``) runs them all."""
