# Richards: an operating-system task scheduler simulation (objects,
# attribute access, method calls, small ints). Written for tmpy after the
# classic benchmark's design: an idle task, a worker, two handlers and two
# devices exchange packets through a priority scheduler.
import sys

IDLE, WORKER, HANDLER_A, HANDLER_B, DEVICE_A, DEVICE_B = range(6)
KIND_DEVICE, KIND_WORK = 0, 1
BUFSIZE = 4


class Packet:
    def __init__(self, link, ident, kind):
        self.link = link
        self.ident = ident
        self.kind = kind
        self.datum = 0
        self.data = [0] * BUFSIZE

    def append_to(self, queue):
        self.link = None
        if queue is None:
            return self
        p = queue
        while p.link is not None:
            p = p.link
        p.link = self
        return queue


class Task:
    def __init__(self, sched, ident, prio, queue, state):
        self.sched = sched
        self.ident = ident
        self.prio = prio
        self.queue = queue
        self.packet_pending = queue is not None
        self.waiting = False
        self.held = False
        self.link = sched.tasks
        sched.tasks = self
        sched.table[ident] = self
        self.state = state

    def runnable(self):
        return not self.held and (self.packet_pending or not self.waiting)

    def add_packet(self, pkt, old):
        if self.queue is None:
            self.queue = pkt
            self.packet_pending = True
            if self.prio > old.prio:
                return self
        else:
            self.queue = pkt.append_to(self.queue)
        return old

    def take_packet(self):
        pkt = self.queue
        self.queue = pkt.link
        self.packet_pending = self.queue is not None
        return pkt


class IdleTask(Task):
    def run(self, pkt):
        s = self.state
        s[1] -= 1
        if s[1] == 0:
            return self.sched.hold_self()
        if s[0] & 1 == 0:
            s[0] >>= 1
            return self.sched.release(DEVICE_A)
        s[0] = (s[0] >> 1) ^ 0xD008
        return self.sched.release(DEVICE_B)


class WorkerTask(Task):
    def run(self, pkt):
        if pkt is None:
            return self.sched.wait()
        s = self.state
        s[0] = HANDLER_B if s[0] == HANDLER_A else HANDLER_A
        pkt.ident = s[0]
        pkt.datum = 0
        for i in range(BUFSIZE):
            s[1] += 1
            if s[1] > 26:
                s[1] = 1
            pkt.data[i] = s[1]
        return self.sched.queue_packet(pkt)


class HandlerTask(Task):
    def run(self, pkt):
        s = self.state
        if pkt is not None:
            if pkt.kind == KIND_WORK:
                s[0] = pkt.append_to(s[0])
            else:
                s[1] = pkt.append_to(s[1])
        work = s[0]
        if work is not None:
            count = work.datum
            if count < BUFSIZE:
                dev = s[1]
                if dev is not None:
                    s[1] = dev.link
                    dev.datum = work.data[count]
                    work.datum = count + 1
                    return self.sched.queue_packet(dev)
            else:
                s[0] = work.link
                return self.sched.queue_packet(work)
        return self.sched.wait()


class DeviceTask(Task):
    def run(self, pkt):
        s = self.state
        if pkt is None:
            pkt = s[0]
            if pkt is None:
                return self.sched.wait()
            s[0] = None
            return self.sched.queue_packet(pkt)
        s[0] = pkt
        return self.sched.hold_self()


class Scheduler:
    def __init__(self):
        self.tasks = None
        self.table = [None] * 6
        self.current = None
        self.queue_count = 0
        self.hold_count = 0

    def hold_self(self):
        self.hold_count += 1
        self.current.held = True
        return self.current.link

    def wait(self):
        self.current.waiting = True
        return self.current

    def release(self, ident):
        t = self.table[ident]
        t.held = False
        if t.prio > self.current.prio:
            return t
        return self.current

    def queue_packet(self, pkt):
        t = self.table[pkt.ident]
        self.queue_count += 1
        pkt.link = None
        pkt.ident = self.current.ident
        return t.add_packet(pkt, self.current)

    def run(self):
        t = self.tasks
        while t is not None:
            if t.held or not (t.packet_pending or not t.waiting):
                t = t.link
                continue
            self.current = t
            pkt = None
            if t.packet_pending and t.waiting:
                pkt = t.take_packet()
                t.waiting = False
            t = t.run(pkt)


def richards(count):
    s = Scheduler()
    IdleTask(s, IDLE, 0, None, [1, count])
    wq = Packet(None, 0, KIND_WORK)
    wq = Packet(wq, 0, KIND_WORK)
    WorkerTask(s, WORKER, 1000, wq, [HANDLER_B, 0])
    wq = Packet(None, DEVICE_A, KIND_DEVICE)
    wq = Packet(wq, DEVICE_A, KIND_DEVICE)
    wq = Packet(wq, DEVICE_A, KIND_DEVICE)
    HandlerTask(s, HANDLER_A, 2000, wq, [None, None])
    wq = Packet(None, DEVICE_B, KIND_DEVICE)
    wq = Packet(wq, DEVICE_B, KIND_DEVICE)
    wq = Packet(wq, DEVICE_B, KIND_DEVICE)
    HandlerTask(s, HANDLER_B, 3000, wq, [None, None])
    DeviceTask(s, DEVICE_A, 4000, None, [None])
    DeviceTask(s, DEVICE_B, 5000, None, [None])
    s.run()
    return s.queue_count, s.hold_count


n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
for _ in range(n):
    q, h = richards(10000)
print(q, h)
