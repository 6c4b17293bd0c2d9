"""``jax._src.checkify``: the checkify names Flax's ``nnx.checkify`` reads from JAX's private
module (``checkify``, ``user_checks``, ``Error``, ``JaxException``, ``Out``), from
``trellax/_src/experimental/checkify.py``."""

from typing import TypeVar

from trellax._src.experimental.checkify import Error as Error
from trellax._src.experimental.checkify import FailedCheckError as FailedCheckError
from trellax._src.experimental.checkify import JaxRuntimeError as JaxRuntimeError
from trellax._src.experimental.checkify import all_checks as all_checks
from trellax._src.experimental.checkify import check as check
from trellax._src.experimental.checkify import checkify as checkify
from trellax._src.experimental.checkify import user_checks as user_checks

#: The result type of a checkified function (a type variable, as in JAX).
Out = TypeVar("Out")
