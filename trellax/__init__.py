"""trellax: JAX's array semantics (lattice type promotion, weak types, x64, strict mode) on NumPy.

>>> import trellax
>>> import trellax.numpy as tnp
>>> tnp.arange(3, dtype="int8") + 1
Array([1, 2, 3], dtype=int8)
>>> with trellax.enable_x64():
...     trellax.dtypes.result_type("int8", 1.0)
dtype('float64')
"""

from trellax import dtypes as dtypes
from trellax import errors as errors
from trellax import image as image
from trellax import lax as lax
from trellax import nn as nn
from trellax import numpy as numpy
from trellax import ops as ops
from trellax import random as random
from trellax import scipy as scipy
from trellax import tree as tree
from trellax import tree_util as tree_util
from trellax import typing as typing
from trellax._src.ad_api import grad as grad
from trellax._src.ad_api import jvp as jvp
from trellax._src.ad_api import linearize as linearize
from trellax._src.ad_api import value_and_grad as value_and_grad
from trellax._src.ad_api import vjp as vjp
from trellax._src.ad_jacobians import hessian as hessian
from trellax._src.ad_jacobians import jacfwd as jacfwd
from trellax._src.ad_jacobians import jacobian as jacobian
from trellax._src.ad_jacobians import jacrev as jacrev
from trellax._src.ad_linear import linear_transpose as linear_transpose
from trellax._src.api import ShapeDtypeStruct as ShapeDtypeStruct
from trellax._src.api import eval_shape as eval_shape
from trellax._src.api import jit as jit
from trellax._src.api import make_jaxpr as make_jaxpr
from trellax._src.basearray import Array as Array
from trellax._src.config import config as config
from trellax._src.config import enable_x64 as enable_x64
from trellax._src.config import fused_excess_precision as fused_excess_precision
from trellax._src.config import numpy_dtype_promotion as numpy_dtype_promotion
from trellax._src.custom_derivatives import custom_jvp as custom_jvp
from trellax._src.custom_derivatives import custom_vjp as custom_vjp
from trellax._src.explain import explain_promotions as explain_promotions

# -- issue 14: runtime helpers under JAX's names (one CPU device) --------------------------------
from trellax._src.runtime import Device as Device
from trellax._src.runtime import block_until_ready as block_until_ready
from trellax._src.runtime import default_backend as default_backend
from trellax._src.runtime import device_count as device_count
from trellax._src.runtime import device_get as device_get
from trellax._src.runtime import device_put as device_put
from trellax._src.runtime import devices as devices
from trellax._src.runtime import local_device_count as local_device_count
from trellax._src.runtime import local_devices as local_devices
from trellax._src.runtime import named_call as named_call
from trellax._src.runtime import named_scope as named_scope
from trellax._src.runtime import print_environment_info as print_environment_info
from trellax._src.runtime import process_count as process_count
from trellax._src.runtime import process_index as process_index
from trellax._src.runtime import typeof as typeof
from trellax._src.vmap_api import vmap as vmap

__version__ = "0.1.0.dev0"
