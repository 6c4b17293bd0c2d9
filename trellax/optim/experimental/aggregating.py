"""``optax.experimental.aggregating``: aggregation of per-element gradients (means over
micro-steps, the per-element variance and its EMAs) and :func:`process` to combine them."""

from trellax._src.optim.aggregating import AccumulateAvgUpdatesState as AccumulateAvgUpdatesState
from trellax._src.optim.aggregating import AggregatedUpdates as AggregatedUpdates
from trellax._src.optim.aggregating import Aggregator as Aggregator
from trellax._src.optim.aggregating import AggregatorUpdateFn as AggregatorUpdateFn
from trellax._src.optim.aggregating import MaybeAxis as MaybeAxis
from trellax._src.optim.aggregating import (
    PerElementMeanAndSumSqDiffGradsState as PerElementMeanAndSumSqDiffGradsState,
)
from trellax._src.optim.aggregating import (
    PerElementMeanAndVarianceEMAState as PerElementMeanAndVarianceEMAState,
)
from trellax._src.optim.aggregating import PerElementUpdates as PerElementUpdates
from trellax._src.optim.aggregating import accumulate_avg_updates as accumulate_avg_updates
from trellax._src.optim.aggregating import add_mean_variance_to_opt as add_mean_variance_to_opt
from trellax._src.optim.aggregating import (
    average_incrementally_updates as average_incrementally_updates,
)
from trellax._src.optim.aggregating import (
    average_per_element_updates as average_per_element_updates,
)
from trellax._src.optim.aggregating import (
    get_batch_size_from_per_elt_updates as get_batch_size_from_per_elt_updates,
)
from trellax._src.optim.aggregating import (
    get_per_element_mean_and_sum_sq_diff_grads as get_per_element_mean_and_sum_sq_diff_grads,
)
from trellax._src.optim.aggregating import (
    get_unbiased_mean_and_variance_ema as get_unbiased_mean_and_variance_ema,
)
from trellax._src.optim.aggregating import process as process
from trellax._src.optim.aggregating import (
    track_per_element_mean_and_variance_with_ema as track_per_element_mean_and_variance_with_ema,
)
