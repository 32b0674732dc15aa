#!/usr/bin/env python3
"""The wall time of a tier solve shared out by `solve --mpi` (docs/distributed.md), predicted by
simulating its manager: M machines of C cores, a tier handed to an idle machine once every tier it
reads is solved, the ready tiers in the order they are listed, each tier solved by one machine at
a per-core rate measured on this project's machine (BENCHMARKS.md):

  one-pass tiers (no moves inside the tier, solved in one pass over their children): the time per
  index is A + B * children, fitted to Nine Men's Morris's placement phase (2.37 M indices/s a
  core with about 15 children an index);
  loopy tiers (retrograde rounds inside the tier): 0.97 M indices/s a core (Morris's moving phase).

Usage: bench/distributed_model.py [path to reference/quarto-canonical-tiers.tsv]
       bench/distributed_model.py --fuchsundhenne TSV  (TSV from `cargo run --release -p
       perfectplay-games --example fuchsundhenne_tiers -- --tsv 20`: the 20-hen family, its tiers
       that outgrow a machine shared over all of them in parts) [SHARE_ABOVE ...]
"""

import heapq
import math
import sys

A, B = 100e-9, 21.5e-9  # seconds a core, per index and per child (100 + 21.5 * 15 = 422 ns)
LOOPY = 1 / 0.97e6  # seconds a core per index of a loopy tier


def simulate(tiers, machines, cores):
    """tiers: list of (name, seconds on one core, [names it reads]) with every tier after those it
    reads. Returns (wall seconds, busy share, critical path seconds)."""
    index = {t[0]: i for i, t in enumerate(tiers)}
    readers = [[] for _ in tiers]
    missing = [0] * len(tiers)
    for i, (_, _, reads) in enumerate(tiers):
        for r in reads:
            readers[index[r]].append(i)
            missing[i] += 1
    # Critical path (each tier on one machine of `cores` cores).
    finish = [0.0] * len(tiers)
    for i, (_, secs, reads) in enumerate(tiers):
        finish[i] = max((finish[index[r]] for r in reads), default=0.0) + secs / cores
    critical = max(finish)
    ready = [i for i in range(len(tiers)) if missing[i] == 0]
    heapq.heapify(ready)
    running, now, idle, busy = [], 0.0, machines, 0.0
    while ready or running:
        while idle and ready:
            i = heapq.heappop(ready)
            secs = tiers[i][1] / cores
            busy += secs
            heapq.heappush(running, (now + secs, i))
            idle -= 1
        now, i = heapq.heappop(running)
        idle += 1
        for j in readers[i]:
            missing[j] -= 1
            if missing[j] == 0:
                heapq.heappush(ready, j)
    return now, busy / (now * machines), critical


def quarto(path):
    """Quarto's canonical tiers (003 Table 3.2): at level k, tiers of k! arrangements each, every
    one read by the tiers of level k - 1 (a simplification: a tier reads only some of them). Level
    16 is all primitive and is not solved: level 15 computes its children's values."""
    rows = [l.split("\t") for l in open(path) if l[0].isdigit()]
    tiers, previous = [], []
    for row in reversed(rows):
        level, count, size = int(row[0]), int(row[3]), int(row[4])
        if level == 16:
            continue
        children = (16 - level) * (15 - level) if level < 15 else 1
        secs = size * (A + B * children)
        names = [f"{level}/{i}" for i in range(count)]
        tiers += [(n, secs, previous) for n in names]
        # A level's tiers read the next level's through one empty tier (not a tier per pair).
        tiers.append((f"level {level}", 0.0, names))
        previous = [f"level {level}"]
    return tiers


def morabaraba():
    """Morabaraba (24 points, 12 pieces each, the 16 symmetries of the board): placement tiers
    (pieces in hand, white on board, black on board), one-pass, and moving tiers (0, w, b),
    loopy; a tier's size is its arrangements over the symmetries."""
    size = lambda w, b: math.comb(24, w) * math.comb(24 - w, b) / 16
    tiers, names = [], set()
    for w in range(2, 13):  # moving phase, lowest first
        for b in range(2, 13):
            reads = [f"0/{w}/{b - 1}"] if b > 2 else []
            reads += [f"0/{b}/{w - 1}"] if w > 2 else []
            secs = size(w, b) * LOOPY if min(w, b) > 2 else 0.0
            tiers.append((f"0/{w}/{b}", secs, [r for r in reads if r in names]))
            names.add(f"0/{w}/{b}")
    for hand in range(1, 25):  # placement: `hand` pieces left to place, white's turn if even
        placed = 24 - hand
        pw, pb = (placed + 1) // 2, placed // 2
        for w in range(0, pw + 1):
            for b in range(0, pb + 1):
                if w + b > 24:
                    continue
                name = f"{hand}/{w}/{b}"
                reads = [f"{hand - 1}/{w + 1}/{b}", f"{hand - 1}/{w + 1}/{b - 1}"] if hand > 1 else [
                    f"0/{w + 1}/{b}",
                    f"0/{w + 1}/{b - 1}",
                ]
                secs = size(w, b) * (A + B * (24 - w - b))
                tiers.append((name, secs, [r for r in reads if r in names]))
                names.add(name)
    return tiers


