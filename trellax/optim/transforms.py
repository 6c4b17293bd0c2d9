"""``optax.transforms``: the gradient transformations that combine, wrap, clip, mask, freeze,
accumulate or monitor others (the same objects as ``trellax.optim``'s names).
"""

from trellax._src.optim.accumulation import MultiSteps as MultiSteps
from trellax._src.optim.accumulation import MultiStepsState as MultiStepsState
from trellax._src.optim.accumulation import ShouldSkipUpdateFunction as ShouldSkipUpdateFunction
from trellax._src.optim.accumulation import skip_large_updates as skip_large_updates
from trellax._src.optim.accumulation import skip_not_finite as skip_not_finite
from trellax._src.optim.base import chain as chain
from trellax._src.optim.clipping_more import adaptive_grad_clip as adaptive_grad_clip
from trellax._src.optim.clipping_more import unitwise_clip as unitwise_clip
from trellax._src.optim.clipping_more import unitwise_norm as unitwise_norm
from trellax._src.optim.conditional import ConditionallyMaskState as ConditionallyMaskState
from trellax._src.optim.conditional import (
    ConditionallyTransformState as ConditionallyTransformState,
)
from trellax._src.optim.conditional import ConditionFn as ConditionFn
from trellax._src.optim.conditional import conditionally_mask as conditionally_mask
from trellax._src.optim.conditional import conditionally_transform as conditionally_transform
from trellax._src.optim.conditional import flatten as flatten
from trellax._src.optim.helpers import freeze as freeze
from trellax._src.optim.helpers import selective_transform as selective_transform
from trellax._src.optim.names_more import named_chain as named_chain
from trellax._src.optim.transforms import MaskedState as MaskedState
from trellax._src.optim.transforms import TraceState as TraceState
from trellax._src.optim.transforms import add_decayed_weights as add_decayed_weights
from trellax._src.optim.transforms import clip_by_global_norm as clip_by_global_norm
from trellax._src.optim.transforms import trace as trace
from trellax._src.optim.transforms_names import AddNoiseState as AddNoiseState
from trellax._src.optim.transforms_names import MonitorState as MonitorState
from trellax._src.optim.transforms_names import SnapshotState as SnapshotState
from trellax._src.optim.transforms_names import add_noise as add_noise
from trellax._src.optim.transforms_names import measure_with_ema as measure_with_ema
from trellax._src.optim.transforms_names import monitor as monitor
from trellax._src.optim.transforms_names import (
    per_example_global_norm_clip as per_example_global_norm_clip,
)
from trellax._src.optim.transforms_names import (
    per_example_layer_norm_clip as per_example_layer_norm_clip,
)
from trellax._src.optim.transforms_names import snapshot as snapshot
from trellax._src.optim.wrappers import ApplyIfFiniteState as ApplyIfFiniteState
from trellax._src.optim.wrappers import EmaState as EmaState
from trellax._src.optim.wrappers import MaskedNode as MaskedNode
from trellax._src.optim.wrappers import NonNegativeParamsState as NonNegativeParamsState
from trellax._src.optim.wrappers import PartitionState as PartitionState
from trellax._src.optim.wrappers import ZeroNansState as ZeroNansState
from trellax._src.optim.wrappers import apply_if_finite as apply_if_finite
from trellax._src.optim.wrappers import clip as clip
from trellax._src.optim.wrappers import clip_by_block_rms as clip_by_block_rms
from trellax._src.optim.wrappers import ema as ema
from trellax._src.optim.wrappers import keep_params_nonnegative as keep_params_nonnegative
from trellax._src.optim.wrappers import masked as masked
from trellax._src.optim.wrappers import partition as partition
from trellax._src.optim.wrappers import zero_nans as zero_nans
