# _uuid.generate_time_safe (uuid1, getnode): version-1 UUIDs, RFC 4122 variant, unique and in time order.
import time
import uuid

import _uuid

b, safe = _uuid.generate_time_safe()
print(type(b).__name__, len(b), safe in (0, -1), _uuid.has_uuid_generate_time_safe)
u = uuid.uuid1()
print(u.version, u.variant, u.is_safe in (uuid.SafeUUID.safe, uuid.SafeUUID.unsafe))
print(u.node == uuid.getnode(), 0 < uuid.getnode() < 2 ** 48)
many = [uuid.uuid1() for _ in range(500)]
print(len(set(many)), [x.time for x in many] == sorted(x.time for x in many))
# the timestamp is now (100 ns ticks since 1582-10-15)
print(abs((u.time - 0x01B21DD213814000) / 1e7 - time.time()) < 60)
print(uuid.uuid1(node=0x123456789abc, clock_seq=5).node == 0x123456789abc)
