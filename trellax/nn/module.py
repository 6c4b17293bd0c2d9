"""``flax.linen.module``: ``Module`` and its helpers, as names of ``trellax.nn``."""

from trellax._src.nn.module import CompactNameScope as CompactNameScope
from trellax._src.nn.module import InterceptorContext as InterceptorContext
from trellax.nn import DenyList as DenyList
from trellax.nn import Module as Module
from trellax.nn import Variable as Variable
from trellax.nn import apply as apply
from trellax.nn import compact as compact
from trellax.nn import compact_name_scope as compact_name_scope
from trellax.nn import disable_named_call as disable_named_call
from trellax.nn import enable_named_call as enable_named_call
from trellax.nn import init as init
from trellax.nn import init_with_output as init_with_output
from trellax.nn import intercept_methods as intercept_methods
from trellax.nn import merge_param as merge_param
from trellax.nn import nowrap as nowrap
from trellax.nn import override_named_call as override_named_call
from trellax.nn import share_scope as share_scope
