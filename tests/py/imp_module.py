# _imp: the import lock, the built-in registry, no frozen modules, source_hash (SipHash-1-3 of PEP 552)
import _imp
print(_imp.is_builtin('sys'), _imp.is_builtin('_thread'), _imp.is_builtin('nope'))
print(_imp.is_frozen('no_such_mod'), _imp.find_frozen('no_such_mod'), _imp.lock_held())
_imp.acquire_lock(); print(_imp.lock_held()); _imp.release_lock(); print(_imp.lock_held())
try:
    _imp.release_lock()
except RuntimeError as e:
    print('RuntimeError', e)
print(_imp.source_hash(1234, b'hello world, this is a test'), _imp.source_hash(key=0, source=b''))
print(_imp.source_hash(3495, b'x' * 17))
class Spec: name = '_thread'
import _thread
print(type(_imp.create_builtin(Spec)).__name__, _imp.create_builtin(Spec).__name__)
try:
    _imp.is_frozen_package('foo')
except ImportError as e:
    print('ImportError', e, e.name)
print(type(_imp.extension_suffixes()), _imp.check_hash_based_pycs)
