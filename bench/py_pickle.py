"""pickle.dumps / pickle.loads (protocol 4) of pyperformance's bm_pickle data
shapes (a dict of mixed values, a tuple of ints, a list of lists): CPU
seconds for N of each. Under tmpy these go through the C _pickle
(vm/modules/picklemodule.c).

    python3 bench/py_pickle.py [N]"""
import pickle, time, sys, datetime, random
# pyperformance's bm_pickle data shape
DICT = {'ads_flags': 0, 'age': 18, 'bulletin_count': 0, 'comment_count': 0, 'country': 'BR', 'encrypted_id': 'G9urXXAJwjE',
        'favorite_artists': ['The Beatles', 'Metallica', 'Arctic Monkeys'], 'first_name': '', 'flags': 412317970704,
        'friend_count': 0, 'gender': 'm', 'gender_for_display': 'Male', 'id': 302935349, 'is_custom_profile_icon': 0,
        'last_name': '', 'locale_preference': 'pt_BR', 'member': 0, 'tags': ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
        'profile_foo_id': 827119638, 'secure_encrypted_id': 'Z_xxx2dYx3t4YAdnmfgyKw', 'session_number': 2,
        'signup_id': '201-19225-223', 'status': 'A', 'theme': 1, 'time_created': 1225237014, 'time_updated': 1233134493,
        'unread_message_count': 0, 'user_group': '0', 'username': 'collinwinter', 'play_count': 9, 'view_count': 7,
        'zip': ''}
TUPLE = ([265867233, 265868503, 265252341, 265243910, 265879514, 266219766, 266021701, 265843726, 265592821, 265246784,
          265853180, 45526486, 265463699, 265848143, 265863062, 265392591, 265877490, 265823665, 265828884, 265753032], 60)
LIST = [[list(range(10)), list(range(10))] for _ in range(10)]
N = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
for name, obj in (("dict", DICT), ("tuple", TUPLE), ("list", LIST)):
    t = time.process_time()
    for _ in range(N):
        s = pickle.dumps(obj, 4)
    t1 = time.process_time() - t
    t = time.process_time()
    for _ in range(N):
        pickle.loads(s)
    t2 = time.process_time() - t
    print(f"{name:6s} dumps {t1:.3f}  loads {t2:.3f}")
