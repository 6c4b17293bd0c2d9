"""trellax: JAX's array semantics (lattice type promotion, weak types, x64, strict mode) on NumPy.

>>> import trellax
>>> import trellax.numpy as tnp
>>> tnp.arange(3, dtype="int8") + 1
Array([1, 2, 3], dtype=int8)
>>> with trellax.enable_x64():
...     trellax.dtypes.result_type("int8", 1.0)
dtype('float64')
"""

# -- issue 14: the rest of the top level (autodiff, callbacks, flags, one-device sharding) --------
from trellax import ad as ad
from trellax import ad_checkpoint as ad_checkpoint
from trellax import checkpoint_policies as checkpoint_policies
from trellax import core as core
from trellax import custom_batching as custom_batching
from trellax import custom_derivatives as custom_derivatives
from trellax import debug as debug
from trellax import distributed as distributed
from trellax import dlpack as dlpack
from trellax import dtypes as dtypes
from trellax import errors as errors
from trellax import experimental as experimental
from trellax import image as image
from trellax import interpreters as interpreters
from trellax import lax as lax
from trellax import memory as memory
from trellax import nn as nn
from trellax import numpy as numpy
from trellax import ops as ops
from trellax import profiler as profiler
from trellax import random as random
from trellax import ref as ref
from trellax import scipy as scipy
from trellax import sharding as sharding
from trellax import stages as stages
from trellax import tree as tree
from trellax import tree_util as tree_util
from trellax import typing as typing
from trellax._src.api.api import ShapeDtypeStruct as ShapeDtypeStruct
from trellax._src.api.api import eval_shape as eval_shape
from trellax._src.api.api import jit as jit
from trellax._src.api.api import make_jaxpr as make_jaxpr
from trellax._src.api.autodiff import grad as grad
from trellax._src.api.autodiff import jvp as jvp
from trellax._src.api.autodiff import linearize as linearize
from trellax._src.api.autodiff import value_and_grad as value_and_grad
from trellax._src.api.autodiff import vjp as vjp
from trellax._src.api.explain import explain_promotions as explain_promotions
from trellax._src.api.fwd_bwd import fwd_and_bwd as fwd_and_bwd
from trellax._src.api.jacobians import hessian as hessian
from trellax._src.api.jacobians import jacfwd as jacfwd
from trellax._src.api.jacobians import jacobian as jacobian
from trellax._src.api.jacobians import jacrev as jacrev
from trellax._src.api.linear_transpose import linear_transpose as linear_transpose
from trellax._src.api.vmap import vmap as vmap
from trellax._src.callbacks.callbacks import pure_callback as pure_callback
from trellax._src.checkpoint.rematerialize import checkpoint as checkpoint
from trellax._src.checkpoint.rematerialize import remat as remat
from trellax._src.config.jax_flags import allow_f16_reductions as allow_f16_reductions
from trellax._src.config.jax_flags import (
    array_garbage_collection_guard as array_garbage_collection_guard,
)
from trellax._src.config.jax_flags import auto_pcast as auto_pcast
from trellax._src.config.jax_flags import check_tracer_leaks as check_tracer_leaks
from trellax._src.config.jax_flags import checking_leaks as checking_leaks
from trellax._src.config.jax_flags import debug_infs as debug_infs
from trellax._src.config.jax_flags import debug_key_reuse as debug_key_reuse
from trellax._src.config.jax_flags import debug_nans as debug_nans
from trellax._src.config.jax_flags import default_device as default_device
from trellax._src.config.jax_flags import default_matmul_precision as default_matmul_precision
from trellax._src.config.jax_flags import default_prng_impl as default_prng_impl
from trellax._src.config.jax_flags import disable_jit as disable_jit
from trellax._src.config.jax_flags import enable_checks as enable_checks
from trellax._src.config.jax_flags import enable_custom_prng as enable_custom_prng
from trellax._src.config.jax_flags import explain_cache_misses as explain_cache_misses
from trellax._src.config.jax_flags import (
    jax2tf_associative_scan_reductions as jax2tf_associative_scan_reductions,
)
from trellax._src.config.jax_flags import legacy_prng_key as legacy_prng_key
from trellax._src.config.jax_flags import log_compiles as log_compiles
from trellax._src.config.jax_flags import no_execution as no_execution
from trellax._src.config.jax_flags import no_tracing as no_tracing
from trellax._src.config.jax_flags import numpy_rank_promotion as numpy_rank_promotion
from trellax._src.config.jax_flags import (
    remove_size_one_mesh_axis_from_type as remove_size_one_mesh_axis_from_type,
)
from trellax._src.config.jax_flags import softmax_custom_jvp as softmax_custom_jvp
from trellax._src.config.jax_flags import thread_guard as thread_guard
from trellax._src.config.jax_flags import threefry_partitionable as threefry_partitionable
from trellax._src.config.jax_flags import transfer_guard as transfer_guard
from trellax._src.config.jax_flags import (
    transfer_guard_device_to_device as transfer_guard_device_to_device,
)
from trellax._src.config.jax_flags import (
    transfer_guard_device_to_host as transfer_guard_device_to_host,
)
from trellax._src.config.jax_flags import (
    transfer_guard_host_to_device as transfer_guard_host_to_device,
)
from trellax._src.config.jax_option_flags import explicit_x64_dtypes as explicit_x64_dtypes
from trellax._src.config.settings import config as config
from trellax._src.config.settings import enable_x64_flag as _enable_x64_flag
from trellax._src.config.settings import fused_excess_precision as fused_excess_precision
from trellax._src.config.settings import numpy_dtype_promotion_flag as _promotion_flag
from trellax._src.config.user_context import make_user_context as make_user_context
from trellax._src.core.basearray import Array as Array

