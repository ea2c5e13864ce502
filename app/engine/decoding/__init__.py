"""Decoding one 30 s window: the token loop, logit filters, greedy/sampling/beam strategies, temperature fallback."""
