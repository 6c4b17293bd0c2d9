"""``trellax.optim``: optax-style gradient transformations, schedules and loss scaling.

>>> import trellax.numpy as tnp, trellax.optim as optim
>>> opt = optim.adam(1e-3)
>>> params = {"w": tnp.ones(3)}
>>> state = opt.init(params)
>>> updates, state = opt.update({"w": tnp.ones(3)}, state, params)
>>> params = optim.apply_updates(params, updates)

The arithmetic and dtypes are optax 0.2.8's (moments in the parameters' dtype unless a
``*_dtype`` option says otherwise); docs/nn.md lists the measured agreement.
"""

from trellax._src.optim.accumulation import LookaheadParams as LookaheadParams
from trellax._src.optim.accumulation import LookaheadState as LookaheadState
from trellax._src.optim.accumulation import MultiSteps as MultiSteps
from trellax._src.optim.accumulation import MultiStepsState as MultiStepsState
from trellax._src.optim.accumulation import ShouldSkipUpdateFunction as ShouldSkipUpdateFunction
from trellax._src.optim.accumulation import lookahead as lookahead
from trellax._src.optim.accumulation import skip_large_updates as skip_large_updates
from trellax._src.optim.accumulation import skip_not_finite as skip_not_finite
from trellax._src.optim.aliases import adagrad as adagrad
from trellax._src.optim.aliases import adam as adam
from trellax._src.optim.aliases import adamw as adamw
from trellax._src.optim.aliases import lion as lion
from trellax._src.optim.aliases import rmsprop as rmsprop
from trellax._src.optim.aliases import sgd as sgd
from trellax._src.optim.aliases_adaptive import ScaleByAdaDeltaState as ScaleByAdaDeltaState
from trellax._src.optim.aliases_adaptive import (
    ScaleByOptimisticGradientState as ScaleByOptimisticGradientState,
)
from trellax._src.optim.aliases_adaptive import ScaleByRpropState as ScaleByRpropState
from trellax._src.optim.aliases_adaptive import adadelta as adadelta
from trellax._src.optim.aliases_adaptive import lars as lars
from trellax._src.optim.aliases_adaptive import (
    optimistic_gradient_descent as optimistic_gradient_descent,
)
from trellax._src.optim.aliases_adaptive import rprop as rprop
from trellax._src.optim.aliases_adaptive import scale_by_adadelta as scale_by_adadelta
from trellax._src.optim.aliases_adaptive import (
    scale_by_optimistic_gradient as scale_by_optimistic_gradient,
)
from trellax._src.optim.aliases_adaptive import scale_by_rprop as scale_by_rprop
from trellax._src.optim.aliases_more import ScaleByAmsgradState as ScaleByAmsgradState
from trellax._src.optim.aliases_more import adamax as adamax
from trellax._src.optim.aliases_more import amsgrad as amsgrad
from trellax._src.optim.aliases_more import lamb as lamb
from trellax._src.optim.aliases_more import scale_by_adamax as scale_by_adamax
from trellax._src.optim.aliases_more import scale_by_amsgrad as scale_by_amsgrad
from trellax._src.optim.aliases_more import scale_by_trust_ratio as scale_by_trust_ratio
from trellax._src.optim.aliases_rest import ScaleByBeliefState as ScaleByBeliefState
from trellax._src.optim.aliases_rest import ScaleByNovogradState as ScaleByNovogradState
from trellax._src.optim.aliases_rest import ScaleBySM3State as ScaleBySM3State
from trellax._src.optim.aliases_rest import adabelief as adabelief
from trellax._src.optim.aliases_rest import fromage as fromage
from trellax._src.optim.aliases_rest import novograd as novograd
from trellax._src.optim.aliases_rest import radam as radam
from trellax._src.optim.aliases_rest import scale_by_belief as scale_by_belief
from trellax._src.optim.aliases_rest import scale_by_novograd as scale_by_novograd
from trellax._src.optim.aliases_rest import scale_by_param_block_norm as scale_by_param_block_norm
from trellax._src.optim.aliases_rest import scale_by_param_block_rms as scale_by_param_block_rms
from trellax._src.optim.aliases_rest import scale_by_radam as scale_by_radam
from trellax._src.optim.aliases_rest import scale_by_sm3 as scale_by_sm3
from trellax._src.optim.aliases_rest import scale_by_yogi as scale_by_yogi
from trellax._src.optim.aliases_rest import sm3 as sm3
from trellax._src.optim.aliases_rest import yogi as yogi
from trellax._src.optim.aliases_sign import ApplyEvery as ApplyEvery
from trellax._src.optim.aliases_sign import adamaxw as adamaxw
from trellax._src.optim.aliases_sign import apply_every as apply_every
from trellax._src.optim.aliases_sign import nadam as nadam
from trellax._src.optim.aliases_sign import nadamw as nadamw
from trellax._src.optim.aliases_sign import scale_by_sign as scale_by_sign
from trellax._src.optim.aliases_sign import sign_sgd as sign_sgd
from trellax._src.optim.aliases_sign import signum as signum
from trellax._src.optim.base import EmptyState as EmptyState
from trellax._src.optim.base import GradientTransformation as GradientTransformation
from trellax._src.optim.base import (
    GradientTransformationExtraArgs as GradientTransformationExtraArgs,
)
from trellax._src.optim.base import apply_updates as apply_updates
from trellax._src.optim.base import chain as chain
from trellax._src.optim.base import global_norm as global_norm
from trellax._src.optim.base import init_empty_state as init_empty_state
from trellax._src.optim.base import safe_increment as safe_increment
from trellax._src.optim.base import with_extra_args_support as with_extra_args_support
from trellax._src.optim.clipping_more import adaptive_grad_clip as adaptive_grad_clip
from trellax._src.optim.conditional import (
    ConditionallyMaskState as ConditionallyMaskState,
)
from trellax._src.optim.conditional import (
    ConditionallyTransformState as ConditionallyTransformState,
)
from trellax._src.optim.conditional import conditionally_mask as conditionally_mask
from trellax._src.optim.conditional import conditionally_transform as conditionally_transform
from trellax._src.optim.conditional import flatten as flatten
from trellax._src.optim.conditional import normalize_by_update_norm as normalize_by_update_norm
from trellax._src.optim.factorized import FactoredState as FactoredState
from trellax._src.optim.factorized import adafactor as adafactor
from trellax._src.optim.factorized import scale_by_factored_rms as scale_by_factored_rms
from trellax._src.optim.helpers import freeze as freeze
from trellax._src.optim.helpers import incremental_update as incremental_update
from trellax._src.optim.helpers import periodic_update as periodic_update
from trellax._src.optim.helpers import safe_int32_increment as safe_int32_increment
from trellax._src.optim.helpers import safe_norm as safe_norm
from trellax._src.optim.helpers import safe_root_mean_squares as safe_root_mean_squares
from trellax._src.optim.helpers import scale_gradient as scale_gradient
from trellax._src.optim.helpers import selective_transform as selective_transform
from trellax._src.optim.helpers import stateless as stateless
from trellax._src.optim.helpers import stateless_with_tree_map as stateless_with_tree_map
from trellax._src.optim.helpers import tree_map_params as tree_map_params
from trellax._src.optim.inject import InjectHyperparamsState as InjectHyperparamsState
from trellax._src.optim.inject import (
    InjectStatefulHyperparamsState as InjectStatefulHyperparamsState,
)
from trellax._src.optim.inject import WrappedSchedule as WrappedSchedule
from trellax._src.optim.inject import inject_hyperparams as inject_hyperparams
from trellax._src.optim.inject import inject_stateful_hyperparams as inject_stateful_hyperparams
from trellax._src.optim.lbfgs import ScaleByLBFGSState as ScaleByLBFGSState
from trellax._src.optim.lbfgs import lbfgs as lbfgs
from trellax._src.optim.lbfgs import scale_by_lbfgs as scale_by_lbfgs
from trellax._src.optim.linear_algebra import matrix_inverse_pth_root as matrix_inverse_pth_root
from trellax._src.optim.linear_algebra import nnls as nnls
from trellax._src.optim.linear_algebra import power_iteration as power_iteration
from trellax._src.optim.linesearch import (
    ScaleByBacktrackingLinesearchState as ScaleByBacktrackingLinesearchState,
)
from trellax._src.optim.linesearch import (
    ScaleByZoomLinesearchState as ScaleByZoomLinesearchState,
)
from trellax._src.optim.linesearch import ZoomLinesearchInfo as ZoomLinesearchInfo
from trellax._src.optim.linesearch import (
    scale_by_backtracking_linesearch as scale_by_backtracking_linesearch,
)
from trellax._src.optim.linesearch import scale_by_zoom_linesearch as scale_by_zoom_linesearch
from trellax._src.optim.linesearch import value_and_grad_from_state as value_and_grad_from_state
from trellax._src.optim.loss_scale import DynamicLossScale as DynamicLossScale
from trellax._src.optim.loss_scale import all_finite as all_finite
from trellax._src.optim.loss_scale import select_tree as select_tree
from trellax._src.optim.losses import convex_kl_divergence as convex_kl_divergence
from trellax._src.optim.losses import cosine_distance as cosine_distance
from trellax._src.optim.losses import cosine_similarity as cosine_similarity
from trellax._src.optim.losses import generalized_kl_divergence as generalized_kl_divergence
from trellax._src.optim.losses import hinge_loss as hinge_loss
from trellax._src.optim.losses import huber_loss as huber_loss
from trellax._src.optim.losses import kl_divergence as kl_divergence
from trellax._src.optim.losses import l2_loss as l2_loss
from trellax._src.optim.losses import log_cosh as log_cosh
from trellax._src.optim.losses import safe_softmax_cross_entropy as safe_softmax_cross_entropy
from trellax._src.optim.losses import sigmoid_binary_cross_entropy as sigmoid_binary_cross_entropy
from trellax._src.optim.losses import sigmoid_focal_loss as sigmoid_focal_loss
from trellax._src.optim.losses import smooth_labels as smooth_labels
from trellax._src.optim.losses import softmax_cross_entropy as softmax_cross_entropy
from trellax._src.optim.losses import (
    softmax_cross_entropy_with_integer_labels as softmax_cross_entropy_with_integer_labels,
)
from trellax._src.optim.losses import squared_error as squared_error
from trellax._src.optim.losses_ctc import ctc_loss as ctc_loss
from trellax._src.optim.losses_ctc import ctc_loss_with_forward_probs as ctc_loss_with_forward_probs
from trellax._src.optim.losses_more import ntxent as ntxent
from trellax._src.optim.multi_normal import (
    MultiNormalDiagFromLogScale as MultiNormalDiagFromLogScale,
)
from trellax._src.optim.multi_normal import multi_normal as multi_normal
from trellax._src.optim.names_more import AdaptiveGradClipState as AdaptiveGradClipState
from trellax._src.optim.names_more import AddDecayedWeightsState as AddDecayedWeightsState
from trellax._src.optim.names_more import ClipByGlobalNormState as ClipByGlobalNormState
from trellax._src.optim.names_more import ClipState as ClipState
from trellax._src.optim.names_more import MaskOrFn as MaskOrFn
from trellax._src.optim.names_more import OptState as OptState
from trellax._src.optim.names_more import Params as Params
from trellax._src.optim.names_more import ScalarOrSchedule as ScalarOrSchedule
from trellax._src.optim.names_more import ScaleByTrustRatioState as ScaleByTrustRatioState
from trellax._src.optim.names_more import ScaleState as ScaleState
from trellax._src.optim.names_more import Schedule as Schedule
from trellax._src.optim.names_more import TransformInitFn as TransformInitFn
from trellax._src.optim.names_more import (
    TransformUpdateExtraArgsFn as TransformUpdateExtraArgsFn,
)
from trellax._src.optim.names_more import TransformUpdateFn as TransformUpdateFn
from trellax._src.optim.names_more import Updates as Updates
from trellax._src.optim.names_more import named_chain as named_chain
from trellax._src.optim.schedules import constant as constant
from trellax._src.optim.schedules import constant_schedule as constant_schedule
from trellax._src.optim.schedules import cosine_decay as cosine_decay
from trellax._src.optim.schedules import cosine_decay_schedule as cosine_decay_schedule
from trellax._src.optim.schedules import exponential_decay as exponential_decay
from trellax._src.optim.schedules import join_schedules as join_schedules
from trellax._src.optim.schedules import linear as linear
from trellax._src.optim.schedules import linear_schedule as linear_schedule
from trellax._src.optim.schedules import piecewise_constant_schedule as piecewise_constant_schedule
from trellax._src.optim.schedules import polynomial_schedule as polynomial_schedule
from trellax._src.optim.schedules import sgdr_schedule as sgdr_schedule
from trellax._src.optim.schedules import warmup_constant_schedule as warmup_constant_schedule
from trellax._src.optim.schedules import warmup_cosine_decay as warmup_cosine_decay
from trellax._src.optim.schedules import (
    warmup_cosine_decay_schedule as warmup_cosine_decay_schedule,
)
from trellax._src.optim.schedules import (
    warmup_exponential_decay_schedule as warmup_exponential_decay_schedule,
)
from trellax._src.optim.schedules_interp import (
    cosine_onecycle_schedule as cosine_onecycle_schedule,
)
from trellax._src.optim.schedules_interp import (
    linear_onecycle_schedule as linear_onecycle_schedule,
)
from trellax._src.optim.schedules_interp import (
    piecewise_interpolate_schedule as piecewise_interpolate_schedule,
)
from trellax._src.optim.transforms import MaskedState as MaskedState
from trellax._src.optim.transforms import ScaleByAdamState as ScaleByAdamState
from trellax._src.optim.transforms import ScaleByLionState as ScaleByLionState
from trellax._src.optim.transforms import ScaleByRmsState as ScaleByRmsState
from trellax._src.optim.transforms import ScaleByRssState as ScaleByRssState
from trellax._src.optim.transforms import ScaleByRStdDevState as ScaleByRStdDevState
from trellax._src.optim.transforms import ScaleByScheduleState as ScaleByScheduleState
from trellax._src.optim.transforms import TraceState as TraceState
from trellax._src.optim.transforms import WeightDecaySchedule as WeightDecaySchedule
from trellax._src.optim.transforms import add_decayed_weights as add_decayed_weights
from trellax._src.optim.transforms import clip_by_global_norm as clip_by_global_norm
from trellax._src.optim.transforms import identity as identity
from trellax._src.optim.transforms import scale as scale
from trellax._src.optim.transforms import scale_by_adam as scale_by_adam
from trellax._src.optim.transforms import scale_by_learning_rate as scale_by_learning_rate
from trellax._src.optim.transforms import scale_by_lion as scale_by_lion
from trellax._src.optim.transforms import scale_by_rms as scale_by_rms
from trellax._src.optim.transforms import scale_by_rss as scale_by_rss
from trellax._src.optim.transforms import scale_by_schedule as scale_by_schedule
from trellax._src.optim.transforms import scale_by_stddev as scale_by_stddev
from trellax._src.optim.transforms import trace as trace
from trellax._src.optim.transforms_names import AddNoiseState as AddNoiseState
from trellax._src.optim.transforms_names import MonitorState as MonitorState
from trellax._src.optim.transforms_names import ScaleByAdanState as ScaleByAdanState
from trellax._src.optim.transforms_names import SnapshotState as SnapshotState
from trellax._src.optim.transforms_names import adan as adan
from trellax._src.optim.transforms_names import add_noise as add_noise
from trellax._src.optim.transforms_names import measure_with_ema as measure_with_ema
from trellax._src.optim.transforms_names import monitor as monitor
from trellax._src.optim.transforms_names import noisy_sgd as noisy_sgd
from trellax._src.optim.transforms_names import optimistic_adam as optimistic_adam
from trellax._src.optim.transforms_names import optimistic_adam_v2 as optimistic_adam_v2
from trellax._src.optim.transforms_names import (
    per_example_global_norm_clip as per_example_global_norm_clip,
)
from trellax._src.optim.transforms_names import (
    per_example_layer_norm_clip as per_example_layer_norm_clip,
)
from trellax._src.optim.transforms_names import polyak_sgd as polyak_sgd
from trellax._src.optim.transforms_names import scale_by_adan as scale_by_adan
from trellax._src.optim.transforms_names import (
    scale_by_distance_over_gradients as scale_by_distance_over_gradients,
)
from trellax._src.optim.transforms_names import scale_by_polyak as scale_by_polyak
from trellax._src.optim.transforms_names import snapshot as snapshot
from trellax._src.optim.tree_math import bias_correction as bias_correction
from trellax._src.optim.tree_math import update_infinity_moment as update_infinity_moment
from trellax._src.optim.tree_math import update_moment as update_moment
from trellax._src.optim.tree_math import update_moment_per_elem_norm as update_moment_per_elem_norm
from trellax._src.optim.wrappers import ApplyIfFiniteState as ApplyIfFiniteState
from trellax._src.optim.wrappers import EmaState as EmaState
from trellax._src.optim.wrappers import MaskedNode as MaskedNode
from trellax._src.optim.wrappers import MultiTransformState as MultiTransformState
from trellax._src.optim.wrappers import NonNegativeParamsState as NonNegativeParamsState
from trellax._src.optim.wrappers import PartitionState as PartitionState
from trellax._src.optim.wrappers import ZeroNansState as ZeroNansState
from trellax._src.optim.wrappers import apply_if_finite as apply_if_finite
from trellax._src.optim.wrappers import centralize as centralize
from trellax._src.optim.wrappers import clip as clip
from trellax._src.optim.wrappers import clip_by_block_rms as clip_by_block_rms
from trellax._src.optim.wrappers import ema as ema
from trellax._src.optim.wrappers import keep_params_nonnegative as keep_params_nonnegative
from trellax._src.optim.wrappers import masked as masked
from trellax._src.optim.wrappers import multi_transform as multi_transform
from trellax._src.optim.wrappers import partition as partition
from trellax._src.optim.wrappers import set_to_zero as set_to_zero
from trellax._src.optim.wrappers import zero_nans as zero_nans
from trellax.optim import assignment as assignment
from trellax.optim import contrib as contrib
from trellax.optim import experimental as experimental
from trellax.optim import losses as losses
from trellax.optim import microbatching as microbatching
from trellax.optim import perturbations as perturbations
from trellax.optim import projections as projections
from trellax.optim import schedules as schedules
from trellax.optim import second_order as second_order
from trellax.optim import transforms as transforms
from trellax.optim import tree as tree
from trellax.optim import tree_utils as tree_utils
from trellax.optim.microbatching import microbatch as microbatch