# -- issue 14: runtime helpers under JAX's names (one CPU device) --------------------------------
from trellax._src.core.devices import Device as Device
from trellax._src.custom.derivatives import custom_jvp as custom_jvp
from trellax._src.custom.derivatives import custom_vjp as custom_vjp
from trellax._src.custom.gradient import closure_convert as closure_convert
from trellax._src.custom.gradient import custom_gradient as custom_gradient
from trellax._src.interpreters.op_by_op import ensure_compile_time_eval as ensure_compile_time_eval
from trellax._src.lax.ad_util import float0 as float0
from trellax._src.numpy import array_methods as _array_methods
from trellax._src.numpy.dslice import ds as ds
from trellax._src.numpy.refs import Ref as Ref
from trellax._src.numpy.refs import freeze as freeze
from trellax._src.numpy.refs import new_ref as new_ref
from trellax._src.runtime.caches import clear_caches as clear_caches
from trellax._src.runtime.caches import effects_barrier as effects_barrier
from trellax._src.runtime.caches import live_arrays as live_arrays
from trellax._src.runtime.device import block_until_ready as block_until_ready
from trellax._src.runtime.device import default_backend as default_backend
from trellax._src.runtime.device import device_count as device_count
from trellax._src.runtime.device import device_get as device_get
from trellax._src.runtime.device import device_put as device_put
from trellax._src.runtime.device import devices as devices
from trellax._src.runtime.device import local_device_count as local_device_count
from trellax._src.runtime.device import local_devices as local_devices
from trellax._src.runtime.device import named_call as named_call
from trellax._src.runtime.device import named_scope as named_scope
from trellax._src.runtime.device import print_environment_info as print_environment_info
from trellax._src.runtime.device import process_count as process_count
from trellax._src.runtime.device import process_index as process_index
from trellax._src.runtime.device import typeof as typeof
from trellax._src.runtime.shard_map import shard_map as shard_map
from trellax._src.runtime.sharding import NamedSharding as NamedSharding
from trellax._src.runtime.sharding import P as P
from trellax._src.runtime.sharding import Shard as Shard
from trellax._src.runtime.sharding import copy_to_host_async as copy_to_host_async
from trellax._src.runtime.sharding import host_count as host_count
from trellax._src.runtime.sharding import host_id as host_id
from trellax._src.runtime.sharding import host_ids as host_ids
from trellax._src.runtime.sharding import make_array_from_callback as make_array_from_callback
from trellax._src.runtime.sharding import (
    make_array_from_process_local_data as make_array_from_process_local_data,
)
from trellax._src.runtime.sharding import (
    make_array_from_single_device_arrays as make_array_from_single_device_arrays,
)
from trellax._src.runtime.sharding import make_mesh as make_mesh
from trellax._src.runtime.sharding import pmap as pmap
from trellax._src.runtime.sharding import process_indices as process_indices
from trellax._src.runtime.sharding import reshard as reshard
from trellax._src.runtime.sharding import set_mesh as set_mesh
from trellax._src.runtime.sharding import smap as smap

__version__ = "0.1.0.dev0"

# context managers that are also flags (``enable_x64.value``), assigned so that type checkers
# see them exported under these names
enable_x64 = _enable_x64_flag
numpy_dtype_promotion = _promotion_flag

# ``x.__array_namespace__()`` is the public trellax.numpy, which sits above the method table
_array_methods.namespace = numpy

# registers ``fma`` (the exactly rounded fused multiply-add of the samplers and trellax.optim)
# and its rules, so that the primitive table does not depend on what was imported
import trellax._src.lax.fma  # noqa: E402
