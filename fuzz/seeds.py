#!/usr/bin/env python3
"""seeds.py - writes the hand-made seeds of fuzz/corpus (seed-prog-*,
seed-snap-*, seed-crowd-*): inputs that reach programs, steps, snapshots
and crowds from the start. Each is assembled with the encoding that
fuzz/fuzz_core.c decodes (a world definition, then operations); the
generator follows just enough of the harness's state (agents, removed
ids, paths, programs) to know which bytes each operation reads.

    python3 fuzz/seeds.py [DIR]      (DIR defaults to fuzz/corpus)

The seed-raw-* inputs start from a real snapshot of a fuzzed world, which
the harness writes when FUZZ_DUMP_SNAPSHOTS=dir is set:

    FUZZ_DUMP_SNAPSHOTS=/tmp/snaps build/fuzz/fuzz_core fuzz/corpus/seed-prog-torus
    python3 fuzz/seeds.py --raw /tmp/snaps/snap-... [DIR]
"""
import os
import struct
import sys

SPECIALS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e-5, -1e-5, 1.00001e-5, 9.9999e-6,
            1e-4, 1e-300, -1e-300, 5e-324, 1e-150, 1e150, -1e150, 1e149, 3.0,
            9007199254740992.0, 1e75, 1e-75, 0.01, 100.0]

SEEK, FLEE, ARRIVE, PURSUE, EVADE, WANDER, AVOID_OBSTACLES, AVOID_WALLS, \
    FOLLOW, SEPARATION, ALIGNMENT, COHESION = range(12)
WEIGHTED, PRIORITY, PRIORITIZED_SUM, DITHER = range(4)


def num(x):
    """num(): the shortest encoding of x."""
    x = float(x)
    for k, s in enumerate(SPECIALS):
        if struct.pack('<d', s) == struct.pack('<d', float(x)):
            return bytes([0, k])
    if x.is_integer() and -128 <= x <= 127:
        return bytes([2, int(x) & 255])
    if (x * 64).is_integer() and -32768 <= x * 64 <= 32767:
        return bytes([1]) + struct.pack('<h', int(x * 64))
    return bytes([3]) + struct.pack('<d', x)


def u8(v):
    return bytes([v & 255])


def u16(v):
    return struct.pack('<H', v)


def u32(v):
    return struct.pack('<I', v)


def u64(v):
    return struct.pack('<Q', v)


