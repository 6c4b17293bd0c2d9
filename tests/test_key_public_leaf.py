"""A typed key array is one leaf of the public tree functions (``trellax.tree``,
``trellax.tree_util``), as in JAX, while the transformations still carry it as its uint32 data.
Expected values observed with JAX 0.10.2 (``jax.tree.*`` of ``random.split(random.key(0), 3)``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import random, tree_util


def _keys() -> Any:
    return random.split(random.key(0), 3)


def test_leaves_structure_and_paths() -> None:
    k = _keys()
    leaves = trellax.tree.leaves({"a": k, "b": [1, k[0]]})
    assert len(leaves) == 3
    assert leaves[0] is k and leaves[1] == 1 and isinstance(leaves[2], random.PRNGKeyArray)
    assert repr(trellax.tree.structure({"a": k, "b": [1, k[0]]})) == (
        "PyTreeDef({'a': *, 'b': [*, *]})"
    )
    assert trellax.tree.structure(k).num_leaves == 1
    flat, td = tree_util.tree_flatten([k, 2.0])
    assert flat[0] is k and td.num_leaves == 2
    assert trellax.tree.unflatten(td, flat)[0] is k
    ((path, leaf),) = tree_util.tree_flatten_with_path({"a": k})[0]
    assert tree_util.keystr(path) == "['a']" and leaf is k
    assert tree_util.tree_map_with_path(lambda p, x: (tree_util.keystr(p), x.shape), {"z": k}) == {
        "z": ("['z']", (3,))
    }
    # an is_leaf that never stops still leaves the key whole
    assert tree_util.tree_leaves(k, is_leaf=lambda x: False) == [k]
    assert (
        len(
            tree_util.tree_leaves_with_path(
                [k], is_leaf=lambda p, x: False, is_leaf_takes_path=True
            )
        )
        == 1
    )


def test_map_reduce_transpose_broadcast() -> None:
    k = _keys()
    assert trellax.tree.map(lambda x: x.shape, [k, (k[0],)]) == [(3,), ((),)]
    assert trellax.tree.map(lambda a, b: (a.shape, b), [k], [5]) == [((3,), 5)]
    assert trellax.tree.reduce(lambda a, b: a + b.shape[0], [k, k], 0) == 6
    assert trellax.tree.all([k, 1])
    out = trellax.tree.transpose(
        trellax.tree.structure([0, 0]), trellax.tree.structure((0, 0)), [(k, 1), (k, 2)]
    )
    assert out[0][0] is k and out[0][1] is k and out[1] == [1, 2]
    assert trellax.tree.broadcast([1, 2], [k, [k, 3]]) == [1, [2, 2]]
    assert tree_util.all_leaves([k, 1])


def test_flatten_one_level_of_a_key_is_an_error() -> None:
    with pytest.raises(ValueError, match="can't tree-flatten type"):
        tree_util.flatten_one_level(_keys())


def test_jnp_of_keys_has_the_shape_of_the_same_function_of_ones() -> None:
    # JAX's JnpWithKeyArrayTest.check_shape: f(keys) and f(tree.map(ones(keys.shape), keys))
    k = _keys()
    cases: list[Any] = [
        (lambda x: tnp.reshape(x, (3, 1)), (k,)),
        (lambda x: tnp.tile(x, 2), (k,)),
        (lambda *xs: tnp.concatenate(xs), (k, k)),
        (lambda x: tnp.broadcast_to(x, (2, 3)), (k,)),
        (lambda x: tnp.expand_dims(x, 0), (k,)),
        (lambda x: x[1:], (k,)),
        (lambda *xs: tnp.stack(xs), (k, k)),
    ]
    for f, args in cases:
        like = trellax.tree.map(lambda x: tnp.ones(x.shape), args)
        assert f(*args).shape == f(*like).shape
        assert isinstance(f(*args), random.PRNGKeyArray)


def test_transformations_still_see_key_data() -> None:
    k = _keys()
    got = trellax.jit(lambda ks: trellax.tree.map(lambda x: x.shape, ks))(k)
    assert tuple(int(v) for v in got) == (3,)
    out = trellax.jit(lambda ks: ks[1:])(k)
    assert isinstance(out, random.PRNGKeyArray)
    assert (random.key_data(out) == random.key_data(k)[1:]).all()
    draws = trellax.vmap(lambda kk: random.uniform(kk))(k)
    assert draws.shape == (3,) and draws.dtype == np.float32
    assert trellax.tree.leaves(trellax.eval_shape(lambda ks: ks, k))[0].shape == (3,)
    # the package's own flatten (used by the transformations) still descends into the key
    from trellax._src.tree.tree_util import tree_leaves as internal_leaves

    assert internal_leaves(k)[0].shape == (3, 2)
