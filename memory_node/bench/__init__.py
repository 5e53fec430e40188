"""Benchmarks and evaluation: scripts that print figures (never timed unit tests)."""
