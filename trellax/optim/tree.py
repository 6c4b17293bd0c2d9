"""``optax.tree``: arithmetic, reductions, norms, casts and random trees over pytrees.

>>> import trellax.numpy as jnp
>>> from trellax.optim import tree
>>> tree.norm({"a": jnp.array([3.0, 4.0])})
Array(5., dtype=float32)
"""

from trellax._src.optim.helpers import tree_map_params as map_params  # noqa: F401
from trellax._src.optim.tree_lookup import get as get
from trellax._src.optim.tree_lookup import get_all_with_path as get_all_with_path
from trellax._src.optim.tree_lookup import set as set
from trellax._src.optim.tree_math import add as add
from trellax._src.optim.tree_math import add_scale as add_scale
from trellax._src.optim.tree_math import allclose as allclose
from trellax._src.optim.tree_math import batch_shape as batch_shape
from trellax._src.optim.tree_math import bias_correction as bias_correction
from trellax._src.optim.tree_math import cast as cast
from trellax._src.optim.tree_math import cast_like as cast_like
from trellax._src.optim.tree_math import clip as clip
from trellax._src.optim.tree_math import conj as conj
from trellax._src.optim.tree_math import div as div
from trellax._src.optim.tree_math import dtype as dtype
from trellax._src.optim.tree_math import full_like as full_like
from trellax._src.optim.tree_math import max as max
from trellax._src.optim.tree_math import min as min
from trellax._src.optim.tree_math import mul as mul
from trellax._src.optim.tree_math import norm as norm
from trellax._src.optim.tree_math import ones_like as ones_like
from trellax._src.optim.tree_math import random_like as random_like
from trellax._src.optim.tree_math import real as real
from trellax._src.optim.tree_math import scale as scale
from trellax._src.optim.tree_math import size as size
from trellax._src.optim.tree_math import split_key_like as split_key_like
from trellax._src.optim.tree_math import sub as sub
from trellax._src.optim.tree_math import sum as sum
from trellax._src.optim.tree_math import unwrap_random_key_data as unwrap_random_key_data
from trellax._src.optim.tree_math import update_infinity_moment as update_infinity_moment
from trellax._src.optim.tree_math import update_moment as update_moment
from trellax._src.optim.tree_math import update_moment_per_elem_norm as update_moment_per_elem_norm
from trellax._src.optim.tree_math import vdot as vdot
from trellax._src.optim.tree_math import where as where
from trellax._src.optim.tree_math import zeros_like as zeros_like
