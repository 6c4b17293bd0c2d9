"""``flax.training``: train state, checkpoints, early stopping, learning-rate schedules, helpers."""
