#!/usr/bin/env python3
"""gen_cnf.py — fixed-seed CNF families for bench/sat.sh.

usage: gen_cnf.py OUTDIR
Writes OUTDIR/<family>/<name>.cnf.  Its own xorshift generator makes the
suite identical on every machine and Python version.

Families:
  random3    random 3-SAT at clause/variable ratio 4.26, 200-300 variables
  php        pigeonhole n+1 into n (UNSAT), n = 8, 9
  colouring  3-colouring of random graphs, 400-600 nodes, average degree 4.6-4.7
  factoring  multiplier circuits: is N = a*b with a, b > 1? (primes: UNSAT)
  parity     two XOR chains over the same variables, different orders;
             forced equal (SAT) or different (UNSAT)
  planted    large planted 3-SAT (20000 variables, ratio 3.5)
"""
import os
import sys


class Rng:
    def __init__(self, seed):
        self.s = (seed * 0x9E3779B97F4A7C15 + 1) & 0xFFFFFFFFFFFFFFFF or 1

    def next(self):
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 7
        x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
        self.s = x
        return x

    def below(self, n):
        return self.next() % n


def write(path, nvars, clauses, comment):
    with open(path, "w") as f:
        f.write("c %s\n" % comment)
        f.write("p cnf %d %d\n" % (nvars, len(clauses)))
        for c in clauses:
            f.write(" ".join(map(str, c)) + " 0\n")


def random3(n, seed):
    r = Rng(seed)
    m = int(round(4.26 * n))
    cls = []
    for _ in range(m):
        vs = set()
        while len(vs) < 3:
            vs.add(1 + r.below(n))
        cls.append([v if r.below(2) else -v for v in sorted(vs)])
    return n, cls


def php(h):
    p = h + 1
    var = lambda i, j: i * h + j + 1
    cls = [[var(i, j) for j in range(h)] for i in range(p)]
    for j in range(h):
        for a in range(p):
            for b in range(a + 1, p):
                cls.append([-var(a, j), -var(b, j)])
    return p * h, cls


def colouring(nodes, edges, seed, k=3):
    r = Rng(seed)
    es = set()
    while len(es) < edges:
        a, b = r.below(nodes), r.below(nodes)
        if a != b:
            es.add((min(a, b), max(a, b)))
    var = lambda v, c: v * k + c + 1
    cls = []
    for v in range(nodes):
        cls.append([var(v, c) for c in range(k)])
        for c in range(k):
            for d in range(c + 1, k):
                cls.append([-var(v, c), -var(v, d)])
    for a, b in sorted(es):
        for c in range(k):
            cls.append([-var(a, c), -var(b, c)])
    # symmetry: node 0 gets colour 0
    cls.append([var(0, 0)])
    return nodes * k, cls


class Circuit:
    def __init__(self):
        self.n = 0
        self.cls = []

    def var(self):
        self.n += 1
        return self.n

    def and2(self, a, b):
        o = self.var()
        self.cls += [[-o, a], [-o, b], [o, -a, -b]]
        return o

    def xor2(self, a, b):
        o = self.var()
        self.cls += [[-o, a, b], [-o, -a, -b], [o, -a, b], [o, a, -b]]
        return o

    def or2(self, a, b):
        o = self.var()
        self.cls += [[o, -a], [o, -b], [-o, a, b]]
        return o

    def full_add(self, a, b, c):
        t = self.xor2(a, b)
        s = self.xor2(t, c)
        carry = self.or2(self.and2(a, b), self.and2(t, c))
        return s, carry


