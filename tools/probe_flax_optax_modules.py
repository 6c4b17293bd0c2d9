"""Programs of ``tools/probe_flax_optax.py``: module mechanics, lifted transforms, initializers and activations."""

from __future__ import annotations

from collections.abc import Callable

Add = Callable[[str, str], None]


def gen_module(add: Add) -> None:
    add(
        "mod/setup_vs_compact",
        """
class A(nn.Module):
    def setup(self):
        self.d1 = nn.Dense(3)
        self.d2 = [nn.Dense(2), nn.Dense(2)]
        self.w = self.param('w', nn.initializers.normal(0.1), (3,))
    def __call__(self, x):
        return self.d2[1](self.d2[0](self.d1(x) * self.w))
class B(nn.Module):
    @nn.compact
    def __call__(self, x):
        w = self.param('w', nn.initializers.normal(0.1), (3,))
        x = nn.Dense(3, name='d1')(x) * w
        return nn.Dense(2)(nn.Dense(2)(x))
x = X(2, 4)
result = (A().init_with_output(K, x), B().init_with_output(K, x))
""",
    )
    add(
        "mod/variable_counter",
        """
class C(nn.Module):
    @nn.compact
    def __call__(self, x):
        c = self.variable('counter', 'n', lambda: jnp.zeros((), jnp.int32))
        s = self.variable('stats', 'sum', jnp.zeros, x.shape[1:])
        if not self.is_initializing():
            c.value += 1
            s.value = s.value + x.sum(0)
        return x * c.value
m = C()
x = X(2, 3)
v = m.init(K, x)
y, u = m.apply(v, x, mutable=True)
y2, u2 = m.apply(u, x, mutable=['counter'])
result = (v, y, u, y2, u2)
""",
    )
    add(
        "mod/immutable_error",
        """
class C(nn.Module):
    @nn.compact
    def __call__(self, x):
        c = self.variable('counter', 'n', lambda: jnp.zeros(()))
        c.value += 1
        return x
m = C()
v = m.init(K, X(2))
result = m.apply(v, X(2))
""",
    )
    add(
        "mod/method",
        """
class M(nn.Module):
    def setup(self):
        self.enc = nn.Dense(3)
        self.dec = nn.Dense(4)
    def encode(self, x):
        return self.enc(x)
    def decode(self, z):
        return self.dec(z)
    def __call__(self, x):
        return self.decode(self.encode(x))
m = M()
x = X(2, 4)
v = m.init(K, x)
result = (v, m.apply(v, x, method=m.encode), m.apply(v, X(2, 3), method='decode'),
          m.apply(v, x, method=lambda mod, x: mod.dec(mod.enc(x)) * 2))
""",
    )
    add(
        "mod/init_method",
        """
class M(nn.Module):
    def setup(self):
        self.enc = nn.Dense(3)
    def encode(self, x):
        return self.enc(x)
    def __call__(self, x):
        return x
m = M()
result = m.init(K, X(2, 4), method=m.encode)
""",
    )
    add(
        "mod/tabulate",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(4)(x)
        x = nn.BatchNorm(use_running_average=True)(x)
        return nn.Dense(2)(x)
s = M().tabulate(K, X(2, 3))
s2 = M().tabulate(K, X(2, 3), depth=1, compute_flops=True)
result = (isinstance(s, str), len(s) > 0, isinstance(s2, str))
""",
    )
    add(
        "mod/share_scope",
        """
class Inner(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3, name='shared')(x)
class Outer(nn.Module):
    def setup(self):
        self.inner = Inner()
        nn.share_scope(self, self.inner)
    @nn.compact
    def __call__(self, x):
        y = self.inner(x)
        return nn.Dense(2, name='other')(y)
result = Outer().init_with_output(K, X(2, 4))
""",
    )
    add(
        "mod/capture_intermediates",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(3)(x)
        x = nn.relu(x)
        return nn.Dense(2)(x)
m = M()
x = X(2, 4)
v = m.init(K, x)
y, st = m.apply(v, x, capture_intermediates=True, mutable=['intermediates'])
y2, st2 = m.apply(v, x, capture_intermediates=lambda mdl, name: isinstance(mdl, nn.Dense), mutable=['intermediates'])
result = (y, st, st2)
""",
    )
    add(
        "mod/sow",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        self.sow('intermediates', 'h', x * 2)
        self.sow('intermediates', 'h', x * 3)
        self.sow('stats', 's', x.sum(), reduce_fn=lambda a, b: a + b, init_fn=lambda: 0.0)
        self.sow('stats', 's', x.mean(), reduce_fn=lambda a, b: a + b, init_fn=lambda: 0.0)
        return x
m = M()
y, st = m.apply({}, X(3), mutable=['intermediates', 'stats'])
y2 = m.apply({}, X(3))
result = (y, st, y2)
""",
    )
    add(
        "mod/perturb",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.Dense(3)(x)
        h = self.perturb('h', h)
        return (h ** 2).sum()
m = M()
x = X(2, 4)
v = m.init(K, x)
g = jax.grad(lambda v: m.apply(v, x))(v)
result = (v, g)
""",
    )
    add(
        "mod/sequential",
        """
m = nn.Sequential([nn.Dense(4), nn.relu, nn.Dense(2), lambda x: x * 2])
x = X(3, 5)
result = m.init_with_output(K, x)
""",
    )
    add(
        "mod/sequential_tuple",
        """
class Two(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x, x * 2
m = nn.Sequential([Two(), lambda a, b: a + b, nn.Dense(2)])
result = m.init_with_output(K, X(3, 5))
""",
    )
    add(
        "mod/sequential_empty",
        """
m = nn.Sequential([])
result = m.init_with_output(K, X(3))
""",
    )
    add(
        "mod/param_shape_mismatch",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)
