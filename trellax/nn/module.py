"""``flax.linen.module``: ``Module`` and its helpers, as names of ``trellax.nn``."""

from trellax._src.nn.functional import apply as apply
from trellax._src.nn.functional import init as init
from trellax._src.nn.functional import init_with_output as init_with_output
from trellax._src.nn.module import CompactNameScope as CompactNameScope
from trellax._src.nn.module import InterceptorContext as InterceptorContext
from trellax._src.nn.module import Module as Module
from trellax._src.nn.module import SetupState as SetupState
from trellax._src.nn.module import Variable as Variable
from trellax._src.nn.module import _context as _context
from trellax._src.nn.module import _freeze_attr as _freeze_attr
from trellax._src.nn.module import _get_local_method_names as _get_local_method_names
from trellax._src.nn.module import _get_suffix_value_pairs as _get_suffix_value_pairs
from trellax._src.nn.module import compact as compact
from trellax._src.nn.module import compact_name_scope as compact_name_scope
from trellax._src.nn.module import intercept_methods as intercept_methods
from trellax._src.nn.module import merge_param as merge_param
from trellax._src.nn.module import nowrap as nowrap
from trellax._src.nn.module import share_scope as share_scope
from trellax._src.nn.scope import DenyList as DenyList
from trellax._src.nn.transforms import disable_named_call as disable_named_call
from trellax._src.nn.transforms import enable_named_call as enable_named_call
from trellax._src.nn.transforms import override_named_call as override_named_call
