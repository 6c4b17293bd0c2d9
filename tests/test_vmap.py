"""vmap: batch rules against stacking per-example results, in_axes/out_axes, errors, collectives,
control flow, and nesting with jit and autodiff."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.api.vmap import vmap  # noqa: F401  (registers every batch rule)
from trellax._src.core import core

# -- coverage: every primitive has a batch rule, or a reason it needs none --------------------------

EXEMPT = {
    "iota": "takes no operands, so it is never batched",
    "psum": "collective: batched by the trace that owns the axis name (collective_rules)",
    "pmax": "collective (collective_rules)",
    "pmin": "collective (collective_rules)",
    "all_gather": "collective (collective_rules)",
    "axis_index": "collective (collective_rules)",
}


@pytest.mark.parametrize("name", sorted(core.primitives()))
def test_every_primitive_has_a_batch_rule(name):
    prim = core.primitives()[name]
    if name in EXEMPT:
        return
    assert prim.batch_rule is not None, f"primitive {name} has no batch rule (trellax.vmap)"


# -- ops: vmap equals stacking the per-example results ------------------------------------------------

rng = np.random.default_rng(0)
X = tnp.asarray(rng.normal(size=(4, 3, 5)).astype(np.float32))
M = tnp.asarray(rng.normal(size=(4, 5, 5)).astype(np.float32))
IDX = tnp.asarray(np.array([[2, 0], [1, 1], [4, 3], [0, 4]], np.int32))

OPS = {
    "sin*x": lambda x: tnp.sin(x) * x,
    "add_row": lambda x: x + tnp.arange(5.0),
    "sum0": lambda x: x.sum(0),
    "max1": lambda x: x.max(1),
    "argmax": lambda x: tnp.argmax(x, axis=1),
    "cumsum": lambda x: tnp.cumsum(x, axis=1),
    "sort": lambda x: tnp.sort(x, axis=0),
    "T": lambda x: x.T,
    "reshape": lambda x: x.reshape(5, 3),
    "slice": lambda x: x[1:, ::2],
    "index": lambda x: x[1, 2],
    "fancy": lambda x: x[:, tnp.array([4, 0, 0])],
    "flip": lambda x: tnp.flip(x, 1),
    "pad": lambda x: tnp.pad(x, ((1, 0), (0, 2))),
    "concat": lambda x: tnp.concatenate([x, x * 2], axis=1),
    "where": lambda x: tnp.where(x > 0, x, 0.0),
    "clip": lambda x: tnp.clip(x, -0.5, 0.5),
    "matmul": lambda x: x @ x.T,
    "matvec": lambda x: x @ tnp.ones(5),
    "einsum": lambda x: tnp.einsum("ij,kj->ik", x, x),
    "expand": lambda x: x[None, :, None],
    "broadcast": lambda x: tnp.broadcast_to(x[0], (2, 5)),
    "astype": lambda x: x.astype(tnp.int32),
    "fft": lambda x: tnp.fft.fft(x).real,
    "at_add": lambda x: x.at[1].add(1.0),
    "nan": lambda x: tnp.log(x),
}


@pytest.mark.parametrize("name", sorted(OPS))
@pytest.mark.parametrize("jit", [False, True])
def test_vmap_equals_stacking(name, jit):
    f = OPS[name]
    g = trellax.vmap(f)
    if jit:
        g = trellax.jit(g)
    out = g(X)
    want = np.stack([np.asarray(f(X[i])) for i in range(X.shape[0])])
    assert out.dtype == want.dtype and out.shape == want.shape
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("in_axis", [0, 1, 2, -1])
@pytest.mark.parametrize("out_axis", [0, 1, -1])
def test_axes(in_axis, out_axis):
    f = lambda x: tnp.tanh(x).sum(0) * 2  # noqa: E731
    out = trellax.vmap(f, in_axes=in_axis, out_axes=out_axis)(X)
    slices = [f(tnp.take(X, i, axis=in_axis)) for i in range(X.shape[in_axis])]
    want = np.stack([np.asarray(s) for s in slices], axis=out_axis)
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-5)


def test_linalg_and_gather_batches():
    spd = M @ tnp.swapaxes(M, 1, 2) + 5 * tnp.eye(5)
    for f in (tnp.linalg.cholesky, tnp.linalg.inv, tnp.linalg.det):
        out = trellax.vmap(f)(spd)
        want = np.stack([np.asarray(f(spd[i])) for i in range(4)])
        np.testing.assert_allclose(np.asarray(out), want, rtol=1e-4, atol=1e-5)
    out = trellax.vmap(lambda x, i: x[:, i])(X, IDX)
    want = np.stack([np.asarray(X[b][:, IDX[b]]) for b in range(4)])
    np.testing.assert_array_equal(np.asarray(out), want)
    out = trellax.vmap(lambda x, i: x.at[0, i].set(-1.0))(X, IDX)
    want = np.stack([np.asarray(X[b].at[0, IDX[b]].set(-1.0)) for b in range(4)])
    np.testing.assert_array_equal(np.asarray(out), want)
    out = trellax.vmap(lambda x, i: lax.dynamic_slice(x, (i, i), (2, 2)))(X, IDX[:, 0])
    want = np.stack(
        [np.asarray(lax.dynamic_slice(X[b], (IDX[b, 0], IDX[b, 0]), (2, 2))) for b in range(4)]
    )
    np.testing.assert_array_equal(np.asarray(out), want)
    upd = tnp.ones((4, 2, 2))
    out = trellax.vmap(lambda x, u, i: lax.dynamic_update_slice(x, u, (i, i)))(X, upd, IDX[:, 0])
    want = np.stack(
        [
            np.asarray(lax.dynamic_update_slice(X[b], upd[b], (IDX[b, 0], IDX[b, 0])))
            for b in range(4)
        ]
    )
    np.testing.assert_array_equal(np.asarray(out), want)


def test_dtypes_and_weak_flags_are_kept():
    w = tnp.broadcast_to(1.0, (3,))
    assert w.weak_type
    out = trellax.vmap(lambda x: x * 2)(w)
    assert out.dtype == np.float32 and out.weak_type
    out = trellax.vmap(lambda x: x + 1)(tnp.arange(3, dtype=tnp.int8))
    assert out.dtype == np.int8 and not out.weak_type
    out = trellax.vmap(lambda a: 1.0)(tnp.zeros(2))
    assert out.shape == (2,) and out.weak_type
    assert trellax.vmap(lambda a: 1.0, out_axes=None)(tnp.zeros(2)) == 1.0
    assert trellax.vmap(lambda a: None)(tnp.zeros(2)) is None


def test_pytree_prefix_axes():
    tree = {"a": tnp.ones((3, 2)), "b": tnp.zeros((2, 3))}
    out = trellax.vmap(lambda t: t["a"] + t["b"], in_axes=({"a": 0, "b": 1},))(tree)
    assert out.shape == (3, 2)
    out = trellax.vmap(lambda x, y: (x, y), in_axes=(0, None), out_axes=(1, None))(
        tnp.ones((3, 2)), tnp.ones(4)
    )
    assert out[0].shape == (2, 3) and out[1].shape == (4,)
    out = trellax.vmap(lambda x, *, k: x * k)(tnp.ones(3), k=tnp.arange(3.0))
    np.testing.assert_array_equal(np.asarray(out), [0, 1, 2])


# -- errors (JAX's texts) --------------------------------------------------------------------------------


def a_b(a, b):
    return a + b


@pytest.mark.parametrize(
    ("call", "exc", "text"),
    [
        (
            lambda: trellax.vmap(a_b)(tnp.ones(3), tnp.ones(4)),
            ValueError,
            "vmap got inconsistent sizes for array axes to be mapped:\n"
            "  * one axis had size 3: axis 0 of argument a of type float32[3];\n"
            "  * one axis had size 4: axis 0 of argument b of type float32[4]",
        ),
        (
            lambda: trellax.vmap(lambda a: a, axis_size=5)(tnp.ones(3)),
            ValueError,
            "vmap got inconsistent sizes for array axes to be mapped:\n"
            "  * the `axis_size` argument was 5;\n"
            "  * one axis had size 3: axis 0 of argument a of type float32[3]",
        ),
        (
            lambda: trellax.vmap(a_b, in_axes=(0,))(tnp.ones(3), tnp.ones(3)),
            ValueError,
            "vmap in_axes must be an int, None, or a tuple of entries corresponding to the "
            "positional arguments passed to the function, but got len(in_axes)=1, len(args)=2",
        ),
        (
            lambda: trellax.vmap(a_b, in_axes=1.0),
            TypeError,
            "vmap in_axes must be an int, None, or a tuple of entries corresponding to the "
            "positional arguments passed to the function, but got 1.0.",
        ),
        (lambda: trellax.vmap(a_b, in_axes=True), TypeError, "but got True."),
        (lambda: trellax.vmap(a_b, in_axes=np.int64(0)), TypeError, "but got 0."),
        (
            lambda: trellax.vmap(a_b, in_axes=(0, "a")),
            TypeError,
            "vmap in_axes must be an int, None, or (nested) container with those types as "
            "leaves, but got (0, 'a').",
        ),
        (
            lambda: trellax.vmap(lambda a: a, in_axes=2)(tnp.ones((2, 3))),
            ValueError,
            "vmap was requested to map its argument along axis 2, which implies that its rank "
            "should be at least 3, but is only 2 (its shape is (2, 3))",
        ),
        (
            lambda: trellax.vmap(lambda a: a, in_axes=-3)(tnp.ones((2, 3))),
            ValueError,
            "along axis -3, which implies that its rank should be at least 3",
        ),
        (
            lambda: trellax.vmap(lambda a: a, out_axes=2)(tnp.ones((2, 3))),
            ValueError,
            "axis 2 is out of bounds for array of dimension 2",
        ),
        (
            lambda: trellax.vmap(lambda a: a, out_axes=None)(tnp.ones(2)),
            ValueError,
            "at vmap out_axes, got axis spec None but output was batched on axis 0",
        ),
        (
            lambda: trellax.vmap(lambda a: (a, a), out_axes=(0, None))(tnp.ones(2)),
            ValueError,
            "at vmap out_axes[1], got axis spec None but output was batched on axis 0",
        ),
        (  # the path names the output leaf inside the prefix's subtree (JAX 0.10.2's text)
            lambda: trellax.vmap(
                lambda a: ({"a": a, "b": [a, 2 * a]},), out_axes=({"a": 0, "b": None},)
            )(tnp.ones(3)),
            ValueError,
            "at vmap out_axes[0]['b'][0], got axis spec None but output was batched on axis 0",
        ),
        (
            lambda: trellax.vmap(lambda a: a, in_axes=None)(tnp.ones(2)),
            ValueError,
            "vmap must have at least one non-None value in in_axes or axis_size must be specified",
        ),
        (
            lambda: trellax.vmap(lambda: 1)(),
            ValueError,
            "vmap wrapped function must be passed at least one argument containing an array or "
            "axis_size must be specified, got empty *args=() and **kwargs={}",
        ),
        (
            lambda: trellax.vmap(lambda a: a)(1.0),
            ValueError,
            "axis 0, which implies that its rank should be at least 1, but is only 0",
        ),
        (
            lambda: trellax.vmap(lambda x: x)("s"),
            TypeError,
            "Argument 's' of type <class 'str'> is not a valid JAX type",
        ),
        (
            lambda: trellax.vmap(lambda x: lax.psum(x, "j"), axis_name="i")(tnp.ones(2)),
            NameError,
            "Found an unbound axis name: j.",
        ),
        (lambda: lax.axis_index("i"), NameError, "Found an unbound axis name: i."),
    ],
)
def test_errors(call, exc, text):
    with pytest.raises(exc) as info:
        call()
    assert text in str(info.value)


def test_vmap_in_axes_not_a_prefix():
    with pytest.raises(ValueError, match="vmap in_axes specification must be a tree prefix"):
        trellax.vmap(lambda t: t, in_axes=({"a": 0, "c": 0},))({"a": tnp.ones(2), "b": tnp.ones(2)})


# -- collectives ------------------------------------------------------------------------------------


def test_collectives():
    x = tnp.arange(4.0)
    v = lambda f: trellax.vmap(f, axis_name="i")(x)  # noqa: E731
    np.testing.assert_array_equal(np.asarray(v(lambda a: lax.psum(a, "i"))), [6.0] * 4)
    np.testing.assert_array_equal(np.asarray(v(lambda a: lax.pmax(a, "i"))), [3.0] * 4)
    np.testing.assert_array_equal(np.asarray(v(lambda a: lax.pmin(a, "i"))), [0.0] * 4)
    np.testing.assert_array_equal(np.asarray(v(lambda a: lax.axis_index("i"))), [0, 1, 2, 3])
    out = trellax.vmap(lambda a: lax.pmean(a, "i"), axis_name="i")(tnp.arange(4))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(out), [1.5] * 4)
    out = v(lambda a: lax.psum(1, "i"))
    assert out.dtype == np.int32 and out.weak_type and list(np.asarray(out)) == [4] * 4
    out = trellax.vmap(lambda a: lax.all_gather(a, "i"), axis_name="i")(tnp.arange(3))
    np.testing.assert_array_equal(np.asarray(out), [[0, 1, 2]] * 3)
    assert v(lambda a: a * 0 + lax.axis_size("i")).tolist() == [4.0] * 4


def test_nested_named_axes():
    ones = tnp.ones((2, 3))
    f = lambda a: lax.psum(a, ("i", "j"))  # noqa: E731
    out = trellax.vmap(trellax.vmap(f, axis_name="j"), axis_name="i")(ones)
    np.testing.assert_array_equal(np.asarray(out), np.full((2, 3), 6.0))
    g = lambda a: lax.psum(a, "i")  # noqa: E731
    out = trellax.vmap(trellax.vmap(g, axis_name="i"), axis_name="i")(ones)
    np.testing.assert_array_equal(np.asarray(out), np.full((2, 3), 3.0))  # inner shadows


# -- control flow ---------------------------------------------------------------------------------------


def test_cond_batched_predicate_selects():
    x = tnp.array([-1.0, 2.0])
    out = trellax.vmap(lambda x: lax.cond(x > 0, lambda x: x * 10.0, lambda x: -x, x))(x)
    np.testing.assert_array_equal(np.asarray(out), [1.0, 20.0])
    out = trellax.vmap(lambda x: lax.cond(x > 0, tnp.log, lambda x: x, x))(tnp.array([-1.0, 1.0]))
    np.testing.assert_array_equal(np.asarray(out), [-1.0, 0.0])  # no NaN from the other branch
    idx = tnp.array([0, 2, 5, -1])
    out = trellax.vmap(lambda i: lax.switch(i, [lambda: 0, lambda: 1, lambda: 2]))(idx)
    np.testing.assert_array_equal(np.asarray(out), [0, 2, 2, 0])


def test_cond_batched_predicate_masks_gradients_of_untaken_branches():
    """As JAX: each branch sees select(taken, x, stop_gradient(x)), so sqrt'(0) = inf or
    log'(-1) in a branch an example does not take gives no NaN; values never see it either."""
    x = tnp.array([0.0, 1.0, -1.0, 4.0])
    f = lambda x: lax.cond(x > 0, tnp.sqrt, lambda x: x, x)  # noqa: E731
    g = lambda x: lax.cond(x > 0, tnp.log, lambda x: x * 2, x)  # noqa: E731
    for fun, want in ((f, [1.0, 0.5, 1.0, 0.25]), (g, [2.0, 1.0, 2.0, 0.25])):
        total = lambda x, fun=fun: trellax.vmap(fun)(x).sum()  # noqa: E731
        for grad in (trellax.grad(total), trellax.jit(trellax.grad(total))):
            np.testing.assert_array_equal(np.asarray(grad(x)), want)
        np.testing.assert_array_equal(np.asarray(trellax.vmap(trellax.grad(fun))(x)), want)
        _, t = trellax.jvp(trellax.vmap(fun), (x,), (tnp.ones(4),))
        np.testing.assert_array_equal(np.asarray(t), want)
    np.testing.assert_array_equal(np.asarray(trellax.vmap(g)(x)), np.float32([0, 0, -2, np.log(4)]))
    # a taken branch's infinite derivative is kept (sqrt'(0) where x > 0 picks sqrt)
    h = lambda x, y: lax.cond(x > 0, lambda: tnp.sqrt(y), lambda: y * 2)  # noqa: E731
    got = trellax.grad(lambda y: trellax.vmap(h)(x, y).sum())(tnp.zeros(4))
    assert np.asarray(got).tolist() == [2.0, np.inf, 2.0, np.inf]
    text = str(trellax.make_jaxpr(trellax.vmap(f))(x))
    assert text.count("stop_gradient") == 2 and text.count("select_n") == 3