v = M().init(K, X(2, 4))
result = M().apply(v, X(2, 5))
""",
    )
    add(
        "mod/missing_param",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)
result = M().apply({'params': {}}, X(2, 4))
""",
    )
    add(
        "mod/rng_streams",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        a = self.make_rng('params')
        b = self.make_rng('noise')
        c = self.make_rng('noise')
        p = self.param('p', lambda k, s: jax.random.uniform(k, s), (2,))
        return p, jax.random.normal(b, (2,)), jax.random.normal(c, (2,)), jax.random.key_data(a)
m = M()
v, out = m.init_with_output({'params': K, 'noise': jax.random.key(5)}, X(2))
out2 = m.apply(v, X(2), rngs={'noise': jax.random.key(5), 'params': K})
result = (v, out, out2)
""",
    )
    add(
        "mod/param_names",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        for i in range(3):
            x = nn.Dense(2)(x)
        x = nn.Conv(2, (1,))(x)
        x = nn.LayerNorm()(x)
        return nn.Dense(1, name='head')(x)
result = jax.tree_util.tree_map(jnp.shape, M().init(K, X(2, 3)))
""",
    )
    add(
        "mod/module_attrs_dataclass",
        """
class M(nn.Module):
    features: int = 3
    act: callable = nn.relu
    @nn.compact
    def __call__(self, x):
        return self.act(nn.Dense(self.features)(x))
m = M(features=4)
m2 = m.clone(features=2)
result = (m.init_with_output(K, X(1, 3)), m2.init_with_output(K, X(1, 3)), m2.features)
""",
    )
    add(
        "mod/bind",
        """
m = nn.Dense(3)
v = m.init(K, X(1, 2))
b = m.bind(v)
result = (b(X(1, 2)), b.variables)
""",
    )
    add(
        "mod/unbind",
        """
class M(nn.Module):
    def setup(self):
        self.d = nn.Dense(2)
    def __call__(self, x):
        return self.d(x)
m = M()
v = m.init(K, X(1, 3))
mod, vars_ = m.bind(v).unbind()
result = vars_
""",
    )
    add(
        "mod/init_twice_names",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        d = nn.Dense(2)
        return d(x) + d(x)
result = M().init_with_output(K, X(1, 2))
""",
    )
    add(
        "mod/dup_name",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2, name='a')(x) + nn.Dense(2, name='a')(x)
result = M().init(K, X(1, 2))
""",
    )
    add(
        "mod/intermediates_get",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        y = nn.Dense(2)(x)
        self.sow('intermediates', 'y', y)
        return y
m = M()
v = m.init(K, X(1, 2))
_, st = m.apply(v, X(1, 2), mutable='intermediates')
result = st
""",
    )
    # lifted transforms
    add(
        "lift/scan_layers",
        """
class Block(nn.Module):
    @nn.compact
    def __call__(self, c, _):
        return nn.tanh(nn.Dense(4)(c)), c.sum()
Stack = nn.scan(Block, variable_axes={'params': 0}, split_rngs={'params': True}, length=3)
m = Stack()
x = X(2, 4)
v = m.init(K, x, None)
out = m.apply(v, x, None)
g = jax.grad(lambda v: m.apply(v, x, None)[0].sum())(v)
result = (v, out, g)
""",
    )
    add(
        "lift/scan_inputs",
        """
class Cell(nn.Module):
    @nn.compact
    def __call__(self, c, x):
        h = nn.Dense(3)(jnp.concatenate([c, x], -1))
        return h, h * 2
S = nn.scan(Cell, variable_broadcast='params', split_rngs={'params': False}, in_axes=1, out_axes=1)
c0 = jnp.zeros((2, 3))
xs = X(2, 5, 2)
v = S().init(K, c0, xs)
result = (v, S().apply(v, c0, xs))
""",
    )
    add(
        "lift/scan_reverse_unroll",
        """
class Cell(nn.Module):
    @nn.compact
    def __call__(self, c, x):
        h = nn.Dense(3)(c) + x
        return h, h
S = nn.scan(Cell, variable_broadcast='params', split_rngs={'params': False}, reverse=True, unroll=2)
c0 = jnp.ones((3,))
xs = X(4, 3)
v = S().init(K, c0, xs)
result = (v, S().apply(v, c0, xs))
""",
    )
    add(
        "lift/vmap",
        """
V = nn.vmap(nn.Dense, in_axes=0, out_axes=0, variable_axes={'params': 0}, split_rngs={'params': True})
m = V(3)
x = X(4, 2, 5)
v = m.init(K, x)
result = (v, m.apply(v, x))
""",
    )
    add(
        "lift/vmap_broadcast",
        """
V = nn.vmap(nn.Dense, in_axes=1, out_axes=1, variable_axes={'params': None}, split_rngs={'params': False})
m = V(3)
x = X(2, 4, 5)
v = m.init(K, x)
result = (v, m.apply(v, x))
""",
    )
    add(
        "lift/remat",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.remat(nn.Dense)(4)(x)
        return nn.checkpoint(nn.Dense)(2)(nn.relu(x))
m = M()
x = X(2, 3)
v = m.init(K, x)
result = (v, m.apply(v, x), jax.grad(lambda v: m.apply(v, x).sum())(v))
""",
    )
    add(
        "lift/remat_static",
        """
class B(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        return nn.Dropout(0.5, deterministic=not train)(nn.Dense(3)(x))
R = nn.remat(B, static_argnums=(2,))
m = R()
x = X(2, 3)
v = m.init(K, x, False)
result = (v, m.apply(v, x, True, rngs={'dropout': K}))
""",
    )
    add(
        "lift/jit",
        """
J = nn.jit(nn.Dense)
m = J(3)
x = X(2, 4)
v = m.init(K, x)
result = (v, m.apply(v, x))
""",
    )
    add(
        "lift/jit_method",
        """
class M(nn.Module):
    @nn.jit
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)
m = M()
x = X(2, 4)
v = m.init(K, x)
result = (v, m.apply(v, x))
""",
    )
    add(
        "lift/grad",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        d = nn.Dense(1)
        def f(mdl, x):
            return mdl(x).sum()
        g = nn.grad(f, d)(x)
        return g
m = M()
x = X(2, 3)
v = m.init(K, x)
result = (v, m.apply(v, x))
""",
    )
    add(
        "lift/value_and_grad",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        d = nn.Dense(1)
        def f(mdl, x):
            return mdl(x).sum()
        val, (gp, gx) = nn.value_and_grad(f, d, x, reduce_axes=())  if False else (None, (None, None))
        y, g = nn.value_and_grad(f, d, x)
        return y, g
m = M()
x = X(2, 3)
v = m.init(K, x)
result = (v, m.apply(v, x))
""",
    )
    add(
        "lift/while_loop",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        d = nn.Dense(2)
        def cond(mdl, c):
            return c[0] < 3
        def body(mdl, c):
            return (c[0] + 1, mdl(c[1]))
        return nn.while_loop(cond, body, self, (0, x), carry_variables='params') if False else d(x)
result = M().init_with_output(K, X(1, 2))
""",
    )
    add(
        "lift/map_variables",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        D = nn.map_variables(nn.Dense, 'params', lambda p: jax.tree_util.tree_map(lambda a: a * 0.5, p), init=True)
        return D(3)(x)
result = M().init_with_output(K, X(2, 2))
""",
    )
    add(
        "lift/cond",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x, pred):
        a = nn.Dense(2, name='a')
        b = nn.Dense(2, name='b')
        if self.is_initializing():
            a(x); b(x)
        return nn.cond(pred, lambda m, x: a(x), lambda m, x: b(x), self, x)
