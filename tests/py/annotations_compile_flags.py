# compile()'s flag for `from __future__ import annotations`, its inheritance by
# compile/exec/eval called from a module that has the import (dont_inherit
# stops it), co_flags, and the __future__ module itself.
from __future__ import annotations
import __future__

src = "def f(x: int) -> list[int]: pass\ny: 1 + 2 = 3\n"


def run(code):
    ns = {}
    exec(code, ns)
    return ns['f'].__annotations__, ns['__annotations__'], hex(ns['f'].__code__.co_flags & 0x1000000)


print(run(src))
print(run(compile(src, "<s>", "exec")))
print(run(compile(src, "<s>", "exec", dont_inherit=True)))
print(run(compile(src, "<s>", "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True)))
print(run(compile("from __future__ import annotations\n" + src, "<s>", "exec", dont_inherit=True)))
print(eval("lambda: 0").__code__.co_flags & 0x1000000 != 0)
print(annotations, __future__.annotations.getMandatoryRelease(), __future__.all_feature_names)
for name in __future__.all_feature_names:
    feature = getattr(__future__, name)
    print(name, feature, feature.getOptionalRelease(), hex(feature.compiler_flag))
print(__future__.CO_FUTURE_ANNOTATIONS, __future__.CO_GENERATOR_ALLOWED)


def g(a: undefined_name) -> also_undefined:
    pass


print(g.__annotations__, hex(g.__code__.co_flags & 0x1000000))