def test_cond_unbatched_predicate_stays_cond():
    jaxpr = trellax.make_jaxpr(
        trellax.vmap(lambda x: lax.cond(True, lambda x: x * 2.0, lambda x: -x, x))
    )(tnp.ones(3))
    assert "cond" in str(jaxpr)


def test_while_batched_predicate():
    n = tnp.array([1, 3, 0])
    i, y = trellax.vmap(
        lambda n: lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 2), (0, 1.0))
    )(n)
    assert i.tolist() == [1, 3, 0] and y.tolist() == [2.0, 8.0, 1.0]
    assert i.weak_type and y.weak_type


def test_scan_and_fori():
    xs = tnp.arange(6.0).reshape(2, 3)
    c, ys = trellax.vmap(lambda xs: lax.scan(lambda c, x: (c + x, c * x), 0.0, xs))(xs)
    assert c.tolist() == [3.0, 12.0]
    assert ys.tolist() == [[0.0, 0.0, 2.0], [0.0, 12.0, 35.0]]
    out = trellax.vmap(lambda a: lax.fori_loop(0, 3, lambda i, c: c * a, 1.0))(
        tnp.array([1.0, 2.0])
    )
    assert out.tolist() == [1.0, 8.0]


# -- nesting ---------------------------------------------------------------------------------------------