class Seed:
    """An input under construction, with the harness state it implies."""

    def __init__(self, mode, width=0, height=0, cell=None, seed=1,
                 world_odds=None, global_odds=None, capacity=None,
                 alloc_seed=12345):
        kind = mode  # 0 free, 1 torus, 2 box
        if cell is not None:
            kind |= 4
        if world_odds is not None:
            kind |= 8
        if global_odds is not None:
            kind |= 16
        if capacity is not None:
            kind |= 32
        while kind % 3 != mode:  # the flags must not change the mode
            kind += 64
        self.b = bytearray(u8(kind))
        if cell is not None:
            self.b += num(cell)
        if mode:
            self.b += num(width) + num(height)
        self.b += u32(seed)
        if world_odds is not None:
            self.b += u32(alloc_seed) + u8(world_odds - 2)
        if global_odds is not None:
            self.b += u32(alloc_seed + 1) + u8(global_odds - 2)
        if capacity is not None:
            self.b += u8(capacity)
        self.n = 0          # live agents (the harness's mirror order)
        self.ndead = 0
        self.paths = [False] * 4
        self.progs = [None] * 4   # entry count of each program slot
        self.agent_prog = []      # entry count of each agent's program

    def op(self, code):
        self.b += u8(code)

    def add(self, x, y, vx=0, vy=0, max_speed=None, max_force=None):
        mask = 15 | (16 if max_speed is not None else 0) | \
            (32 if max_force is not None else 0)
        self.op(0)
        self.b += u8(mask) + num(x) + num(y) + num(vx) + num(vy)
        if max_speed is not None:
            self.b += num(max_speed)
        if max_force is not None:
            self.b += num(max_force)
        self.n += 1
        self.agent_prog.append(None)

    def add_many(self, agents, slot=None, ids=True, huge=False):
        """steer_world_add_many of agents [(x, y, vx, vy)], all given
        program slot (None: none); huge: a count no world can hold."""
        self.op(1)
        self.b += u8(0) + (u8(0xFE) + u8(0) if huge else u8(len(agents)))
        self.b += u8(4 if slot is None else slot)
        for x, y, vx, vy in (agents if not huge else [(0, 0, 0, 0)] * 48):
            self.b += u8(15) + num(x) + num(y) + num(vx) + num(vy)
        self.b += u8(1 if ids else 0)
        if not huge:
            self.n += len(agents)
            self.agent_prog += [None if slot is None else self.progs[slot]] * \
                len(agents)

    def remove(self, k):
        """Removes mirror agent k (the last one takes its place)."""
        self.op(2)
        self.b += u8(1) + u8(k)
        if self.ndead >= 8:
            self.b += u8(0)
        self.agent_prog[k] = self.agent_prog[-1]
        self.agent_prog.pop()
        self.n -= 1
        self.ndead = min(self.ndead + 1, 8)

    def set_field(self, i, field, value):
        self.op(3)
        self.b += u8(i) + u8(field) + num(value)

    def avoid_walls(self, i, feeler):
        self.op(6)
        self.b += u8(i) + u8(7) + num(feeler)

    def flat(self, who, case, payload=b''):
        """A flat.c call (case 0 seek ... 9 set) on ('live', k), ('dead', k)
        or ('id', n); payload: the bytes of its arguments."""
        self.op(9)
        self.b += u8(0)
        if who[0] == 'live':
            self.b += u8(1) + u8(who[1])
        elif who[0] == 'dead':
            self.b += u8(4) + u8(who[1])
        else:
            self.b += u8(0) + u64(who[1])
        self.b += u8(case) + payload

    def obstacle(self, x, y, r):
        self.op(7)
        self.b += u8(0) + num(x) + num(y) + num(r)

    def wall(self, x1, y1, x2, y2):
        self.op(7)
        self.b += u8(1) + num(x1) + num(y1) + num(x2) + num(y2)

    def path(self, slot, points, loop=False):
        self.op(8)
        self.b += u8(len(points) - 1)
        for x, y in points:
            self.b += num(x) + num(y)
        self.b += u8(1 if loop else 0) + u8(slot)
        self.paths[slot] = True

    # targets: ('none',), ('point', x, y), ('agent', k) live mirror agent k,
    # ('dead', k), ('self',), ('id', n), ('path', slot)
    def target(self, t, self_ok=False):
        kind = t[0]
        if kind == 'none':
            return u8(0)
        if kind == 'point':
            out = u8(1)
            if self.n:
                out += u8(0)  # not an agent's position
            return out + num(t[1]) + num(t[2])
        if kind == 'path':
            assert self.paths[t[1]]
            return u8(3) + u8(t[1])
        out = u8(2)
        if kind == 'agent':
            assert t[1] < self.n
            return out + u8(0) + u8(t[1])
        if kind == 'dead':
            assert self.ndead
            return out + u8(2) + u8(t[1])
        if kind == 'self':
            assert self_ok
            return out + u8(3)
        return out + u8(4) + u64(t[1])

    def entry(self, behavior, target=('none',), weight=None, probability=None,
              radius=None, feeler=None, slowing=None, arrival=None,
              panic=None, hysteresis=None, tag=b''):
        out = u8(behavior) + self.target(target)
        params = [weight, probability, radius, feeler, slowing, arrival, panic,
                  hysteresis]
        mask = sum(1 << k for k, p in enumerate(params) if p is not None)
        out += u8(mask)
        for k, p in enumerate(params):
            if p is None:
                continue
            if k == 1:  # probability: one of 0, .25, .5, 1, 1e-300
                out += u8([0, 0.25, 0.5, 1, 1e-300].index(p))
            else:
                out += num(p)
        return out + u8(len(tag)) + tag

    def program(self, slot, combine, entries, smoothing=None, hold=None):
        self.op(10)
        self.b += u8(combine)
        if smoothing is None:
            self.b += u8(0)
        else:
            self.b += u8(2) + u8(round(smoothing * 255))
        self.b += (u8(1) + num(hold)) if hold is not None else u8(0)
        self.b += u8(len(entries))
        for e in entries:
            self.b += e
        self.b += u8(slot)
        self.progs[slot] = len(entries)

    def set_program(self, i, slot):
        """Agent at dense index i (= mirror index while no snapshot or step
        reordered them) gets program slot (None clears)."""
        self.op(11)
        self.b += u8(i) + u8(4 if slot is None else slot)
        self.agent_prog[i] = None if slot is None else self.progs[slot]

    def set_target(self, i, k, t):
        self.op(12)
        self.b += u8(i) + u8(0) + u8(k) + self.target(t, self_ok=True)

    def set_weight(self, i, k, w):
        self.op(12)
        self.b += u8(i) + u8(1) + u8(k)
        if self.agent_prog[i] is not None and k < self.agent_prog[i]:
            self.b += u8(0)  # not "the same weight"
        self.b += num(w)

    def steering(self, i, dt=None):
        self.op(13)
        self.b += u8(i) + ((u8(1) + num(dt)) if dt is not None else u8(0))

    def step(self, dt, twin=True):
        self.op(14)
        self.b += num(dt) + u8(1 if twin else 0)

    def snapshot_continue(self, steps, dt):
        self.op(15)
        self.b += u8(0) + u8(steps - 1) + num(dt)

    def snapshot_damaged(self, mutations, dt=0.5, odds=None):
        """mutations: list of raw mutation byte strings (see mutate())."""
        self.op(15)
        self.b += u8(1) + u8(len(mutations) - 1)
        for m in mutations:
            self.b += m
        self.b += u32(99) + (u8(1) + u8(odds - 2) if odds else u8(0)) + num(dt)

    def snapshot_cut(self, at):
        self.op(15)
        self.b += u8(2) + u16(at)

    def snapshot_low_memory(self, odds):
        self.op(15)
        self.b += u8(3) + u32(4242) + u8(odds - 2)

    def crowd(self, want=0, spread=0, speed=4, rules=((SEPARATION, 200, 4),
              (ALIGNMENT, 255, 3), (COHESION, 255, 3)), wide=False,
              force=2, steps=1, dt=1, twin=True, x0=0, y0=0, free=False):
        self.b += u8(0xFF) + u32(2024) + u8(want) + u8(spread)
        if free:
            self.b += num(x0) + num(y0)
        self.b += u8(speed) + u8(len(rules) - 1) + u8(0 if wide else 1)
        for k, (rule, radius, weight) in enumerate(rules):
            self.b += u8((rule - SEPARATION - k) % 3) + u8(radius) + u8(weight)
        self.b += u8(force) + u8(0 if steps == 2 else 1) + u8(int(dt * 4) - 1)
        self.b += u8(1 if twin else 0)

    def bytes(self):
        return bytes(self.b)


