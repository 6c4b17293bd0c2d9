"""``trellax.flax.training.common_utils`` (``flax.training.common_utils``)."""

from trellax._src.flax.training.common_utils import get_metrics as get_metrics
from trellax._src.flax.training.common_utils import onehot as onehot
from trellax._src.flax.training.common_utils import shard as shard
from trellax._src.flax.training.common_utils import shard_prng_key as shard_prng_key
from trellax._src.flax.training.common_utils import stack_forest as stack_forest