def test_per_example_gradients_and_nesting():
    x = tnp.arange(3.0)
    cube = lambda x: x**3  # noqa: E731
    np.testing.assert_array_equal(np.asarray(trellax.vmap(trellax.grad(cube))(x)), [0, 3, 12])
    g = trellax.grad(lambda x: trellax.vmap(cube)(x).sum())(x)
    np.testing.assert_array_equal(np.asarray(g), [0, 3, 12])
    np.testing.assert_array_equal(
        np.asarray(trellax.jit(trellax.vmap(trellax.grad(cube)))(x)), [0, 3, 12]
    )
    np.testing.assert_array_equal(np.asarray(trellax.vmap(trellax.jit(cube))(x)), [0, 1, 8])
    pts = tnp.asarray(rng.normal(size=(4, 2)).astype(np.float32))
    d = trellax.vmap(trellax.vmap(lambda a, b: tnp.sum((a - b) ** 2), (None, 0)), (0, None))(
        pts, pts
    )
    p = np.asarray(pts)
    np.testing.assert_allclose(np.asarray(d), ((p[:, None] - p[None]) ** 2).sum(-1), rtol=1e-5)


def test_make_jaxpr_has_no_loop():
    text = str(trellax.make_jaxpr(trellax.vmap(lambda x: tnp.sin(x) * x))(tnp.ones(3)))
    assert "sin a" in text and "mul b a" in text and "while" not in text and "scan" not in text
    text = str(
        trellax.make_jaxpr(trellax.vmap(lambda a, b: a @ b))(tnp.ones((5, 3)), tnp.ones((5, 3)))
    )
    assert text.count("dot_general") == 1