def mut_u32(off, k):
    return u16(off) + u8(0) + u8(2) + u8(k)


def mut_word(off, k):
    return u16(off) + u8(0) + u8(1) + u8(k)


def mut_double(off, k):
    return u16(off) + u8(0) + u8(3) + u8(k)


def crowd_of_programs(s):
    """A few agents, every behavior in two programs, obstacles, walls and a
    path: what most seeds start from."""
    for x, y, vx, vy in [(5, 5, 1, 0), (8, 6, 0, 1), (12, 12, -1, -1),
                         (6, 9, 0.5, 0.5), (20, 3, 0, 0), (7, 7, 2, -1)]:
        s.add(x, y, vx, vy)
    s.obstacle(10, 10, 2)
    s.wall(0, 15, 30, 15)
    s.path(0, [(2, 2), (18, 2), (18, 18), (2, 18)], loop=True)
    s.path(1, [(1, 1), (9, 3), (4, 12)])
    s.remove(4)  # a removed id to aim at
    s.add(25, 25, -1, 0)
    s.add(10, 13, 0, 1)  # its feeler crosses the wall
    s.avoid_walls(6, 3)
    s.program(0, WEIGHTED, [
        s.entry(SEEK, ('point', 15, 15), weight=1.5, tag=b'chase'),
        s.entry(FLEE, ('agent', 1), panic=4),
        s.entry(ARRIVE, ('agent', 2), slowing=3),
        s.entry(PURSUE, ('agent', 3)),
        s.entry(EVADE, ('dead', 0), weight=-0.5),
        s.entry(FOLLOW, ('path', 0), arrival=1, slowing=2)])
    s.program(1, PRIORITY, [
        s.entry(AVOID_OBSTACLES, feeler=4, hysteresis=1),
        s.entry(AVOID_WALLS, feeler=3, hysteresis=0.5),
        s.entry(SEPARATION, radius=2, weight=2),
        s.entry(ALIGNMENT, radius=3),
        s.entry(COHESION, radius=4),
        s.entry(WANDER)], hold=0.5)