m = M()
x = X(1, 3)
v = m.init(K, x, True)
result = (v, m.apply(v, x, True), m.apply(v, x, False))
""",
    )


def gen_init(add: Add) -> None:
    inits = [
        "nn.initializers.lecun_normal()",
        "nn.initializers.lecun_uniform()",
        "nn.initializers.glorot_normal()",
        "nn.initializers.glorot_uniform()",
        "nn.initializers.he_normal()",
        "nn.initializers.he_uniform()",
        "nn.initializers.xavier_uniform()",
        "nn.initializers.kaiming_normal()",
        "nn.initializers.normal(0.5)",
        "nn.initializers.truncated_normal(0.3)",
        "nn.initializers.uniform(2.0)",
        "nn.initializers.orthogonal()",
        "nn.initializers.orthogonal(2.0, column_axis=0)",
        "nn.initializers.delta_orthogonal()",
        "nn.initializers.zeros",
        "nn.initializers.ones",
        "nn.initializers.zeros_init()",
        "nn.initializers.ones_init()",
        "nn.initializers.constant(3.0)",
        "nn.initializers.variance_scaling(2.0, 'fan_avg', 'uniform')",
        "nn.initializers.variance_scaling(1.0, 'fan_in', 'truncated_normal', in_axis=0, out_axis=(1, 2))",
        "nn.initializers.variance_scaling(1.0, 'fan_out', 'normal', batch_axis=0)",
        "nn.initializers.normal()",
    ]
    for i, init in enumerate(inits):
        for shape, dt in [
            ("(3, 4)", "jnp.float32"),
            ("(3, 3, 2, 4)", "jnp.float32"),
            ("(5, 2)", "jnp.bfloat16"),
            ("(4,)", "jnp.float16"),
            ("(2, 3)", "jnp.complex64"),
        ]:
            add(
                f"init/{i}/{init}/{shape}/{dt}",
                f"""
