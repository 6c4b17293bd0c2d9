"""``jax.experimental.random``: the stateful generator of JAX's JEP 28845
(``stateful_rng(1701).random(5)``); see ``trellax/_src/experimental/stateful_rng.py``."""

from trellax._src.experimental.stateful_rng import StatefulPRNG as StatefulPRNG
from trellax._src.experimental.stateful_rng import stateful_rng as stateful_rng
