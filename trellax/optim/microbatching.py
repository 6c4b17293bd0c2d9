"""``optax.microbatching``: a function of a batch run on microbatches with its results
accumulated (sum, mean, running mean, concatenation), and the per-example ``micro_vmap`` and
``micro_grad`` built on it."""

from trellax._src.optim.microbatching import AccumulationType as AccumulationType
from trellax._src.optim.microbatching import Accumulator as Accumulator
from trellax._src.optim.microbatching import micro_grad as micro_grad
from trellax._src.optim.microbatching import micro_vmap as micro_vmap
from trellax._src.optim.microbatching import microbatch as microbatch
from trellax._src.optim.microbatching import reshape_batch_axis as reshape_batch_axis
