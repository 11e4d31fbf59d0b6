#!/usr/bin/env python3
"""gen_list_history.py — a snapshot-isolation-valid Elle list-append history
(EDN, one completion per line), for the checking benchmarks.

Simulates a multi-version store of lists: every session runs one
transaction at a time; a step picks a random session and either begins its
transaction (snapshot = the current commit counter), performs its next
operation, or commits it (first committer wins: abort if a key it appended
to got a newer version after the snapshot; aborted transactions are written
as :fail).  An operation appends a fresh value to a key or reads a key; a
read sees the key's list at the snapshot followed by the transaction's own
appends so far, so reads after own appends are common (--rmw: fraction of
appends followed by a read of the same key).  The output satisfies SI.
With --repeat F an append appends again, with probability F, a value
already appended to its key (issue 35: repeated appends; the value drawn
among the key's earlier appends, committed or not).

  --txns N --sessions S --keys K --ops O --reads F --rmw F --repeat F --seed N
"""
import argparse
import bisect
import random
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--txns", type=int, default=10000)
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--keys", type=int, default=1000)
    ap.add_argument("--ops", type=int, default=8)
    ap.add_argument("--reads", type=float, default=0.5)
    ap.add_argument("--rmw", type=float, default=0.5)
    ap.add_argument("--repeat", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    # per key: commit numbers and the list after each (lists share nothing: copies are short)
    commits = [[0] for _ in range(a.keys)]
    lists = [[[]] for _ in range(a.keys)]
    clock = 0
    nxt = 1
    appended = [[] for _ in range(a.keys)]
    rep = random.Random(a.seed + 7)          # drawn only with --repeat: the rest of the run is the same
    running = [None] * a.sessions
    done = 0
    index = 0
    out = sys.stdout
    while done < a.txns:
        s = rnd.randrange(a.sessions)
        t = running[s]
        if t is None:
            running[s] = {"snap": clock, "ops": [], "own": {}, "left": a.ops}
            continue
        if t["left"] > 0:
            t["left"] -= 1
            k = rnd.randrange(a.keys)
            if rnd.random() < a.reads:
                i = bisect.bisect_right(commits[k], t["snap"]) - 1
                t["ops"].append("[:r %d [%s]]" % (k, " ".join(map(str, lists[k][i] + t["own"].get(k, [])))))
            else:
                if a.repeat > 0 and appended[k] and rep.random() < a.repeat:
                    v = appended[k][rep.randrange(len(appended[k]))]
                else:
                    v = nxt
                    nxt += 1
                appended[k].append(v)
                t["own"].setdefault(k, []).append(v)
                t["ops"].append("[:append %d %d]" % (k, v))
                if rnd.random() < a.rmw and t["left"] > 0:
                    t["left"] -= 1
                    i = bisect.bisect_right(commits[k], t["snap"]) - 1
                    t["ops"].append("[:r %d [%s]]" % (k, " ".join(map(str, lists[k][i] + t["own"][k]))))
            continue
        ok = all(commits[k][-1] <= t["snap"] for k in t["own"])
        if ok:
            clock += 1
            for k, vs in t["own"].items():
                commits[k].append(clock)
                lists[k].append(lists[k][-1] + vs)
            done += 1
        index += 1
        out.write("{:type %s, :f :txn, :process %d, :index %d, :value [%s]}\n"
                  % (":ok" if ok else ":fail", s, index, " ".join(t["ops"])))
        running[s] = None


if __name__ == "__main__":
    main()
