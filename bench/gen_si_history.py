#!/usr/bin/env python3
"""gen_si_history.py — a snapshot-isolation-valid history in PolySI's text
format, for the checking benchmarks (bench/check.sh).

Simulates a multi-version store: every session runs one transaction at a
time; a step picks a random session and either begins its transaction
(snapshot = the current commit counter), performs its next operation, or
commits it (first committer wins: abort if a written key got a newer version
after the snapshot; aborted transactions are left out of the output).  Reads
see the transaction's own write, else the newest version committed at or
before the snapshot.  So the output satisfies SI (not necessarily SER).

  --txns N --sessions S --keys K --ops O --reads F   (fraction of reads)
  --rmw F      fraction of writes preceded by a read of the same key
  --hot-key    every operation is on key 0 (the hot-key scenario)
  --zipf A     key popularity ~ 1/rank^A (0: uniform)
"""
import argparse
import bisect
import random
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--txns", type=int, default=10000)
    ap.add_argument("--sessions", type=int, default=25)
    ap.add_argument("--keys", type=int, default=10000)
    ap.add_argument("--ops", type=int, default=8)
    ap.add_argument("--reads", type=float, default=0.5)
    ap.add_argument("--rmw", type=float, default=0.0)
    ap.add_argument("--hot-key", action="store_true")
    ap.add_argument("--zipf", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    if a.hot_key:
        a.keys = 1
    cum = None
    if a.zipf > 0:
        w = [1.0 / (i + 1) ** a.zipf for i in range(a.keys)]
        cum, t = [], 0.0
        for x in w:
            t += x
            cum.append(t)

    def pick_key():
        if a.hot_key:
            return 0
        if cum:
            return bisect.bisect_left(cum, rng.random() * cum[-1])
        return rng.randrange(a.keys)

    versions = {}          # key -> list of (commit, value)
    clock = 0
    next_value = 1
    out = sys.stdout
    buf = []
    committed = 0
    active = [None] * a.sessions
    txn_id = 0
    while committed < a.txns:
        s = rng.randrange(a.sessions)
        t = active[s]
        if t is None:
            txn_id += 1
            active[s] = {"id": txn_id, "snap": clock, "ops": [], "writes": {}, "left": a.ops}
            continue
        if t["left"] > 0:
            t["left"] -= 1
            k = pick_key()
            if rng.random() < a.reads:
                kind = "r"
            else:
                kind = "w"
                if a.rmw > 0 and rng.random() < a.rmw and k not in t["writes"]:
                    t["ops"].append(("r", k, read(versions, t, k)))
            if kind == "r":
                t["ops"].append(("r", k, read(versions, t, k)))
            else:
                v = next_value
                next_value += 1
                t["writes"][k] = v
                t["ops"].append(("w", k, v))
            continue
        # commit: first committer wins
        active[s] = None
        if any(versions.get(k) and versions[k][-1][0] > t["snap"] for k in t["writes"]):
            continue
        clock += 1
        for k, v in t["writes"].items():
            versions.setdefault(k, []).append((clock, v))
        committed += 1
        for kind, k, v in t["ops"]:
            buf.append("%s(%d,%d,%d,%d)\n" % (kind, k, v, s, t["id"]))
        if len(buf) > 65536:
            out.write("".join(buf))
            buf.clear()
    out.write("".join(buf))


def read(versions, t, k):
    if k in t["writes"]:
        return t["writes"][k]
    vs = versions.get(k)
    if not vs:
        return 0
    i = len(vs) - 1
    while i >= 0 and vs[i][0] > t["snap"]:
        i -= 1
    return vs[i][1] if i >= 0 else 0


if __name__ == "__main__":
    main()
