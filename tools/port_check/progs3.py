import flax.linen as fnn
import harness

import trellax.nn as tnn

orig = harness.mods


def mods(which):
    m = orig(which)
    m["nn"] = fnn if which == "jax" else tnn
    if which == "jax":
        import optax

        m["optax"] = optax
    else:
        import trellax.optim as o

        m["optax"] = o
    return m


harness.mods = mods
P = []


def prog(f):
    P.append((f.__name__, f))
    return f


@prog
def mlp_init_apply(jax, jnp, lax, random, nn, scipy, optax):
    class MLP(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.Dense(16)(x)
            x = nn.relu(x)
            x = nn.Dense(4, use_bias=False)(x)
            return nn.LayerNorm()(x)

    m = MLP()
    x = jnp.ones((2, 8))
    v = m.init(random.key(0), x)
    return v, m.apply(v, x)


@prog
def cnn_bn_dropout(jax, jnp, lax, random, nn, scipy, optax):
    class CNN(nn.Module):
        @nn.compact
        def __call__(self, x, train):
            x = nn.Conv(4, (3, 3), strides=2)(x)
            x = nn.BatchNorm(use_running_average=not train, momentum=0.9)(x)
            x = nn.Dropout(0.5, deterministic=not train)(x)
            x = nn.avg_pool(x, (2, 2), strides=(2, 2))
            return nn.Dense(3)(x.reshape(x.shape[0], -1))

    m = CNN()
    x = jnp.linspace(0, 1, 2 * 8 * 8 * 3).reshape(2, 8, 8, 3)
    v = m.init({"params": random.key(1), "dropout": random.key(2)}, x, train=False)
    y, upd = m.apply(v, x, train=True, rngs={"dropout": random.key(3)}, mutable=["batch_stats"])
    return v, y, upd


@prog
def bf16_dense(jax, jnp, lax, random, nn, scipy, optax):
    d = nn.Dense(3, dtype=jnp.bfloat16)
    x = jnp.ones((2, 4), jnp.float32)
    v = d.init(random.key(0), x)
    d2 = nn.Dense(3, param_dtype=jnp.bfloat16)
    v2 = d2.init(random.key(0), x)
    return v, d.apply(v, x), v2, d2.apply(v2, x), nn.Dense(3).apply(v, x.astype(jnp.float16))


@prog
def embed_attention(jax, jnp, lax, random, nn, scipy, optax):
    class M(nn.Module):
        @nn.compact
        def __call__(self, ids):
            e = nn.Embed(10, 8)(ids)
            return nn.MultiHeadDotProductAttention(num_heads=2, qkv_features=8)(e, e)

    m = M()
    ids = jnp.array([[1, 2, 3], [4, 5, 6]])
    v = m.init(random.key(0), ids)
    return v, m.apply(v, ids)


@prog
def train_steps(jax, jnp, lax, random, nn, scipy, optax):
    m = nn.Dense(2)
    x = jnp.linspace(-1, 1, 12).reshape(6, 2)
    y = jnp.array([0, 1, 0, 1, 1, 0])
    p = m.init(random.key(0), x)["params"]
    opt = optax.adam(1e-2)
    s = opt.init(p)

    @jax.jit
    def step(p, s):
        def loss(p):
            lg = m.apply({"params": p}, x)
            return -jnp.mean(jnp.sum(jax.nn.one_hot(y, 2) * jax.nn.log_softmax(lg), -1))

        lv, g = jax.value_and_grad(loss)(p)
        u, s = opt.update(g, s, p)
        return optax.apply_updates(p, u), s, lv

    ls = []
    for _ in range(5):
        p, s, lv = step(p, s)
        ls.append(lv)
    return p, ls


@prog
def sgd_momentum(jax, jnp, lax, random, nn, scipy, optax):
    p = {"w": jnp.array([1.0, -2.0])}
    opt = optax.sgd(0.1, momentum=0.9)
    s = opt.init(p)
    for _ in range(3):
        g = jax.grad(lambda p: jnp.sum(p["w"] ** 2))(p)
        u, s = opt.update(g, s, p)
        p = optax.apply_updates(p, u)
    return p


@prog
def groupnorm_rmsnorm(jax, jnp, lax, random, nn, scipy, optax):
    x = jnp.arange(24.0).reshape(2, 3, 4)
    gn = nn.GroupNorm(num_groups=2)
    rn = nn.RMSNorm()
    v1 = gn.init(random.key(0), x)
    v2 = rn.init(random.key(0), x)
    return gn.apply(v1, x), rn.apply(v2, x)


@prog
def lstm_cell(jax, jnp, lax, random, nn, scipy, optax):
    cell = nn.LSTMCell(features=3)
    x = jnp.ones((2, 4))
    carry = cell.initialize_carry(random.key(0), x.shape)
    v = cell.init(random.key(1), carry, x)
    return v, cell.apply(v, carry, x)


@prog
def setup_style(jax, jnp, lax, random, nn, scipy, optax):
    class M(nn.Module):
        features: int = 3

        def setup(self):
            self.d1 = nn.Dense(self.features)
            self.w = self.param("w", nn.initializers.ones, (self.features,))

        def __call__(self, x):
            return self.d1(x) * self.w

    m = M(features=2)
    v = m.init(random.key(5), jnp.ones((1, 3)))
    return v, m.apply(v, jnp.ones((1, 3)))


@prog
def initializers(jax, jnp, lax, random, nn, scipy, optax):
    k = random.key(0)
    init = nn.initializers
    return (
        init.lecun_normal()(k, (3, 4)),
        init.glorot_uniform()(k, (3, 4)),
        init.he_normal()(k, (2, 3, 4)),
        init.normal(0.1)(k, (3,)),
        init.truncated_normal(0.5)(k, (3,)),
        init.orthogonal()(k, (3, 3)),
        init.zeros(k, (2,), jnp.bfloat16),
        init.variance_scaling(2.0, "fan_out", "uniform")(k, (4, 5)),
        init.xavier_normal()(k, (4, 4), jnp.float16),
    )


harness.run(P, rtol=2e-5, atol=2e-6)
