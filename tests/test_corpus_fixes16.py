"""Behaviours that programs added to the corpus on 2026-11-29 (session 16: Flax's nnx guides,
JAX's type promotion page and examples) showed trellax getting wrong, each checked here
without JAX."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

import trellax
from trellax.sharding import Mesh


def test_a_lone_string_is_one_mesh_axis_name() -> None:
    # nnx's key concepts guide: jax.make_mesh((jax.device_count(),), 'model')
    mesh = trellax.make_mesh((1,), "model")
    assert mesh.axis_names == ("model",)
    assert dict(mesh.shape) == {"model": 1}
    assert Mesh(np.array(trellax.devices()[:1]), "xy").axis_names == ("xy",)


def test_flax_errors_end_with_their_entry_on_flax_s_error_page() -> None:
    # nnx's pytree guide prints a caught TraceContextError: Flax's message ends with this link
    import pickle

    from trellax.flax import errors

    page = "https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html"
    err = errors.TraceContextError("Cannot mutate 'Foo' from different trace level")
    assert str(err) == (
        f"Cannot mutate 'Foo' from different trace level ({page}#flax.errors.TraceContextError)"
    )
    again = pickle.loads(pickle.dumps(err))
    assert str(again) == str(err)  # unpickling does not add the link twice


def test_backends_are_initialized_once_the_devices_are_asked_for() -> None:
    # Flax's sharding guide: `if not jax._src.xla_bridge.backends_are_initialized():` before
    # jax.config.update('jax_num_cpu_devices', 8); a fresh process answers False
    code = (
        "import trellax.compat; trellax.compat.install()\n"
        "import jax, jax.numpy as jnp\n"
        "from jax._src import xla_bridge\n"
        "print(xla_bridge.backends_are_initialized())\n"
        "jax.config.update('jax_num_cpu_devices', 4)\n"
        "print(len(jax.devices()), xla_bridge.backends_are_initialized())\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["False", "4", "True"]
