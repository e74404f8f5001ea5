"""Hindsight comparators: the best fixed predictor chosen after seeing the stream."""