# -- custom_jvp / custom_vjp under vmap -------------------------------------------------------------


def _scaled_sin_vjp():
    @trellax.custom_vjp
    def f(p, k):
        return tnp.sin(p["a"]) * p["b"] * k

    def fwd(p, k):
        return f(p, k), (p, k)

    def bwd(res, g):
        p, k = res
        return {"a": 3.0 * g * p["b"] * k, "b": None}, 2.0 * g

    f.defvjp(fwd, bwd)
    return f


def test_custom_vjp_rule_is_batched_over_pytrees_and_shared_arguments():
    f = _scaled_sin_vjp()
    a, b, k = tnp.arange(3.0), tnp.array([1.0, 2.0, 3.0]), tnp.asarray(0.5)

    def total(a, b, k):
        return trellax.vmap(f, in_axes=({"a": 0, "b": None}, 0))({"a": a, "b": b[0]}, k * b).sum()

    ga, gb, gk = trellax.grad(total, argnums=(0, 1, 2))(a, b, k)
    np.testing.assert_allclose(np.asarray(ga), 3.0 * 1.0 * 0.5 * np.array([1, 2, 3]))
    # b reaches f twice: p["b"] (bwd gives None: no cotangent) and k = 0.5 * b (2 per example)
    np.testing.assert_allclose(np.asarray(gb), [1.0, 1.0, 1.0])
    np.testing.assert_allclose(np.asarray(gk), 2.0 * (1 + 2 + 3))


