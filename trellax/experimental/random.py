"""``jax.experimental.random``: the stateful generator of JAX's JEP 28845
(``stateful_rng(1701).random(5)``); see ``trellax/_src/random/stateful.py``."""

from trellax._src.random.stateful import StatefulPRNG as StatefulPRNG
from trellax._src.random.stateful import stateful_rng as stateful_rng