def nomem(alloc_seed, world_odds=12, global_odds=20):
    """Programs, retargets, steps and snapshots under failing allocators."""
    s = Seed(1, 40, 40, cell=5, seed=9, world_odds=world_odds,
             global_odds=global_odds, alloc_seed=alloc_seed)
    crowd_of_programs(s)
    for i in range(6):
        s.set_program(i, i % 2)
    s.set_target(0, 0, ('agent', 1))
    s.set_weight(1, 0, 2)
    s.step(0.1)
    s.snapshot_cut(50)
    s.snapshot_low_memory(4)
    for i in range(6):
        s.add(3 * i, 30, 1, 0)
        s.set_program(6 + i, i % 2)
        s.set_target(6 + i, 1, ('path', 0))
    s.step(0.1)
    return s.bytes()


# (allocator seed, world odds, process-wide odds) under which set_program,
# set_target, set_weight, step and snapshot meet an ENOMEM (the first: all)
NOMEM_SEEDS = [(25, 6, 8), (1, 6, 8), (2, 12, 20)]


def shared_points():
    """Two programs and an agent's own entry aim at one shared point (made
    by op_turn's case 4, which keeps it in the harness's slot 0), then a
    snapshot continues while the point moves in both worlds. Written byte
    by byte: op_turn, program entries and snapshot_continues read more than
    the helpers above write."""
    s = Seed(2, 40, 40, cell=5, seed=7)
    s.add(2, 3, max_speed=2, max_force=4)
    s.add(20, 30, max_speed=3, max_force=4)
    s.add(35, 5, max_speed=1.5, max_force=4)

    def turn_point(i, reuse, k):  # op_turn, case 4
        s.op(9)
        s.b += u8(2) + u8(i) + num(0.1) + u8(4) + u8(0)  # which, i, dt, case, slot
        s.b += u8(1) if reuse else num(30) + num(10)
        s.b += u8(k) + num(30) + num(10)

    def shared_entry(behavior):  # target kind 4, slot 0; no parameters
        return u8(behavior) + u8(4) + u8(0) + u8(0) + u8(0) + u8(0) + u8(0) + u8(0)

    turn_point(0, False, 0)  # no program yet: the point is only kept
    for slot, entries in ((0, [SEEK, ARRIVE]), (1, [FLEE])):
        s.op(10)
        s.b += u8(WEIGHTED) + u8(0) + u8(0) + u8(len(entries))
        for b in entries:
            s.b += shared_entry(b)
        s.b += u8(0) + u8(slot)  # no orca, the slot
    for i, slot in ((0, 0), (1, 0), (2, 1)):
        s.op(11)
        s.b += u8(i) + u8(slot)
    turn_point(2, True, 0)  # agent 2's own copy of program 1, same point
    s.op(15)  # snapshot_continues: 3 steps, the point moved before each
    s.b += u8(0) + u8(1) + u8(2) + num(0.1)
    for k in range(3):
        if k == 1:
            s.b += u8(0)  # the same threads
        s.b += u8(1) + u8(0) + num(5 + k) + num(7)
    s.step(0.1)
    return s.bytes()


