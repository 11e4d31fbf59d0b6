#!/usr/bin/env python3
# bench/gen_polysi_like.py — a synthetic GNF problem of PolySI's shape, for
# profiling gsat's loading without PolySI (not part of the product).
#
#   gen_polysi_like.py NODES KNOWN CONSTRAINTS SEED > file.gnf
#
# KNOWN known edges, each a fresh literal on the solve line tied to its edge
# variable by (-e k) (e -k); CONSTRAINTS constraints of two alternatives, each
# 1-3 fresh non-decision edge literals chained into AND gates (all / none), the
# constraint literal (on the solve line) implying one alternative's "all" with
# the other's "none"; two composed edges per constraint guarded by
# AND(known literal, alternative).  Every edge goes forward in a hidden order
# or backward for the second alternative, so the problem is satisfiable.
# Used in doc/benchmarks.md ("Loading PolySI's problems: ... third pass") as
# "polylike" = 10000 150000 40000 1 (48 MB).
import random, sys
T, KNOWN, CONS, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
random.seed(seed)
order = list(range(T)); random.shuffle(order); pos = {n: i for i, n in enumerate(order)}
nv = 1
out = []; cls = []; solve = []; edges = []; dec = []
def new():
    global nv
    nv += 1; return nv
TRUE = 1; cls.append([1])
def eq(a, b): cls.append([-a, b]); cls.append([a, -b])
def AND(a, b):
    if a == TRUE: return b
    g = new(); cls.append([-g, a]); cls.append([-g, b]); cls.append([g, -a, -b]); return g
def fwd():
    a, b = random.sample(range(T), 2)
    return (a, b) if pos[a] < pos[b] else (b, a)
known = []
for i in range(KNOWN):
    u, v = fwd(); k = new(); solve.append(k); known.append((u, v, k))
    e = new(); eq(e, k); edges.append((u, v, e))
for c in range(CONS):
    alts = []
    for alt in range(2):
        allv, nonev = TRUE, TRUE
        for j in range(random.randint(1, 3)):
            u, v = fwd() if alt == 0 else fwd()[::-1]
            l = new(); dec.append((l, 0))
            allv = AND(allv, l); nonev = AND(nonev, -l)
            e = new(); eq(e, l); edges.append((u, v, e))
            if allv > 0 and allv != l: dec.append((allv, 0))
        alts.append((allv, nonev))
    x = AND(alts[0][0], alts[1][1]); y = AND(alts[1][0], alts[0][1])
    cl = new(); cls.append([-cl, x, y]); solve.append(cl)
    # composed edges: AND of a known literal and this constraint's literal
    for j in range(2):
        u, v, k = random.choice(known)
        g = AND(k, alts[0][0]); e = new(); eq(e, g); edges.append((u, v, e))
pass
print("digraph %d %d 0" % (T, len(edges)))
for u, v, e in edges: print("edge 0 %d %d %d" % (u, v, e))
for c in cls: print(" ".join(map(str, c)) + " 0")
for l, f in dec: print("decision %d %d" % (abs(l), f))
a = new(); print("acyclic 0 %d" % a); print("%d 0" % a)
print("solve " + " ".join(map(str, solve)))
