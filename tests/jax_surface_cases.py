"""Cases of JAX's public surface checked against JAX 0.10.2 (tests/golden/jax_surface.json).

Each case is one expression evaluated with ``X`` bound to ``jax`` (when the golden file is made,
by tools/gen_golden_jax_surface.py) or to ``trellax`` (tests/test_jax_surface.py); ``np`` is
NumPy, ``op`` the operator module. The result is compared as ``repr`` text (``str`` for
strings), or the error's class and first line.
"""

from __future__ import annotations

CASES: dict[str, str] = {
    # scalar types compare and hash as NumPy's
    "scalar_eq": "[X.numpy.float64 == np.float64, X.numpy.float32 == np.float32, "
    "X.numpy.bfloat16 == np.dtype('bfloat16').type, X.numpy.bool_ == np.bool_, "
    "np.int8 == X.numpy.int8, X.numpy.float32 != np.float32, X.numpy.float32 == np.float64]",
    "scalar_hash": "[hash(getattr(X.numpy, n)) == hash(np.dtype(n).type) for n in "
    "('bool_', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint32', 'uint64', 'bfloat16', "
    "'float16', 'float32', 'float64', 'complex64', 'complex128')]",
    "scalar_dict_key": "{np.float32: 'a', np.int64: 'b'}[X.numpy.float32] + "
    "{np.float32: 'a', np.int64: 'b'}[X.numpy.int64]",
    "scalar_str_dtype": "[X.numpy.float32 == 'float32', X.numpy.float32 == np.dtype('float32')]",
    "scalar_call": "X.numpy.float32(1.5)",
    "scalar_np_dtype": "[np.dtype(X.numpy.float32), np.dtype(X.numpy.bfloat16)]",
    "scalar_issubdtype": "[X.dtypes.issubdtype(X.numpy.float32, X.numpy.floating), "
    "isinstance(np.float32(1), X.numpy.float32), isinstance(np.float64(1), X.numpy.float32)]",
    # keys
    "key_impl_threefry": "X.random.key_data(X.random.key(3, impl='threefry2x32'))",
    "prngkey_impl": "X.random.PRNGKey(3, impl='threefry2x32')",
    "key_dtype_name": "str(X.random.key_dtype('threefry2x32'))",
    "key_dtype_default": "str(X.random.key_dtype())",
    "key_impl_unknown": "X.random.key(0, impl='foo')",
    "key_impl_of_key": "str(X.random.key_impl(X.random.key(0)))",
    "key_impl_roundtrip": "str(X.random.key(0, impl=X.random.key_impl(X.random.key(1))).dtype)",
    "key_prng_subdtype": "[X.dtypes.issubdtype(X.random.key(0).dtype, X.dtypes.prng_key), "
    "X.dtypes.issubdtype(X.random.key(0).dtype, X.dtypes.extended), "
    "X.dtypes.issubdtype(X.random.key(0).dtype, np.integer), "
    "X.dtypes.issubdtype(np.float32, X.dtypes.prng_key)]",
    "key_concatenate": "X.random.key_data(X.numpy.concatenate([X.random.split(X.random.key(0), "
    "2), X.random.split(X.random.key(1), 1)]))",
    "key_stack": "X.random.key_data(X.numpy.stack([X.random.key(0), X.random.key(1)]))",
    "key_stack_axis": "X.numpy.stack([X.random.split(X.random.key(0), 2)] * 3, axis=1).shape",
    "key_full": "X.random.key_data(X.numpy.full((2,), X.random.key(5), "
    "dtype=X.random.key(5).dtype))",
    "key_where": "X.random.key_data(X.numpy.where(X.numpy.array([True, False]), "
    "X.random.split(X.random.key(0)), X.random.split(X.random.key(1))))",
    "key_concat_mixed": "X.numpy.concatenate([X.random.split(X.random.key(0)), X.numpy.ones(2)])",
    "key_attrs": "[X.random.key(0).device, X.random.key(0).nbytes, "
    "X.random.split(X.random.key(0), 3).nbytes, X.random.key(0).sharding]",
    "legacy_error": "X.legacy_prng_key('error')(lambda: X.random.uniform(X.random.PRNGKey(0)))()",
    "legacy_error_prngkey": "X.legacy_prng_key('error')(lambda: X.random.PRNGKey(0))()",
    "legacy_error_typed": "X.legacy_prng_key('error')(lambda: X.random.uniform(X.random.key(0)))()",
    "legacy_error_split": "X.legacy_prng_key('error')("
    "lambda: X.random.split(np.array([0, 1], np.uint32)))()",
    # devices and sharding on one device
    "devices": "[X.devices(), repr(X.devices()[0]), str(X.devices()[0]), "
    "X.devices()[0].platform, X.devices()[0].id, X.devices()[0].device_kind, "
    "X.devices()[0].process_index, type(X.devices()[0]).__name__]",
    "device_counts": "[X.device_count(), X.local_device_count(), X.local_devices(), "
    "X.devices('cpu'), X.process_index(), X.process_count(), X.default_backend()]",
    "array_device": "[X.numpy.arange(3).devices(), X.numpy.arange(3).device, "
    "X.numpy.arange(3).sharding, X.numpy.arange(3).is_fully_addressable]",
    "make_mesh": "[repr(X.make_mesh((1,), ('x',))), str(X.make_mesh((1,), ('x',))), "
    "X.make_mesh((1,), ('x',)).shape, X.make_mesh((1,), ('x',)).size, "
    "X.make_mesh((1,), ('x',)).axis_names]",
    "mesh_auto": "repr(X.sharding.Mesh(np.array(X.devices()).reshape(1, 1), ('a', 'b')))",
    "make_mesh_too_big": "X.make_mesh((2,), ('x',))",
    "named_sharding": "[X.sharding.NamedSharding(X.make_mesh((1,), ('x',)), "
    "X.sharding.PartitionSpec('x')), X.sharding.NamedSharding(X.make_mesh((1,), ('x',)), "
    "X.sharding.PartitionSpec('x')).num_devices]",
    "device_put_named": "X.device_put(X.numpy.arange(2.0), X.sharding.NamedSharding("
    "X.make_mesh((1,), ('x',)), X.sharding.PartitionSpec('x'))).sharding",
    "device_put_device": "X.device_put(X.numpy.arange(2.0), X.devices()[0]).sharding",
    "device_put_single": "X.device_put(X.numpy.arange(2.0), "
    "X.sharding.SingleDeviceSharding(X.devices()[0])).sharding == "
    "X.device_put(X.numpy.arange(2.0), X.devices()[0]).sharding",
    "partition_spec": "[X.sharding.PartitionSpec('x', None), "
    "X.sharding.PartitionSpec(('x', 'y')), len(X.sharding.PartitionSpec('x', None))]",
    "shard_map_mul": "X.shard_map(lambda a: a * 2, mesh=X.sharding.Mesh(np.array(X.devices()), "
    "('x',)), in_specs=X.sharding.PartitionSpec('x'), "
    "out_specs=X.sharding.PartitionSpec('x'))(X.numpy.arange(4.0))",
    "shard_map_psum": "X.shard_map(lambda a: X.lax.psum(a, 'x'), "
    "mesh=X.sharding.Mesh(np.array(X.devices()), ('x',)), "
    "in_specs=X.sharding.PartitionSpec('x'), out_specs=X.sharding.PartitionSpec())"
    "(X.numpy.arange(4.0))",
    "shard_map_jit": "X.jit(X.shard_map(lambda a, b: a + b, "
    "mesh=X.sharding.Mesh(np.array(X.devices()), ('x',)), "
    "in_specs=(X.sharding.PartitionSpec('x'), X.sharding.PartitionSpec()), "
    "out_specs=X.sharding.PartitionSpec('x')))(X.numpy.arange(4.0), 1.0)",
    "shard_map_grad": "np.round(np.asarray(X.grad(lambda z: X.shard_map(X.numpy.sin, "
    "mesh=X.sharding.Mesh(np.array(X.devices()), ('x',)), "
    "in_specs=X.sharding.PartitionSpec('x'), out_specs=X.sharding.PartitionSpec('x'))(z).sum())"
    "(X.numpy.arange(3.0))), 5).tolist()",
    "shard_map_too_long": "X.shard_map(lambda a: a.sum(), "
    "mesh=X.sharding.Mesh(np.array(X.devices()), ('x',)), "
    "in_specs=X.sharding.PartitionSpec('x'), out_specs=X.sharding.PartitionSpec('x'))"
    "(X.numpy.arange(4.0))",
    # pytrees
    "unhashable_aux_eq": "REG_DICT_AUX(X) and [X.tree_util.tree_structure(DictAux(1.0, {'a': 1}))"
    " == X.tree_util.tree_structure(DictAux(2.0, {'a': 1})), "
    "X.tree_util.tree_structure(DictAux(1.0, {'a': 1})) == "
    "X.tree_util.tree_structure(DictAux(1.0, {'a': 2})), "
    "repr(X.tree_util.tree_structure(DictAux(1.0, {'a': 1})))]",
    "unhashable_aux_jit": "REG_DICT_AUX(X) and [X.jit(lambda c: c.x * 2)(DictAux(3.0, {'a': 1})),"
    " X.tree.map(lambda v: v + 1, DictAux(1.0, [1, 2])).meta]",
    "register_static_dict": "REG_STATIC_DICT(X) and [repr(X.tree_util.tree_structure("
    "StaticDict(a=1))), X.tree_util.tree_leaves([StaticDict(a=1), 2])]",
    "is_tree_node": "[X.tree_util.is_tree_node(t) for t in (int, list, type(None), dict, "
    "tuple, str)]",
    "flatten_one_level_with_keys": "[X.tree_util.flatten_one_level_with_keys({'a': 1, 'b': [2]}),"
    " X.tree_util.flatten_one_level_with_keys([1, (2, 3)]), "
    "X.tree_util.flatten_one_level_with_keys(None)]",
    "flatten_one_level_with_keys_leaf": "X.tree_util.flatten_one_level_with_keys(1)",
    "reduce_associative": "[X.tree.reduce_associative(op.add, [1, 2, 3, 4]), "
    "X.tree.reduce_associative(op.add, [[1], 2], identity=0), "
    "X.tree.reduce_associative(op.add, [], identity=5), "
    "X.tree.reduce_associative(lambda a, b: f'({a}{b})', list('abcde'))]",
    "reduce_associative_empty": "X.tree.reduce_associative(op.add, [])",
    "tree_util_reduce_associative": "X.tree_util.tree_reduce_associative(op.mul, (2, [3, 4]))",
    "tree_static": "REG_STATIC_FIELD(X) and repr(X.tree_util.tree_structure(StaticOp(1.0)))",
    "map_with_path_takes_path": "X.tree.map_with_path(lambda p, x: (X.tree_util.keystr(p), x), "
    "{'a': (1, 2), 'b': 3}, is_leaf=lambda p, x: isinstance(x, tuple), is_leaf_takes_path=True)",
    "leaves_with_path_takes_path": "X.tree.leaves_with_path({'a': [1, 2]}, "
    "is_leaf=lambda p, x: len(p) == 1, is_leaf_takes_path=True)",
    "default_registry": "[X.tree_util.default_registry.flatten([1, {'a': 2}]), "
    "X.tree_util.default_registry.flatten_one_level((1, 2)), "
    "X.tree_util.default_registry.is_node(list)]",
    "flatten_up_to_list": "X.tree_util.tree_structure([1, 2]).flatten_up_to([7])",
    "flatten_up_to_dict": "X.tree_util.tree_structure({'a': 1}).flatten_up_to({'b': 7})",
    "flatten_up_to_type": "X.tree_util.tree_structure([[1]]).flatten_up_to([7])",
    "flatten_up_to_tuple": "X.tree_util.tree_structure((1,)).flatten_up_to((7, 8))",
    "float0": "[X.float0, X.dtypes.float0 == X.float0, np.zeros((), X.float0)]",
    # ShapeDtypeStruct
    "sds_hash_len": "[hash(X.ShapeDtypeStruct((2, 3), np.float32)) == "
    "hash(X.ShapeDtypeStruct((2, 3), 'float32')), len(X.ShapeDtypeStruct((2, 3), np.float32))]",
    "sds_len_scalar": "len(X.ShapeDtypeStruct((), np.float32))",
    "sds_like": "[X.ShapeDtypeStruct.like(X.numpy.ones((2,), np.int8)), "
    "X.ShapeDtypeStruct.like(2.0), X.ShapeDtypeStruct.like(X.numpy.float32(2))]",
    "sds_update": "X.ShapeDtypeStruct((2, 3), np.float32).update(weak_type=True)",
    "sds_sharding": "X.ShapeDtypeStruct((2,), np.float32, "
    "sharding=X.sharding.SingleDeviceSharding(X.devices()[0]))",
    "sds_zeros_like": "[X.numpy.zeros_like(X.ShapeDtypeStruct((2,), np.float32)), "
    "X.numpy.ones_like(X.ShapeDtypeStruct((2,), np.int8)), "
    "X.numpy.full_like(X.ShapeDtypeStruct((2,), np.float32), 2), "
    "X.numpy.empty_like(X.ShapeDtypeStruct((2,), np.float32)).shape, "
    "X.numpy.zeros_like(X.ShapeDtypeStruct((2,), np.float32, weak_type=True)), "
    "X.numpy.zeros_like(X.ShapeDtypeStruct((2,), np.float32), dtype=np.int8)]",
    # config
    "parse_flags_with_absl": "X.config.parse_flags_with_absl()",
    "flag_values": "[X.config.jax_traceback_filtering, X.config.jax_enable_checks, "
    "X.config.jax_numpy_rank_promotion, X.config.jax_allow_f16_reductions]",
    "explicit_x64_error": "WITH_FLAG(X, 'jax_explicit_x64_dtypes', 'error', "
    "lambda: X.numpy.zeros(2, 'float64'))",
    "traceback_filtering_bad": "X.config.update('jax_traceback_filtering', 'bogus')",
    "enable_x64_value": "X.enable_x64.value",
    "dtypes_scalar_types": "[X.dtypes.bfloat16, X.numpy.float8_e4m3fn.dtype, X.numpy.int4.dtype, "
    "np.dtype(X.dtypes.bfloat16)]",
    "scalar_type_of": "[X.dtypes.scalar_type_of(x) for x in (np.int8(1), True, 1j, "
    "X.numpy.float32(1), X.numpy.bfloat16(1))]",
    "scalar_type_of_bad": "X.dtypes.scalar_type_of('a')",
    "check_grads_tol_dict": "X.test_util.check_grads(X.numpy.sin, (np.float32(0.5),), 2, "
    "atol={np.float32: 3e-3, np.float64: 1e-5}, rtol={np.float32: 3e-3})",
    "strict_promotion_text": "STRICT_MESSAGE(X)",
    "lax_mul_out_dtype": "[X.lax.mul(X.numpy.int8(100), X.numpy.int8(3), out_dtype=np.int32), "
    "X.lax.mul(X.numpy.ones(2, 'bfloat16'), X.numpy.ones(2, 'bfloat16'), out_dtype=np.float32), "
    "X.lax.mul(2.0, 3.0)]",
    "binop_list_reflected": "[1, 2] - X.numpy.ones(2, 'float32')",
    "binop_list": "X.numpy.ones(2, 'float32') * (1, 2)",
    "key_add_int": "X.random.key(0) + 1",
    "key_radd_int": "1 + X.random.key(0)",
}