def seeds():
    out = {}
    out['seed-snap-shared-points'] = shared_points()

    s = Seed(1, 40, 40, cell=5, seed=7)
    crowd_of_programs(s)
    for i in range(4):
        s.set_program(i, i % 2)
    for i in range(4):
        s.steering(i, 0.1)
    s.set_target(0, 0, ('agent', 5))   # shared: copy on write
    s.set_weight(1, 2, 3)
    s.set_target(2, 5, ('path', 1))
    s.step(0.1)
    s.step(0.25)
    s.remove(5)  # a free slot in the snapshots
    s.snapshot_continue(2, 0.1)
    out['seed-prog-torus'] = s.bytes()

    s = Seed(2, 30, 20, cell=2, seed=3)
    crowd_of_programs(s)
    s.program(2, PRIORITIZED_SUM, [
        s.entry(SEPARATION, radius=1.5, weight=2),
        s.entry(SEEK, ('path', 1)),
        s.entry(ARRIVE, ('point', 3, 3), weight=0.5),
        s.entry(COHESION, radius=3)], smoothing=0.3)
    s.program(3, DITHER, [
        s.entry(WANDER, probability=0.5),
        s.entry(FLEE, ('agent', 0), probability=0.25),
        s.entry(SEEK, ('point', 10, 10))])
    for i in range(6):
        s.set_program(i, i % 4)
    s.step(0.5)
    s.steering(3)
    s.set_target(4, 0, ('self',))
    s.set_target(5, 1, ('id', 12345))
    s.step(0.5, twin=False)
    s.snapshot_damaged([mut_u32(60, 7)])
    s.snapshot_cut(100)
    s.step(1)
    out['seed-prog-box'] = s.bytes()

    s = Seed(0, seed=11, cell=3)
    crowd_of_programs(s)
    s.program(2, WEIGHTED, [s.entry(SEPARATION, radius=1),
                            s.entry(ALIGNMENT, radius=2),
                            s.entry(COHESION, radius=2)])
    for i in range(6):
        s.set_program(i, 2 if i < 4 else 0)
    s.program(2, PRIORITY, [s.entry(SEEK, ('point', 0, 0))])  # slot reused
    s.set_weight(0, 0, 0.25)  # program now held by agents only
    s.set_target(1, 0, ('path', 0))  # a path: the program needs state now
    s.steering(0)
    s.step(0.2)
    s.snapshot_low_memory(3)
    # the LuaJIT FFI entry points, by live, removed and made-up ids
    s.flat(('live', 0), 0, num(3) + num(4))                   # seek
    s.flat(('live', 1), 1, num(3) + num(4) + num(10))         # flee
    s.flat(('live', 2), 3, u8(1) + u8(3) + u8(1))             # evade agent 3
    s.flat(('live', 3), 5, u8(1) + num(4))                    # alignment
    s.flat(('live', 4), 8, u8(12))                            # heading
    s.flat(('live', 5), 9, u8(5) + num(2))                    # max_force
    s.flat(('dead', 0), 0, num(1) + num(1))
    s.flat(('id', 1 << 40), 8, u8(0))
    s.flat(('live', 0), 7, num(1) + num(0) + num(0.5))        # apply
    out['seed-prog-free'] = s.bytes()

    # a local program on a dense torus: steps stream (the twin buffers)
    s = Seed(1, 50, 50, cell=5, seed=5)
    for k in range(12):
        s.add(10 + (3 * k) % 11, 10 + (5 * k) % 9, (k % 3) - 1, (k % 5) - 2)
    s.program(0, WEIGHTED, [s.entry(SEPARATION, radius=2, weight=1.5),
                            s.entry(ALIGNMENT, radius=4),
                            s.entry(COHESION, radius=5)])
    s.program(1, WEIGHTED, [s.entry(SEPARATION, radius=2),
                            s.entry(SEPARATION, radius=3)], smoothing=0.5)
    for i in range(12):
        s.set_program(i, 0 if i % 3 else 1)
    for _ in range(3):
        s.step(0.25)
    s.snapshot_continue(3, 0.25)
    out['seed-prog-stream'] = s.bytes()

    # many agents at once, with a program, with and without their ids
    s = Seed(2, 60, 40, cell=4, seed=31)
    s.add_many([(1, 1, 0, 0)], ids=False)
    s.program(0, WEIGHTED, [s.entry(SEPARATION, radius=3),
                            s.entry(SEEK, ('point', 30, 20))])
    s.program(1, PRIORITY, [s.entry(AVOID_WALLS, feeler=2),
                            s.entry(WANDER)], smoothing=0.5)
    s.add_many([(5 + 3 * k, 10 + k, 1, 0) for k in range(10)], slot=0)
    s.add_many([(40 - 2 * k, 30, 0, -1) for k in range(8)], slot=1, ids=False)
    s.add_many([], huge=True)
    s.remove(3)
    s.add_many([(20, 20, 0, 0), (20, 20, 0, 0)], slot=0)  # twins, reused slot
    s.step(0.5)
    s.step(0.5)
    out['seed-prog-many'] = s.bytes()

    # agent targets across the rows of a dense torus: these steps must not
    # stream (a row would read targets that already moved), the twin agrees;
    # priority's hold and smoothing followed through steering calls
    s = Seed(1, 50, 50, cell=5, seed=29)
    for k in range(10):
        s.add(4 + 9 * (k % 5), 2 + 5 * k, 1, 0.5)
    s.add(30, 30, 0, 0)
    s.program(0, WEIGHTED, [s.entry(SEPARATION, radius=2),
                            s.entry(SEEK, ('point', 25, 25))])
    s.program(1, PRIORITY, [s.entry(AVOID_OBSTACLES, feeler=3),
                            s.entry(SEEK, ('point', 25, 25))], hold=1)
    s.program(2, WEIGHTED, [s.entry(SEEK, ('point', 5, 45)),
                            s.entry(FLEE, ('point', 20, 40))], smoothing=0.25)
    for i in range(10):
        s.set_program(i, 0 if i < 8 else 2)
    s.set_program(10, 1)
    s.steering(10, 0.5)                   # seek wins
    s.set_target(10, 1, ('point', 30, 30))  # silent now: the force is held
    for _ in range(3):
        s.steering(10, 0.5)
    for x in (10, 20, 30):
        s.steering(9)
        s.set_field(9, 0, x)  # a new raw force for the next smoothing
    # agent 1 is in the second row, which a streamed step moves as soon as
    # the third row has its forces: later rows would see it moved
    for i in range(2, 8):
        s.set_target(i, 1, ('point', 20, 20))  # a copy of its own...
        s.set_target(i, 1, ('agent', 1))       # ...changed in place
    s.step(0.5)
    s.step(0.5, twin=False)
    s.step(0.5)
    out['seed-prog-targets'] = s.bytes()

    # failing allocators: every ENOMEM must leave the world as it was
    for k, args in enumerate(NOMEM_SEEDS):
        out['seed-prog-nomem-%d' % k] = nomem(*args)

    # snapshots damaged in the places restore checks
    s = Seed(1, 40, 40, cell=5, seed=13)
    crowd_of_programs(s)
    for i in range(6):
        s.set_program(i, i % 2)
    s.step(0.1)
    for muts in ([mut_double(12, 4)], [mut_word(44, 6)], [mut_u32(52, 0)],
                 [mut_double(24, 0)], [mut_u32(40, 2), mut_word(60, 1)]):
        s.snapshot_damaged(muts)
    out['seed-snap-damaged'] = s.bytes()

    # crowds big enough for two threads: dense torus (streamed), a box with
    # agent targets (buffered), a free world (hashed grid)
    s = Seed(1, 400, 400, cell=5, seed=17)
    s.add(1, 1)
    s.crowd(steps=2)
    out['seed-crowd-torus'] = s.bytes()
    s = Seed(2, 300, 300, cell=4, seed=19)
    crowd_of_programs(s)
    s.crowd(spread=32, twin=True)
    out['seed-crowd-box'] = s.bytes()
    s = Seed(0, cell=2, seed=23)
    s.add(0, 0)
    s.crowd(free=True, x0=100, y0=-50, wide=True)
    out['seed-crowd-free'] = s.bytes()
    return out


