#!/usr/bin/env python3
"""partial_diff.py — a short differential run of gsat's backtracking modes.

usage: partial_diff.py [--gsat PATH] [--minisat PATH] [--count N] [--seed S]

Random problems, fixed seeds: GNF problems shaped like the checker's choice
encoding (exactly-one groups whose members guard edges, orientation pairs
c ? u->v : v->u, always-on edges forward, random 3- and 4-literal clauses
at several densities, so both answers occur) and pure random 3-SAT near the
threshold.  Each is solved by gsat with its defaults (partial backtracking
on), with partial backtracking after every conflict below the current level
(--chrono_levels=0), with --partial_backtrack=0, and, where installed, by
MiniSat (GNF through `gsat --to-cnf ve`).  Every SAT model is checked here
against every clause and the acyclicity of its enabled edges; the answers
must agree.  Prints one line per disagreement or bad model and a summary;
exit 1 on any.  Written for issue 35 (stop 40: models that broke an
at-least-one clause under partial backtracking); not part of `make test`.
"""
import argparse, os, shutil, subprocess, sys, tempfile
from collections import defaultdict


class Rng:
    def __init__(self, seed):
        self.x = (seed * 0x9E3779B97F4A7C15 + 1) & (2**64 - 1) or 1

    def next(self):
        x = self.x
        x ^= x >> 12; x ^= (x << 25) & (2**64 - 1); x ^= x >> 27
        self.x = x
        return ((x * 2685821657736338717) & (2**64 - 1)) >> 32

    def pick(self, n):
        return self.next() % n


def gen_choice(r):
    """Clauses and edges (u, v, guard) of one choice-shaped problem."""
    n = 50 + r.pick(100)
    nv = 0
    clauses, edges = [], []

    def var():
        nonlocal nv
        nv += 1
        return nv

    def other(u):
        v = r.pick(n)
        return (u + 1) % n if v == u else v

    for i in range(n - 1):
        if r.pick(3) == 0:
            t = i + 1 + r.pick(3)
            edges.append((i, t if t < n else i + 1, 0))
    for _ in range(2 * n):
        c, u = var(), r.pick(n)
        v = other(u)
        edges += [(u, v, c), (v, u, -c)]
    for _ in range(n):
        m, rd = 2 + r.pick(3), r.pick(n)
        xs = [var() for _ in range(m)]
        for x in xs:
            edges.append((other(rd), rd, x))
            if r.pick(2):
                edges.append((rd, other(rd), x))
        clauses.append(xs)
        clauses += [[-xs[a], -xs[b]] for a in range(m) for b in range(a + 1, m)]
    extra = [0, n, 2 * n, 3 * n, 4 * n][r.pick(5)]
    for _ in range(extra):
        clauses.append([(1 + r.pick(nv)) * (1 if r.pick(2) else -1) for _ in range(3 + r.pick(2))])
    return nv, n, clauses, edges


def gen_3sat(r):
    nv = 60 + r.pick(140)
    return nv, 0, [[(1 + r.pick(nv)) * (1 if r.pick(2) else -1) for _ in range(3)]
                   for _ in range(int(nv * 4.26))], []


def write(path, nv, n, clauses, edges):
    """GNF: edge guards must be variables, so an always-on edge gets one
    asserted true and a negative guard -c one equivalent to it."""
    extra, lines, alias = nv, [], {}

    def guard(g):
        nonlocal extra
        if g > 0:
            return g
        if g not in alias:
            extra += 1
            alias[g] = extra
            lines.append([extra] if g == 0 else [extra, -g])
            if g:
                lines.append([-extra, g])
        return alias[g]

    glines = ['edge 0 %d %d %d' % (u, v, guard(g)) for u, v, g in edges]
    with open(path, 'w') as f:
        for c in clauses + lines:
            f.write(' '.join(map(str, c)) + ' 0\n')
        if edges:
            f.write('digraph %d %d 0\n' % (n, len(edges)))
            f.write('\n'.join(glines) + '\n')
            f.write('acyclic 0 %d\n%d 0\n' % (extra + 1, extra + 1))


def model_ok(model, n, clauses, edges):
    val = lambda l: model.get(abs(l), False) == (l > 0)
    for c in clauses:
        if not any(val(l) for l in c):
            return 'clause %s false' % c
    adj, indeg = defaultdict(list), [0] * n
    for u, v, g in edges:
        if g == 0 or val(g):
            adj[u].append(v); indeg[v] += 1
    q = [u for u in range(n) if indeg[u] == 0]
    seen = 0
    while q:
        u = q.pop(); seen += 1
        for v in adj[u]:
            indeg[v] -= 1
            if indeg[v] == 0:
                q.append(v)
    return None if seen == n else 'the enabled edges have a cycle'


def run_gsat(gsat, path, opts):
    p = subprocess.run([gsat] + opts + [path], capture_output=True, text=True, timeout=120)
    ans, model = None, {}
    for line in p.stdout.splitlines():
        if line.startswith('s '):
            ans = line.split()[1]
        elif line.startswith('v '):
            for t in line.split()[1:]:
                x = int(t)
                if x:
                    model[abs(x)] = x > 0
    return ans, model


def run_minisat(minisat, gsat, path, has_graph, tmp):
    cnf = path
    if has_graph:
        cnf = os.path.join(tmp, 'enc.cnf')
        with open(cnf, 'w') as f:
            subprocess.run([gsat, '--to-cnf', 've', path], stdout=f, check=True, timeout=120)
    p = subprocess.run([minisat, '-verb=0', cnf], capture_output=True, text=True, timeout=300)
    return {10: 'SATISFIABLE', 20: 'UNSATISFIABLE'}.get(p.returncode)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--gsat', default='build/gsat')
    ap.add_argument('--minisat', default=shutil.which('minisat'))
    ap.add_argument('--count', type=int, default=200)
    ap.add_argument('--seed', type=int, default=1)
    a = ap.parse_args()
    modes = [('default', []), ('chrono0', ['--chrono_levels=0']),
             ('chrono0-seed', None),
             ('nopartial', ['--partial_backtrack=0'])]
    bad, answers = 0, defaultdict(int)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'p.gnf')
        for i in range(a.count):
            r = Rng(a.seed + i)
            nv, n, clauses, edges = gen_3sat(r) if i % 5 == 4 else gen_choice(r)
            write(path, nv, n, clauses, edges)
            got = {}
            for name, opts in modes:
                if name == 'chrono0-seed':
                    opts = ['--chrono_levels=0', '--seed=%d' % (a.seed + i)]
                ans, model = run_gsat(a.gsat, path, opts)
                got[name] = ans
                if ans == 'SATISFIABLE':
                    why = model_ok(model, n, clauses, edges)
                    if why:
                        bad += 1
                        print('seed %d %s: bad model: %s' % (a.seed + i, name, why))
            if a.minisat:
                got['minisat'] = run_minisat(a.minisat, a.gsat, path, bool(edges), tmp)
            if len(set(got.values())) != 1 or None in got.values():
                bad += 1
                print('seed %d: answers differ: %s' % (a.seed + i, got))
            answers[('graph ' if edges else 'cnf ') + str(got['default'])] += 1
    print('%d problems (%s), %d findings%s' % (a.count, ', '.join('%s %d' % kv for kv in sorted(answers.items())),
                                               bad, '' if a.minisat else ' (no minisat: gsat modes only)'))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
