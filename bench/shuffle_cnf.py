#!/usr/bin/env python3
"""shuffle_cnf.py — an equivalent copy of a DIMACS CNF, reordered at random.

usage: shuffle_cnf.py SEED IN.cnf OUT.cnf
Variables are renamed by a random permutation, each variable's sign is
flipped with probability 1/2, and clauses and the literals inside them are
reordered.  The copy is satisfiable iff the input is.  A heuristic change is
judged over several seeds (bench/sat.sh's fixed files alone can reward one
lucky ordering).  Deterministic for a given seed.
"""
import random
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: shuffle_cnf.py SEED IN.cnf OUT.cnf")
    rng = random.Random(int(sys.argv[1]))
    nvars, clauses, cur = 0, [], []
    with open(sys.argv[2]) as f:
        for line in f:
            if line.startswith(("c", "%")):
                continue
            if line.startswith("p"):
                nvars = int(line.split()[2])
                continue
            for tok in line.split():
                x = int(tok)
                if x == 0:
                    clauses.append(cur)
                    cur = []
                else:
                    cur.append(x)
                    nvars = max(nvars, abs(x))
    perm = list(range(1, nvars + 1))
    rng.shuffle(perm)
    sign = [0] + [rng.choice((1, -1)) for _ in range(nvars)]
    out = []
    for c in clauses:
        lits = [(perm[abs(x) - 1] * sign[abs(x)]) * (1 if x > 0 else -1) for x in c]
        rng.shuffle(lits)
        out.append(lits)
    rng.shuffle(out)
    with open(sys.argv[3] + ".tmp", "w") as f:
        f.write("p cnf %d %d\n" % (nvars, len(out)))
        for c in out:
            f.write(" ".join(map(str, c)) + " 0\n")
    import os
    os.replace(sys.argv[3] + ".tmp", sys.argv[3])


if __name__ == "__main__":
    main()