# ---- raw snapshot seeds ------------------------------------------------------

class Snapshot:
    """Offsets of the fields of a version 1 snapshot (docs/SNAPSHOT.md)."""

    def __init__(self, data):
        self.d = bytearray(data)
        self.at = 8 + 4
        self.f = {}  # field name -> offset (first occurrence)
        self.f64('cell'), self.u32('seed'), self.f64('width')
        self.f64('height'), self.u32('wrap')
        slots = self.u64('slots')
        free = self.u32('free')
        for k in range(slots):
            self.u32('free.next' if k == free else 'slot.index')
            self.u32('slot.gen')
        self.paths = self.u64('paths')
        for _ in range(self.paths):
            points = self.u64('path.points')
            self.u32('path.loop')
            self.at += 16 * points
        self.kinds = []  # the target kinds of each program's entries
        for _ in range(self.u64('programs')):
            self.u32('program.combine'), self.f64('program.smoothing')
            self.f64('program.hold')
            kinds = []
            for _ in range(self.u64('program.entries')):
                self.u32('entry.behavior')
                kinds.append(self.u32('entry.kind'))
                self.at += 16 + 8
                self.u64('entry.path' if kinds[-1] == 3 else 'entry.nopath')
                self.at += 8 * 8 + 32
            self.kinds.append(kinds)
        for _ in range(self.u64('agents')):
            self.f64('agent.x'), self.f64('agent.y')
            self.at += 5 * 8
            self.u32('agent.slot')
            program = self.u64('agent.program')
            key = 'agent.has_ext' if program else 'agent.has_ext.free'
            if not self.u32(key):
                continue
            self.at += 4 * 8 + 4
            follows = self.u64('agent.follow_path')
            self.u64('agent.follow_waypoint' + ('.path' if follows else ''))
            if not self.u32('agent.has_state'):
                continue
            self.at += 4 + 16
            self.u64('state.held')
            self.at += 24
            self.u64('state.winner')
            for kind in self.kinds[program - 1]:
                self.u64('state.waypoint' + ('.path' if kind == 3 else ''))
                self.u32('state.active')
        self.u64('obstacles')

    def _take(self, name, size, fmt):
        self.f.setdefault(name, self.at)
        v = struct.unpack_from(fmt, self.d, self.at)[0]
        self.at += size
        return v

    def u32(self, name):
        return self._take(name, 4, '<I')

    def u64(self, name):
        return self._take(name, 8, '<Q')

    def f64(self, name):
        return self._take(name, 8, '<d')

    def variant(self, name, fmt, value):
        """A copy with field `name` set; its eighth byte 'X' makes the
        harness recompute the checksum (restore_raw)."""
        d = bytearray(self.d)
        struct.pack_into(fmt, d, self.f[name], value)
        d[7] = ord('X')
        return bytes(d)