f = {init}
result = f(jax.random.key(3), {shape}, {dt})
""",
            )
    add(
        "init/default_kernel",
        "result = nn.Dense(3, kernel_init=nn.linear.default_kernel_init).init(K, X(1, 2))",
    )


def gen_acts(add: Add) -> None:
    acts = [
        "relu",
        "relu6",
        "sigmoid",
        "softplus",
        "soft_sign",
        "silu",
        "swish",
        "log_sigmoid",
        "leaky_relu",
        "hard_sigmoid",
        "hard_silu",
        "hard_swish",
        "hard_tanh",
        "elu",
        "celu",
        "selu",
        "gelu",
        "glu",
        "log_softmax",
        "softmax",
        "standardize",
        "one_hot",
        "logsumexp",
        "tanh",
        "sparse_plus",
        "sparse_sigmoid",
        "squareplus",
        "mish",
        "identity",
    ]
    for a in acts:
        for dt in ["jnp.float32", "jnp.bfloat16"]:
            if a == "one_hot":
                src = f"result = nn.one_hot(jnp.array([0, 2, -1, 5]), 4, dtype={dt})"
            else:
                src = f"""
x = jnp.array([[-3.0, -0.5, 0.0, 0.5, 2.0, 10.0]], {dt})
f = getattr(nn, '{a}', None)
y = f(x)
g = jax.grad(lambda x: f(x).astype(jnp.float32).sum())(x) if '{a}' not in ('standardize',) else None
result = (y, g)
"""
            add(f"act/{a}/{dt}", src)
    add("act/gelu_exact", "result = nn.gelu(X(5), approximate=False)")
    add("act/softmax_where", "result = nn.softmax(X(2, 3), where=jnp.array([[True, False, True]]))")
    add("act/PReLU", "m = nn.PReLU()\nresult = m.init_with_output(K, X(2, 3))")
