# threading objects: names, reprs, properties, Timer, hooks (CPython's behaviour; tmpy's code).
import threading, time
def t(label, f):
    try: print(label, '->', f())
    except Exception as e: print(label, '->', type(e).__name__, e)
def work(): pass
th = threading.Thread(target=work)
t('name', lambda: th.name.split('-')[0] + ' ' + th.name.split(' ', 1)[-1])
t('repr initial', lambda: repr(th).split(',')[1])
th.start(); th.join()
t('repr stopped', lambda: repr(th).split(',')[1].split()[0])
t('daemon set', lambda: setattr(th, 'daemon', True))
t('named', lambda: threading.Thread(name=5).name)
t('lambda name', lambda: threading.Thread(target=lambda: 0).name.endswith('(<lambda>)'))
class NoName:
    def __call__(self): pass
t('noname', lambda: '(' not in threading.Thread(target=NoName()).name)
t('ident none', lambda: threading.Thread().ident)
t('alive', lambda: threading.Thread().is_alive())
class Bad(threading.Thread):
    def __init__(self): pass
t('bad name', lambda: Bad().name)
t('bad daemon set', lambda: setattr(Bad(), 'daemon', 1))
t('bad start', lambda: Bad().start())
out = []
tm = threading.Timer(0.01, out.append, args=[1]); tm.start(); tm.join()
tc = threading.Timer(5, out.append, kwargs={'x': 1}); tc.start(); tc.cancel(); tc.join()
t('timer', lambda: (out, tm.finished.is_set(), tc.finished.is_set(), tm.interval, tc.kwargs, tm.args))
t('timer vars', lambda: [k for k in vars(tm) if not k.startswith('_')])
s = threading.Semaphore(2)
t('sem repr', lambda: repr(s).split(':', 1)[1])
t('bsem repr', lambda: repr(threading.BoundedSemaphore(3)).split(':', 1)[1])
t('bsem over', lambda: threading.BoundedSemaphore(1).release())
t('sem neg', lambda: threading.Semaphore(-1))
e = threading.Event()
t('event repr', lambda: (repr(e).split(': ')[1], e.set(), repr(e).split(': ')[1]))
b = threading.Barrier(3)
t('barrier', lambda: (repr(b).split(': ')[1], b.parties, b.n_waiting, b.broken))
b.abort()
t('barrier broken', lambda: (repr(b).split(': ')[1], b.broken, b.n_waiting))
c = threading.Condition(threading.Lock())
t('cond repr', lambda: repr(c).split(',')[1])
t('cond notify unowned', lambda: c.notify())
with c:
    t('cond owned', lambda: c._is_owned())
t('cond unowned', lambda: c._is_owned())
t('count', lambda: (threading.active_count(), len(threading.enumerate()), threading.current_thread().name, threading.main_thread().name))
threading.settrace(print); threading.setprofile(len)
t('hooks', lambda: (threading.gettrace() is print, threading.getprofile() is len))
threading.settrace(None); threading.setprofile(None)
r = []
th2 = threading.Thread(target=lambda: r.append(threading.current_thread().name), name='W'); th2.start(); th2.join()
t('current in thread', lambda: r)
t('join self', lambda: threading.current_thread().join())
t('join unstarted', lambda: threading.Thread().join())
