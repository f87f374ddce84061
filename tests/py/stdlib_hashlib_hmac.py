import hashlib, hmac
for name in ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha3_224', 'sha3_256', 'sha3_384', 'sha3_512', 'blake2b', 'blake2s', 'sha512_256']:
    h = hashlib.new(name, b'abc')
    h2 = h.copy(); h2.update(b'def')
    print(name, h.name, h.digest_size, h.block_size, h.hexdigest(), h2.hexdigest()[:16], hashlib.new(name, b'abcdef').digest() == h2.digest())
for name in ['shake_128', 'shake_256']:
    h = hashlib.new(name, b'abc'); print(name, h.digest_size, h.block_size, h.hexdigest(10), h.digest(5), h.copy().hexdigest(3))
print(hashlib.md5(b'x').hexdigest(), hashlib.sha256(b'x' * 1000000).hexdigest(), hashlib.sha1().hexdigest())
h = hashlib.md5(); h.update(b'a'); h.update(bytearray(b'b')); h.update(memoryview(b'c')); print(h.hexdigest())
print(hashlib.new('SHA256', b'x').name, hashlib.sha3_256(b'').hexdigest(), hashlib.shake_128(b'').hexdigest(16))
print(sorted(hashlib.algorithms_available), sorted(hashlib.algorithms_guaranteed))
print(hashlib.pbkdf2_hmac('sha256', b'password', b'salt', 1000).hex(), hashlib.pbkdf2_hmac('sha1', b'p', b's', 2, 10).hex())
print(hmac.new(b'key', b'msg', 'sha256').hexdigest(), hmac.new(b'key', b'msg', hashlib.sha1).hexdigest(), hmac.new(b'k'*200, b'msg', 'md5').hexdigest())
m = hmac.new(b'key', digestmod='sha512'); m.update(b'a'); m2 = m.copy(); m2.update(b'b'); print(m.hexdigest()[:20], m2.hexdigest()[:20], m.name, m.digest_size, m.block_size)
print(hmac.digest(b'key', b'msg', 'sha256').hex(), hmac.compare_digest(b'abc', b'abc'), hmac.compare_digest('abc', 'abd'), hmac.compare_digest(b'a', b'ab'))
print(hmac.new(b'key', b'msg', 'sha3_256').hexdigest(), hmac.new(b'key', b'msg', 'blake2b').hexdigest()[:32])
for bad in [lambda: hashlib.md5('x'), lambda: hashlib.md5(1), lambda: hashlib.new('foo'), lambda: hashlib.pbkdf2_hmac('sha1', b'p', b's', 0), lambda: hashlib.md5().update('s'), lambda: hmac.compare_digest('a', b'a'), lambda: hmac.compare_digest('\xe9', '\xe9'), lambda: hmac.new(b'k', b'm', 'foo').hexdigest(), lambda: hmac.new('k', b'm', 'md5'), lambda: hashlib.new(5)]:
    try: print(bad())
    except Exception as e: print(type(e).__name__, e)
print(type(hashlib.md5()).__name__, type(hashlib.shake_128()).__name__, hashlib.md5().hexdigest())
import random, secrets, uuid
print(uuid.uuid3(uuid.NAMESPACE_DNS, 'python.org'), uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org'))
random.seed('a string seed'); print(random.random())
import _blake2
for kw in [dict(leaf_size=-1), dict(leaf_size=2**32), dict(node_offset=-1), dict(node_offset=2**64), dict(depth=0), dict(node_depth=256), dict(inner_size=65), dict(digest_size=0), dict(key='s'), dict(salt=1), dict(fanout=-1), dict(key=b'k'*65), dict(salt=b's'*17), dict(person=b'p'*17)]:
    try: _blake2.blake2b(**kw); print('ok', kw)
    except Exception as e: print(type(e).__name__, e)
try: _blake2.blake2s(node_offset=2**48)
except Exception as e: print(type(e).__name__, e)
for cls in (_blake2.blake2b, _blake2.blake2s):
    full = dict(digest_size=20, key=b'k', salt=b's', person=b'p', fanout=2, depth=3, leaf_size=5, node_offset=7, node_depth=1, inner_size=9, last_node=True)
    print(cls(b'abc', **full).hexdigest(), cls(key=b'key').hexdigest()[:16], cls.SALT_SIZE, cls.PERSON_SIZE, cls.MAX_KEY_SIZE, cls.MAX_DIGEST_SIZE)
    for n in (0, 1, 63, 64, 65, 127, 128, 129, 300):   # block boundaries, keyed and not
        data = bytes(range(256)) * 2
        h = cls(data[:n], key=b'secret')
        h2 = cls(key=b'secret'); h2.update(data[:n // 2]); h2.update(data[n // 2:n])
        print(n, h.hexdigest()[:24], h2.digest() == h.digest(), h.copy().digest() == h.digest(), h.name, h.digest_size, h.block_size)
print(hashlib.blake2b(b'x' * 1000000, digest_size=16).hexdigest(), hashlib.blake2s(b'').hexdigest())
