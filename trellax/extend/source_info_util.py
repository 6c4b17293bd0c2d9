"""``trellax.extend.source_info_util`` (``jax.extend.source_info_util``): ``register_exclusion``
marks a library's files as not the user's code when jaxpr equations and error messages name the
user's source line."""

from trellax._src.core.source_info import register_exclusion as register_exclusion
