# time.struct_time's fields past the sequence (tm_zone, tm_gmtoff: from a longer sequence or a dict,
# in __reduce__ and pickles), _STRUCT_TM_ITEMS, and time.strptime (over CPython's _strptime).
import pickle
import time

print(time._STRUCT_TM_ITEMS, time.struct_time.n_fields, time.struct_time.n_sequence_fields,
      time.struct_time.n_unnamed_fields)
print(time.struct_time((1,) * 9).tm_zone)
for bad in ((1,) * 8, (1,) * 12, 5):
    try:
        time.struct_time(bad)
    except TypeError as e:
        print(e)
s = time.struct_time((1,) * 9 + ('X', 5))
print(s, len(s), s.tm_zone, s.tm_gmtoff, s.__reduce__())
s = time.struct_time((2,) * 9, {'tm_zone': 'Z'})
print(s.tm_zone, s.tm_gmtoff)
print(pickle.loads(pickle.dumps(s)).tm_zone)
t = time.strptime("2001-02-03 04:05", "%Y-%m-%d %H:%M")
print(t, t.tm_zone, t.tm_gmtoff)
print(time.strptime("Sat Feb  3 04:05:06 2001")[:6])
print(time.gmtime(0).tm_zone, time.gmtime(0).tm_gmtoff, len(time.gmtime(0)))
