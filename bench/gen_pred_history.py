#!/usr/bin/env python3
"""bench/gen_pred_history.py -- an Elle closed-predicate history (EDN) for
bench/predicates.sh: N transactions over K keys, each key changed at most once
(Elle's generator: key mod 3 = 0 inserted, 1 written, 2 deleted; :init holds
the written and deleted ones), about half of the micro-ops predicate reads
([:= c], [:mod 2 r], :true) and the rest item reads and writes; every read's
result comes from running the transactions one after another, so the history
is serializable and the checker does all of its work.

usage: gen_pred_history.py N K SEED [nodelete [VERSION_ORDER]] > out.edn

nodelete: key mod 3 = 2 is written instead of deleted (a history the text format can
hold: `isocheck convert --to text`).  VERSION_ORDER: the version order of every written
key, `K: init V` per line (doc/formats.md, "Version order hints"; its one write follows
the initial version), for `check --version-order`."""
import random
import sys


def main():
    n, k, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    nodelete = len(sys.argv) > 4 and sys.argv[4] == "nodelete"
    order = []
    rnd = random.Random(seed)
    keys = list(range(k))
    rnd.shuffle(keys)
    state = {}
    for key in keys:
        if key % 3 != 0:
            state[key] = rnd.randrange(2)
    out = sys.stdout
    out.write("{:type :ok, :f :init, :value {%s}}\n" % " ".join("%d %d" % kv for kv in sorted(state.items())))
    nxt = 2
    for t in range(n):
        mops = []
        for _ in range(1 + rnd.randrange(4)):
            c = rnd.randrange(4)
            if c < 2:                                   # a predicate read: half of the micro-ops
                p = rnd.randrange(3)
                if p == 0:
                    c0 = rnd.randrange(2); pred, match = "[:= %d]" % c0, (lambda v, c0=c0: v == c0)
                elif p == 1:
                    r = rnd.randrange(2); pred, match = "[:mod 2 %d]" % r, (lambda v, r=r: v % 2 == r)
                else:
                    pred, match = ":true", (lambda v: True)
                res = " ".join("%d %d" % (key, v) for key, v in sorted(state.items()) if match(v))
                mops.append("[:rp %s {%s}]" % (pred, res))
            elif c == 2 or not keys:
                key = rnd.randrange(k)
                mops.append("[:r %d %s]" % (key, state[key] if key in state else "nil"))
            else:
                key = keys.pop()
                if key % 3 == 0:
                    state[key] = nxt; mops.append("[:insert %d %d]" % (key, nxt)); order.append((key, nxt)); nxt += 1
                elif key % 3 == 1 or nodelete:
                    state[key] = nxt; mops.append("[:w %d %d]" % (key, nxt)); order.append((key, nxt)); nxt += 1
                else:
                    state.pop(key, None); mops.append("[:delete %d]" % key)
        out.write("{:process %d, :type :ok, :f :txn, :value [%s]}\n" % (t % 10, " ".join(mops)))
    if len(sys.argv) > 5:
        with open(sys.argv[5], "w") as f:
            for key, v in sorted(order):
                f.write("%d: init %d\n" % (key, v))


main()