def raw_seeds(snapshot):
    """Damaged copies of a snapshot, one per check of restore's deep
    validation that random mutations rarely reach."""
    s = Snapshot(snapshot)
    out = {}
    plan = [('behavior', 'entry.behavior', '<I', 12),
            ('kind', 'entry.kind', '<I', 4),
            ('path-0', 'entry.path', '<Q', 0),
            ('path-past', 'entry.path', '<Q', s.paths + 1),
            ('combine', 'program.combine', '<I', 4),
            ('smoothing', 'program.smoothing', '<d', 1.5),
            ('hold', 'program.hold', '<d', -1.0),
            ('program-past', 'agent.program', '<Q', len(s.kinds) + 1),
            ('no-ext', 'agent.has_ext', '<I', 0),
            ('follow-past', 'agent.follow_waypoint', '<Q', 99),
            ('follow-path-past', 'agent.follow_waypoint.path', '<Q', 99),
            ('no-state', 'agent.has_state', '<I', 0),
            ('held', 'state.held', '<q', 99),
            ('winner', 'state.winner', '<q', -2),
            ('waypoint', 'state.waypoint', '<Q', 1 << 40),
            ('waypoint-path', 'state.waypoint.path', '<Q', 4),
            ('outside', 'agent.x', '<d', -1.0),
            ('nan', 'agent.x', '<Q', 0x7FF8000000000000),
            ('slot-past', 'agent.slot', '<I', 1 << 20),
            ('free-live', 'free', '<I', 0),
            ('free-next-past', 'free.next', '<I', 1 << 20),
            ('gen', 'slot.gen', '<I', 1 << 27),
            ('wrap', 'wrap', '<I', 7),
            ('cell', 'cell', '<d', 0.0)]
    for tag, field, fmt, value in plan:
        if field in s.f:
            out['seed-raw-' + tag] = s.variant(field, fmt, value)
    return out


def main():
    args = sys.argv[1:]
    snapshot = None
    if args[:1] == ['--raw']:  # --raw SNAPSHOT: damaged copies of it
        snapshot = open(args[1], 'rb').read()
        args = args[2:]
    where = args[0] if args else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), 'corpus')
    made = raw_seeds(snapshot) if snapshot else seeds()
    for name, data in made.items():
        with open(os.path.join(where, name), 'wb') as f:
            f.write(data)
        print(name, len(data))


if __name__ == '__main__':
    main()
