"""One-line cases for tools/gen_golden_toplevel.py and tests/test_golden_toplevel.py: ``X`` is
``jax`` when the golden data are made and ``trellax`` in the test; ``np`` is NumPy and
``W(ctx, f)`` runs ``f()`` inside the context manager ``ctx``."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any


def W(ctx: AbstractContextManager[Any], f: Callable[[], Any]) -> Any:
    with ctx:
        return f()


def CV(X: Any) -> Any:
    """A custom_vmap function (``sin``) whose vmap rule computes ``cos``."""
    f = X.custom_batching.custom_vmap(lambda x: X.numpy.sin(x))
    f.def_vmap(lambda n, in_batched, x: (X.numpy.cos(x), in_batched[0]))
    return f


_F = "(lambda x: X.numpy.sin(X.numpy.sin(x) * x))"
_CK = f"X.checkpoint({_F})"
_CG = "X.custom_gradient(lambda x: (X.numpy.sin(x), lambda g: (3.0 * g * X.numpy.cos(x),)))"
_CV = "CV(X)"
_S0 = "X.ShapeDtypeStruct((), np.float32)"
_S3 = "X.ShapeDtypeStruct((3,), np.float32)"
_AR = "X.numpy.arange(3.0, dtype=np.float32)"

CASES: dict[str, str] = {
    # checkpoint / remat: values and derivatives as without it, eager, jit, vmap, scan
    "ck_value": f"{_CK}(1.5)",
    "ck_grad": f"(X.grad({_CK})(1.5), X.grad({_F})(1.5))",
    "ck_jit_grad": f"X.jit(X.grad({_CK}))(np.float32(0.5))",
    "ck_grad_jit": f"X.grad(X.jit({_CK}))(0.5)",
    "ck_vmap_grad": f"X.vmap(X.grad({_CK}))({_AR})",
    "ck_hessian": f"X.hessian({_CK})(0.7)",
    "ck_scan_grad": (
        f"X.grad(lambda x: X.lax.scan(lambda c, _: ({_CK}(c), None), x, None, length=3)[0])(1.0)"
    ),
    "ck_grad_jaxpr": (
        f"[(e.primitive.name, e.params.get('differentiated')) "
        f"for e in X.make_jaxpr(X.grad({_CK}))(1.0).eqns]"
    ),
    "ck_jacrev": f"X.jacrev({_CK})({_AR})",
    "ck_jacfwd": f"X.jacfwd({_CK})({_AR})",
    "ck_linearize": f"X.linearize({_CK}, 1.0)[1](2.0)",
    "ck_vjp_pytree": (
        "X.vjp(X.checkpoint(lambda d: (d['a'] * d['b']).sum()), "
        "{'a': X.numpy.ones(2), 'b': X.numpy.arange(2.0)})[1](np.float32(2))"
    ),
    "ck_int_arg": "X.grad(X.checkpoint(lambda x, n: x * n))(2.0, 3)",
    "ck_closure": "X.grad(lambda y: X.checkpoint(lambda x: x * y)(2.0))(3.0)",
    "ck_nested": f"X.grad(X.checkpoint(lambda x: {_CK}(x) * 2))(1.0)",
    "remat_policy": (
        f"X.grad(X.remat({_F}, policy=X.checkpoint_policies.dots_saveable))(np.float32(2.0))"
    ),
    "ck_static": "X.checkpoint(lambda x, n: x ** n, static_argnums=1)(2.0, 3)",
    "ck_static_grad": "X.grad(X.checkpoint(lambda x, n: x ** n, static_argnums=(1,)))(2.0, 3)",
    "ck_static_bad": "X.checkpoint(lambda x, n: x ** n, static_argnums=5)(2.0, 3)",
    "policy_everything": "X.checkpoint_policies.everything_saveable(None)",
    "policy_nothing": "X.checkpoint_policies.nothing_saveable(None)",
    # custom_gradient
    "cg_value": f"{_CG}(1.0)",
    "cg_grad": f"X.grad({_CG})(1.0)",
    "cg_jit_grad": f"X.jit(X.grad({_CG}))(np.float32(1.0))",
    "cg_vmap_grad": f"X.vmap(X.grad({_CG}))({_AR})",
    "cg_jvp": f"X.jvp({_CG}, (1.0,), (1.0,))",
    "cg_bare": "X.grad(X.custom_gradient(lambda x: (x * x, lambda g: 5.0 * g)))(2.0)",
    "cg_two": (
        "X.grad(X.custom_gradient(lambda x, y: (x * y, lambda g: (g * y, 2 * g * x))), "
        "argnums=(0, 1))(2.0, 3.0)"
    ),
    # closure_convert
    "cc_jit": (
        "X.jit(lambda y: (lambda fc: fc[0](3.0, *fc[1]))"
        "(X.closure_convert(lambda x: x * y, 1.0)))(2.0)"
    ),
    "cc_eager_consts": "len(X.closure_convert(lambda x: x * 2.0, 1.0)[1])",
    # custom_vmap
    "cv_grad_vmap": f"X.grad(lambda x: X.vmap({_CV})(x).sum())(X.numpy.ones(2) * 0.5)",
    "cv_vmap_jit": f"X.vmap(X.jit({_CV}))(X.numpy.ones(2) * 0.5)",
    "cv_vmap_scan": (
        f"X.vmap(lambda x: X.lax.scan(lambda c, _: ({_CV}(c), None), x, None, length=1)[0])"
        "(X.numpy.ones(2) * 0.5)"
    ),
    "cv_unbatched": f"X.vmap({_CV}, in_axes=None, axis_size=2)(0.5)",
    "cv_kwargs": f"{_CV}(x=1.0)",
    "cv_plain_jit": f"X.jit({_CV})(1.0)",
    "cv_sequential": (
        "X.vmap(X.custom_batching.sequential_vmap(lambda x, y: x * y), in_axes=(0, None))"
        f"({_AR}, np.float32(2))"
    ),
    # pure_callback
    "pc_eager": f"X.pure_callback(np.sin, {_S3}, {_AR})",
    "pc_jit": f"X.jit(lambda x: X.pure_callback(np.sin, {_S3}, x))({_AR})",
    "pc_type": f"X.pure_callback(lambda x: np.float32(type(x).__name__ == 'ArrayImpl'), {_S0}, 1.0)",
    "pc_kwargs": f"X.pure_callback(lambda x, k: x * k, {_S0}, np.float32(2), k=np.float32(3))",
    "pc_tree": (
        "X.pure_callback(lambda d: {'a': d['a'] * 2}, "
        "{'a': X.ShapeDtypeStruct((), np.int32)}, {'a': np.int32(2)})"
    ),
    "pc_weak_input": f"X.pure_callback(lambda x: x, {_S0}, 1.0)",
    "pc_wrong_dtype": f"X.pure_callback(lambda x: np.zeros(3, np.float64), {_S3}, {_AR})",
    "pc_vmap_none": f"X.vmap(lambda x: X.pure_callback(np.sin, {_S0}, x))({_AR})",
    "pc_vmap_seq": (
        f"X.vmap(lambda x: X.pure_callback(np.sin, {_S0}, x, vmap_method='sequential'))({_AR})"
    ),
    "pc_jit_vmap_seq": (
        f"X.jit(X.vmap(lambda x: X.pure_callback(np.sin, {_S0}, x, "
        f"vmap_method='sequential_unrolled')))({_AR})"
    ),
    "pc_vmap_expand": (
        f"X.vmap(lambda x, y: X.pure_callback(lambda a, b: (print(a.shape, b.shape), a + b)[1], "
        f"{_S0}, x, y, vmap_method='expand_dims'), in_axes=(0, None))({_AR}, np.float32(1))"
    ),
    "pc_vmap_bcast": (
        f"X.vmap(lambda x, y: X.pure_callback(lambda a, b: (print(a.shape, b.shape), a + b)[1], "
        f"{_S0}, x, y, vmap_method='broadcast_all'), in_axes=(0, None))({_AR}, np.float32(1))"
    ),
    "pc_bad_method": f"X.pure_callback(np.sin, {_S0}, 1.0, vmap_method='foo')",
    "pc_grad": f"X.grad(lambda x: X.pure_callback(np.sin, {_S0}, x))(1.0)",
    # debug.print / debug.callback
    "dp_eager": "X.debug.print('x={x} y={}', 1.5, x=X.numpy.arange(3))",
    "dp_jit": f"X.jit(lambda x: X.debug.print('jit x={{}}', x))({_AR})",
    "dp_vmap": f"X.vmap(lambda x: X.debug.print('vmap x={{x}}', x=x))({_AR})",
    "dp_grad": "X.grad(lambda x: (X.debug.print('grad x={}', x), x * x)[1])(2.0)",
    "dp_format": "X.debug.print('{:.3f} {x:>6.1f}', X.numpy.float32(1 / 3), x=2.5)",
    "dp_scan_jit": (
        "X.jit(lambda xs: X.lax.scan(lambda c, x: (X.debug.print('c={} x={}', c, x), "
        "(c + x, None))[1], 0.0, xs))(X.numpy.arange(3.0))"
    ),
    "dp_cond_grad": (
        "X.grad(lambda y: X.lax.cond(y > 0, lambda x: (X.debug.print('T {}', x), x * x)[1], "
        "lambda x: x, y))(3.0)"
    ),
    "pc_scan_jit": (
        f"X.jit(lambda xs: X.lax.scan(lambda c, x: (c + X.pure_callback(np.sin, {_S0}, x), "
        f"None), 0.0, xs))({_AR})"
    ),
    "dcb_jit": (
        "X.jit(lambda x: X.debug.callback(lambda v: print('cb', type(v).__name__, v), x))"
        "(X.numpy.arange(2))"
    ),
    # disable_jit, ensure_compile_time_eval
    "dj_print": (
        "W(X.disable_jit(), "
        "lambda: X.jit(lambda x: (print('inside', type(x).__name__), x * 2)[1])(1.0))"
    ),
    "dj_cond": (
        "W(X.disable_jit(), lambda: X.lax.cond(True, "
        "lambda x: (print('branch', type(x).__name__), x)[1], lambda x: x, 1.0))"
    ),
    "dj_scan": (
        "W(X.disable_jit(), lambda: X.lax.scan(lambda c, x: "
        "(print('body', type(c).__name__), (c + x, c * x))[1], 0.0, X.numpy.arange(3.0), "
        "reverse=True))"
    ),
    "dj_while": (
        "W(X.disable_jit(), lambda: X.lax.while_loop(lambda c: "
        "(print('cond', type(c).__name__), c < 2)[1], lambda c: c + 1, 0))"
    ),
    "dj_fori": (
        "W(X.disable_jit(), lambda: X.lax.fori_loop(0, 2, lambda i, c: "
        "(print('fori', type(i).__name__, type(c).__name__), c + i)[1], 0))"
    ),
    "dj_switch": "W(X.disable_jit(), lambda: X.lax.switch(5, [lambda x: x, lambda x: x * 2], 1.0))",
    "dj_make_jaxpr": (
        "W(X.disable_jit(), lambda: len(X.make_jaxpr(X.jit(lambda x: x * 2))(1.0).eqns))"
    ),
    "ecte": (
        "X.jit(lambda x: W(X.ensure_compile_time_eval(), lambda: "
        "(print(type(X.numpy.sin(2.0)).__name__ == 'ArrayImpl'), x)[1]))(1.0)"
    ),
    # debug_nans / debug_infs
    "dn_eager": "W(X.debug_nans(True), lambda: X.numpy.log(-1.0))",
    "dn_div": "W(X.debug_nans(True), lambda: X.numpy.float32(0) / X.numpy.float32(0))",
    "dn_inf_allowed": "W(X.debug_nans(True), lambda: X.numpy.float32(1) / X.numpy.float32(0))",
    "dn_jit": "W(X.debug_nans(True), lambda: X.jit(lambda x: X.numpy.log(x) + 1)(-1.0))",
    "dn_int": "W(X.debug_nans(True), lambda: X.numpy.int32(1) // 0)",
    "dn_grad_inf": "W(X.debug_nans(True), lambda: X.grad(X.numpy.sqrt)(0.0))",
    "dn_jit_where": (
        "W(X.debug_nans(True), lambda: "
        "X.jit(lambda x: X.numpy.where(x > 0, X.numpy.log(x), 0.0))(-1.0))"
    ),
    "dn_eager_where": (
        "W(X.debug_nans(True), lambda: X.numpy.where(-1.0 > 0, X.numpy.log(-1.0), 0.0))"
    ),
    "dn_jit_cond": (
        "W(X.debug_nans(True), lambda: X.jit(lambda x: X.lax.cond(x > 0, "
        "lambda y: X.numpy.log(-y), lambda y: y, x))(1.0))"
    ),
    "dn_eager_cond": (
        "W(X.debug_nans(True), lambda: X.lax.cond(True, lambda y: X.numpy.log(-y), "
        "lambda y: y, 1.0))"
    ),
    "dn_jit_clean": "W(X.debug_nans(True), lambda: X.jit(lambda x: x * 2)(np.float32(1)))",
    "di_eager": "W(X.debug_infs(True), lambda: X.numpy.float32(1) / X.numpy.float32(0))",
    "di_nan_allowed": "W(X.debug_infs(True), lambda: X.numpy.log(-1.0))",
    "di_jit_python": "W(X.debug_infs(True), lambda: X.jit(lambda x: 1 / x)(0.0))",
    # numpy_rank_promotion
    "rp_raise": (
        "W(X.numpy_rank_promotion('raise'), lambda: X.numpy.ones(3) + X.numpy.ones((2, 3)))"
    ),
    "rp_raise_jit": (
        "W(X.numpy_rank_promotion('raise'), lambda: "
        "X.jit(lambda a, b: a * b)(X.numpy.ones(3), X.numpy.ones((2, 3))))"
    ),
    "rp_scalar": "W(X.numpy_rank_promotion('raise'), lambda: X.numpy.ones(3) + 1)",
    "rp_0d": "W(X.numpy_rank_promotion('raise'), lambda: X.numpy.ones(3) + np.float32(1))",
    "rp_where": (
        "W(X.numpy_rank_promotion('raise'), lambda: "
        "X.numpy.where(X.numpy.ones(3) > 0, X.numpy.ones((2, 3)), 0.0))"
    ),
    "rp_warn": (
        "W(X.numpy_rank_promotion('warn'), lambda: X.numpy.ones(3) - X.numpy.ones((2, 3)))"
    ),
    "rp_bad": "X.numpy_rank_promotion('foo')",
    "dmp_bad": "X.default_matmul_precision('foo')",
    "tg_bad": "X.transfer_guard('foo').__enter__()",
    "cfg_read": (
        "(X.config.jax_debug_nans, X.config.jax_debug_infs, X.config.jax_numpy_rank_promotion, "
        "X.config.jax_default_matmul_precision, X.config.jax_enable_checks, "
        "X.config.jax_log_compiles, X.config.jax_threefry_partitionable, "
        "X.config.jax_transfer_guard_host_to_device, X.config.jax_default_prng_impl)"
    ),
    "flag_values": (
        "(X.debug_nans.value, X.numpy_rank_promotion.value, X.allow_f16_reductions.value, "
        "X.softmax_custom_jvp.value, X.threefry_partitionable.value)"
    ),
    # jax.errors
    "errors_bases": (
        "[[b.__name__ for b in getattr(X.errors, n).__mro__[1:] "
        "if b.__module__ == 'builtins'] for n in ('InconclusiveDimensionOperation', "
        "'JaxRuntimeError', 'JaxprTypeError', 'KeyReuseError')]"
    ),
    "key_reuse_is_jax_type_error": "issubclass(X.errors.KeyReuseError, X.errors.JAXTypeError)",
    # one device
    "pmap_one": "X.pmap(lambda x: X.lax.psum(x, 'i'), axis_name='i')(X.numpy.ones((1, 3)))",
    "mesh_too_big": "X.make_mesh((2,), ('x',))",
    "from_callback": (
        "X.make_array_from_callback((2, 3), X.sharding.SingleDeviceSharding(X.devices()[0]), "
        "lambda idx: (print(idx), np.ones((2, 3), np.float32))[1])"
    ),
    "pspec": "repr(X.P('x', None))",
    "host_count": "(X.host_count(), X.host_id(), X.host_ids(), X.process_indices())",
    "fwd_and_bwd": (
        "(lambda fb: fb[1](fb[0](1.0, 2.0)[1], 1.0))"
        "(X.fwd_and_bwd(lambda x, y: X.numpy.sin(x) * y, argnums=(0, 1)))"
    ),
}
