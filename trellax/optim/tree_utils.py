"""``optax.tree_utils``: the ``optax.tree`` helpers under their ``tree_``-prefixed names, with
optax's deprecated aliases ``tree_scalar_mul``, ``tree_add_scalar_mul``, ``tree_l1_norm`` and
``tree_l2_norm``.
"""

import functools

from trellax._src.optim.helpers import tree_map_params as tree_map_params
from trellax._src.optim.tree_lookup import NamedTupleKey as NamedTupleKey
from trellax._src.optim.tree_lookup import get as tree_get
from trellax._src.optim.tree_lookup import get_all_with_path as tree_get_all_with_path
from trellax._src.optim.tree_lookup import set as tree_set
from trellax._src.optim.tree_math import add as tree_add
from trellax._src.optim.tree_math import add_scale as tree_add_scale
from trellax._src.optim.tree_math import allclose as tree_allclose
from trellax._src.optim.tree_math import batch_shape as tree_batch_shape
from trellax._src.optim.tree_math import bias_correction as tree_bias_correction
from trellax._src.optim.tree_math import cast as tree_cast
from trellax._src.optim.tree_math import cast_like as tree_cast_like
from trellax._src.optim.tree_math import clip as tree_clip
from trellax._src.optim.tree_math import conj as tree_conj
from trellax._src.optim.tree_math import div as tree_div
from trellax._src.optim.tree_math import dtype as tree_dtype
from trellax._src.optim.tree_math import full_like as tree_full_like
from trellax._src.optim.tree_math import max as tree_max
from trellax._src.optim.tree_math import min as tree_min
from trellax._src.optim.tree_math import mul as tree_mul
from trellax._src.optim.tree_math import norm as tree_norm
from trellax._src.optim.tree_math import ones_like as tree_ones_like
from trellax._src.optim.tree_math import random_like as tree_random_like
from trellax._src.optim.tree_math import real as tree_real
from trellax._src.optim.tree_math import scale as tree_scale
from trellax._src.optim.tree_math import size as tree_size
from trellax._src.optim.tree_math import split_key_like as tree_split_key_like
from trellax._src.optim.tree_math import sub as tree_sub
from trellax._src.optim.tree_math import sum as tree_sum
from trellax._src.optim.tree_math import unwrap_random_key_data as tree_unwrap_random_key_data
from trellax._src.optim.tree_math import update_infinity_moment as tree_update_infinity_moment
from trellax._src.optim.tree_math import update_moment as tree_update_moment
from trellax._src.optim.tree_math import (
    update_moment_per_elem_norm as tree_update_moment_per_elem_norm,
)
from trellax._src.optim.tree_math import vdot as tree_vdot
from trellax._src.optim.tree_math import where as tree_where
from trellax._src.optim.tree_math import zeros_like as tree_zeros_like

tree_scalar_mul = tree_scale
tree_add_scalar_mul = tree_add_scale
tree_l1_norm = functools.partial(tree_norm, ord=1)
tree_l2_norm = functools.partial(tree_norm, ord=2)

__all__ = [
    "NamedTupleKey",
    "tree_add",
    "tree_add_scalar_mul",
    "tree_add_scale",
    "tree_allclose",
    "tree_batch_shape",
    "tree_bias_correction",
    "tree_cast",
    "tree_cast_like",
    "tree_clip",
    "tree_conj",
    "tree_div",
    "tree_dtype",
    "tree_full_like",
    "tree_get",
    "tree_get_all_with_path",
    "tree_l1_norm",
    "tree_l2_norm",
    "tree_map_params",
    "tree_max",
    "tree_min",
    "tree_mul",
    "tree_norm",
    "tree_ones_like",
    "tree_random_like",
    "tree_real",
    "tree_scalar_mul",
    "tree_scale",
    "tree_set",
    "tree_size",
    "tree_split_key_like",
    "tree_sub",
    "tree_sum",
    "tree_unwrap_random_key_data",
    "tree_update_infinity_moment",
    "tree_update_moment",
    "tree_update_moment_per_elem_norm",
    "tree_vdot",
    "tree_where",
    "tree_zeros_like",
]