def test_custom_jvp_nondiff_argnums_and_collectives_under_vmap():
    def power(n, x):
        return x**n

    g2 = trellax.custom_jvp(power, nondiff_argnums=(0,))
    g2.defjvp(lambda n, p, t: (g2(n, p[0]), n * 7.0 * t[0]))
    x = tnp.arange(4.0)
    out = trellax.grad(lambda x: trellax.vmap(lambda x: g2(2, x))(x).sum())(x)
    np.testing.assert_array_equal(np.asarray(out), [14.0] * 4)

    @trellax.custom_jvp
    def centred(x):
        return x - lax.pmean(x, "i")

    centred.defjvp(lambda p, t: (centred(p[0]), t[0] - lax.pmean(t[0], "i")))
    out = trellax.grad(lambda x: (trellax.vmap(centred, axis_name="i")(x) * x).sum())(x)
    np.testing.assert_allclose(np.asarray(out), 2 * (np.arange(4.0) - 1.5))


def test_custom_vjp_under_vmap_without_differentiation_runs_the_function():
    f = _scaled_sin_vjp()
    out = trellax.vmap(f, in_axes=({"a": 0, "b": None}, None))(
        {"a": tnp.arange(3.0), "b": tnp.asarray(2.0)}, 1.0
    )
    np.testing.assert_allclose(np.asarray(out), 2 * np.sin(np.arange(3.0)), rtol=1e-6)


@pytest.mark.parametrize("name", ["psum", "pmean", "pmax", "pmin", "all_gather"])
def test_collectives_refuse_axis_index_groups(name: str) -> None:
    """JAX's vmap raises rather than reducing over the whole axis, ignoring the groups."""
    fn = getattr(trellax.lax, name)
    with pytest.raises(NotImplementedError, match="axis_index_groups not supported in vmap"):
        trellax.vmap(lambda x: fn(x, "i", axis_index_groups=[[0, 1]]), axis_name="i")(tnp.ones(2))