# Fuchs und Henne's tiers, measured here (BENCHMARKS.md, "Tiers in parts shared over ranks"):
# a whole tier at 10 hens' 1.60 M indices a second a core; tier (10,40) of 11 hens in 10 parts in
# one process took PARTS times its whole solve (90.9 s against 81.3 s, 4 parts swapped back in;
# (9,33), swapping 163 times in a tighter budget, took 1.31 times); shared over 3 worker ranks it
# took SHARED times the one process's CPU (237.9 s against 187.1 s: every rank reads the child
# tiers, and trades 1.42 bytes of mail an index). A tier shared over the machines also has its
# values gathered to the first (a byte an index, through one network link) and its child tiers read
# by every machine (CHILD_BYTES an index of the tier, as held in (10,40)'s solve).
FUH = 1 / 1.60e6  # seconds a core per index of a whole tier
PARTS = 1.12
SHARED = 1.27
BYTES_WHOLE = 5.125  # bytes an index of a tier solved whole (the solve driver's estimate)
CHILD_BYTES = 0.23  # bytes of child tiers read per index of the tier
NETWORK = 1.25e9  # bytes a second into one machine (10 Gb/s)
FILES = 10e9  # bytes a second the shared file system serves in all


def fuchsundhenne(path, memory, share_above):
    """Fuchs und Henne's tiers as `fuchsundhenne_tiers --tsv` lists them: (name, seconds on one
    core, tiers it reads, whether it is shared over every machine, its seconds that do not shrink
    with the machines, as a function of their number). A tier is shared when it does not fit
    `memory` bytes whole or has at least `share_above` indices, as `solve --mpi --memory-limit
    --share-above` decides."""
    rows = [l.rstrip("\n").split("\t") for l in open(path)][1:]
    names = {r[0] for r in rows}
    tiers = []
    for name, size, children in rows:
        n = int(size)
        reads = [c for c in children.split() if c in names]
        shared = n * BYTES_WHOLE > memory or n >= share_above
        secs = n * FUH * (PARTS * SHARED if shared else 1.0)
        serial = (lambda m, n=n: n / NETWORK + m * n * CHILD_BYTES / FILES) if shared else None
        tiers.append((name, secs, reads, shared, serial))
    return tiers


def simulate_shared(tiers, machines, cores):
    """As `simulate`, with `solve --mpi`'s tiers in parts: when the lowest ready tier is shared,
    the manager waits for the running tiers, then the tier runs on every machine, its work split
    evenly, plus its serial seconds. Returns (wall seconds, busy share, seconds in shared tiers)."""
    index = {t[0]: i for i, t in enumerate(tiers)}
    readers = [[] for _ in tiers]
    missing = [0] * len(tiers)
    for i, t in enumerate(tiers):
        for r in t[2]:
            readers[index[r]].append(i)
            missing[i] += 1
    ready = [i for i in range(len(tiers)) if missing[i] == 0]
    heapq.heapify(ready)
    running, now, idle, busy, in_shared = [], 0.0, machines, 0.0, 0.0

    def finished(i):
        for j in readers[i]:
            missing[j] -= 1
            if missing[j] == 0:
                heapq.heappush(ready, j)

    while ready or running:
        while idle and ready:
            i = ready[0]
            _, secs, _, shared, serial = tiers[i]
            if shared:
                if running:
                    break
                heapq.heappop(ready)
                took = secs / (machines * cores) + serial(machines)
                now += took
                in_shared += took
                busy += secs / cores
                finished(i)
                continue
            heapq.heappop(ready)
            busy += secs / cores
            heapq.heappush(running, (now + secs / cores, i))
            idle -= 1
        if not running:
            continue
        now, i = heapq.heappop(running)
        idle += 1
        finished(i)
    return now, busy / (now * machines), in_shared


def report_shared(name, tiers):
    total = sum(t[1] for t in tiers)
    shared = [t for t in tiers if t[3]]
    print(f"{name}: {len(tiers)} tiers, {total / 3600:.0f} core-hours, {len(shared)} tiers shared "
          f"over the machines ({sum(t[1] for t in shared) / total:.0%} of the work)")
    table(tiers, simulate_shared, "in shared tiers")


def table(tiers, simulation, last):
    """The simulation's wall, busy share and `last` (its third result) on 1 to 128 machines."""
    print(f"| machines (16 cores) | wall | busy share | {last} |")
    print("| --- | --- | --- | --- |")
    for m in (1, 8, 32, 128):
        wall, share, third = simulation(tiers, m, 16)
        print(f"| {m} | {wall / 3600:.2f} h | {100 * share:.0f}% | {third / 3600:.2f} h |")


def report(name, tiers):
    total = sum(t[1] for t in tiers)
    largest = max(tiers, key=lambda t: t[1])
    print(f"{name}: {sum(t[1] > 0 for t in tiers)} tiers, {total / 3600:.0f} core-hours, largest tier {largest[0]} "
          f"{largest[1] / 3600:.1f} core-hours")
    table(tiers, simulate, "critical path")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--fuchsundhenne":
        # Machines of 16 cores and 64 GB under --memory-limit 56GiB: the tiers that do not fit a
        # machine shared, and with each --share-above given, the tiers of that many indices too.
        for above in [None] + [float(a) for a in sys.argv[3:]]:
            name = "Fuchs und Henne" + (f", --share-above {above:.0e}" if above else "")
            report_shared(name, fuchsundhenne(sys.argv[2], 56 * 2**30, above or math.inf))
        sys.exit(0)
    path = sys.argv[1] if len(sys.argv) > 1 else "reference/quarto-canonical-tiers.tsv"
    report("Quarto", quarto(path))
    report("Morabaraba", morabaraba())