def factoring(N, bits):
    """a, b of `bits` bits each, a*b == N, a > 1, b > 1, a <= b."""
    c = Circuit()
    a = [c.var() for _ in range(bits)]
    b = [c.var() for _ in range(bits)]
    width = 2 * bits
    acc = None
    for i in range(bits):
        row = [None] * width
        for j in range(bits):
            row[i + j] = c.and2(a[j], b[i])
        if acc is None:
            acc = row
            continue
        carry = None
        out = [None] * width
        for k in range(width):
            x, y = acc[k], row[k]
            terms = [t for t in (x, y, carry) if t is not None]
            if not terms:
                out[k] = None
                carry = None
            elif len(terms) == 1:
                out[k], carry = terms[0], None
            elif len(terms) == 2:
                out[k] = c.xor2(terms[0], terms[1])
                carry = c.and2(terms[0], terms[1])
            else:
                out[k], carry = c.full_add(*terms)
        acc = out
    for k in range(width):
        bit = (N >> k) & 1
        if acc[k] is None:
            if bit:
                c.cls.append([])  # cannot happen for sane N
            continue
        c.cls.append([acc[k]] if bit else [-acc[k]])
    # a > 1 and b > 1: some bit above bit 0 set
    c.cls.append(a[1:])
    c.cls.append(b[1:])
    return c.n, c.cls


def parity(n, same, seed):
    r = Rng(seed)
    c = Circuit()
    xs = [c.var() for _ in range(n)]
    perm = xs[:]
    for i in range(n - 1, 0, -1):
        j = r.below(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    p = xs[0]
    for x in xs[1:]:
        p = c.xor2(p, x)
    q = perm[0]
    for x in perm[1:]:
        q = c.xor2(q, x)
    c.cls.append([p])
    c.cls.append([q] if same else [-q])
    return c.n, c.cls


def planted(n, ratio, seed):
    r = Rng(seed)
    hidden = [r.below(2) for _ in range(n + 1)]
    cls = []
    while len(cls) < int(ratio * n):
        vs = [1 + r.below(n) for _ in range(3)]
        lits = [v if r.below(2) else -v for v in vs]
        if any((l > 0) == bool(hidden[abs(l)]) for l in lits):
            cls.append(lits)
    return n, cls


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        sys.stdout.write(__doc__) if len(sys.argv) == 2 else sys.stderr.write(__doc__)
        sys.exit(0 if len(sys.argv) == 2 else 2)
    out = sys.argv[1]
    if out.startswith("-"):
        sys.stderr.write("gen_cnf.py: unknown option %s (usage: gen_cnf.py OUTDIR)\n" % out)
        sys.exit(2)
    fams = {}
    for n in (200, 225, 250, 275, 300):
        for seed in range(1, 5):
            fams.setdefault("random3", []).append(("r3-%d-%d" % (n, seed), random3(n, n * 1000 + seed)))
    for h in (8, 9):
        fams.setdefault("php", []).append(("php-%d" % h, php(h)))
    for nodes, degree10, seed in ((400, 46, 1), (450, 46, 2), (500, 46, 3), (500, 47, 4), (550, 46, 5), (600, 46, 6)):
        edges = nodes * degree10 // 20
        fams.setdefault("colouring", []).append(("col-%d-%d-%d" % (nodes, edges, seed), colouring(nodes, edges, seed)))
    # semiprimes (SAT) and primes (UNSAT)
    for N, bits in ((1000003 * 999983, 20), (1048573 * 1048571, 21), (999979 * 999961, 20),
                    (1000003, 20), (4194301, 22), (1048573, 21)):
        fams.setdefault("factoring", []).append(("fact-%d" % N, factoring(N, bits)))
    for n, same, seed in ((60, 1, 1), (80, 1, 2), (24, 0, 3), (28, 0, 4), (32, 0, 5)):
        fams.setdefault("parity", []).append(("par-%d-%s" % (n, "sat" if same else "unsat"), parity(n, same, seed)))
    for seed in (1, 2, 3):
        fams.setdefault("planted", []).append(("planted-%d" % seed, planted(20000, 3.5, seed)))
    for fam, insts in fams.items():
        os.makedirs(os.path.join(out, fam), exist_ok=True)
        for name, (nv, cls) in insts:
            write(os.path.join(out, fam, name + ".cnf"), nv, cls, "%s (bench/gen_cnf.py)" % name)


if __name__ == "__main__":
    main()
