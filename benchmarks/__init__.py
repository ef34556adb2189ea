"""Accuracy and speed suites (`python -m benchmarks.accuracy`, `python -m benchmarks.speed`)."""
