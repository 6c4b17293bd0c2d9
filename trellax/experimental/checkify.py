"""``trellax.experimental.checkify`` mirrors ``jax.experimental.checkify`` (user checks)."""

from trellax._src.experimental.checkify import Error as Error
from trellax._src.experimental.checkify import ErrorCategory as ErrorCategory
from trellax._src.experimental.checkify import FailedCheckError as FailedCheckError
from trellax._src.experimental.checkify import JaxRuntimeError as JaxRuntimeError
from trellax._src.experimental.checkify import all_checks as all_checks
from trellax._src.experimental.checkify import automatic_checks as automatic_checks
from trellax._src.experimental.checkify import check as check
from trellax._src.experimental.checkify import check_error as check_error
from trellax._src.experimental.checkify import checkify as checkify
from trellax._src.experimental.checkify import debug_check as debug_check
from trellax._src.experimental.checkify import div_checks as div_checks
from trellax._src.experimental.checkify import float_checks as float_checks
from trellax._src.experimental.checkify import index_checks as index_checks
from trellax._src.experimental.checkify import init_error as init_error
from trellax._src.experimental.checkify import nan_checks as nan_checks
from trellax._src.experimental.checkify import user_checks as user_checks