def setup(X: object) -> dict[str, object]:
    """Names the cases use besides ``X``, ``np`` and ``op``: registrations made once per module
    (``X`` is jax or trellax)."""
    import dataclasses
    import re
    from typing import Any

    tu = X.tree_util  # type: ignore[attr-defined]
    made: dict[str, object] = {}

    class DictAux:
        def __init__(self, x: object, meta: object) -> None:
            self.x = x
            self.meta = meta

    class StaticDict(dict):  # type: ignore[type-arg]
        pass

    def reg_dict_aux(_: object) -> bool:
        if "dict_aux" not in made:
            tu.register_pytree_node(
                DictAux, lambda c: ((c.x,), c.meta), lambda m, ch: DictAux(ch[0], m)
            )
            made["dict_aux"] = True
        return True

    def reg_static_dict(_: object) -> bool:
        if "static_dict" not in made:
            tu.register_static(StaticDict)
            made["static_dict"] = True
        return True

    @dataclasses.dataclass
    class StaticOp:
        x: object
        op: str = X.tree.static(default="add")  # type: ignore[attr-defined]

    def reg_static_field(_: object) -> bool:
        if "static_field" not in made:
            tu.register_dataclass(StaticOp)
            made["static_field"] = True
        return True

    def with_flag(X: Any, name: str, value: Any, fn: Any) -> Any:
        old = getattr(X.config, name)
        X.config.update(name, value)
        try:
            return fn()
        finally:
            X.config.update(name, old)

    def strict_message(X: Any) -> str:
        # the dtypes are named in a set's order, which varies between processes (in JAX too)
        try:
            with X.numpy_dtype_promotion("strict"):
                X.numpy.add(X.numpy.ones(2, "int8"), X.numpy.ones(2, "float32"))
        except Exception as e:
            return f"{type(e).__name__}: " + re.sub(r"\(.*?\)", "(...)", str(e))
        return "no error"

    return {
        "WITH_FLAG": with_flag,
        "STRICT_MESSAGE": strict_message,
        "DictAux": DictAux,
        "StaticDict": StaticDict,
        "StaticOp": StaticOp,
        "REG_DICT_AUX": reg_dict_aux,
        "REG_STATIC_DICT": reg_static_dict,
        "REG_STATIC_FIELD": reg_static_field,
    }
