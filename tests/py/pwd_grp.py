# tmpy's native pwd and grp modules (the user and group databases).
import grp
import os
import pwd

root = pwd.getpwuid(0)
print(type(root).__name__, len(root), root.pw_name, root.pw_uid, root.pw_gid, root[0] == root.pw_name)
print(pwd.getpwnam('root') == root, pwd.getpwnam(root.pw_name).pw_dir == root.pw_dir)
me = pwd.getpwuid(os.getuid())
print(me.pw_uid == os.getuid(), isinstance(me.pw_shell, str))
all_users = pwd.getpwall()
print(root in all_users, all(type(p).__name__ == 'struct_passwd' for p in all_users))
g = grp.getgrgid(0)
print(type(g).__name__, len(g), g.gr_gid, isinstance(g.gr_mem, list), grp.getgrnam(g.gr_name) == g)
print(g in grp.getgrall())
for label, f in [('uid', lambda: pwd.getpwuid(2**31 - 7)), ('name', lambda: pwd.getpwnam('no such user x')),
                 ('gid', lambda: grp.getgrgid(2**31 - 7)), ('group', lambda: grp.getgrnam('no such group x')),
                 ('type', lambda: pwd.getpwnam(0)), ('uid type', lambda: pwd.getpwuid('0'))]:
    try:
        f()
    except (KeyError, TypeError) as e:
        print(label, '->', type(e).__name__, e)
print(os.path.expanduser('~root') == root.pw_dir)
