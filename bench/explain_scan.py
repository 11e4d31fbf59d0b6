#!/usr/bin/env python3
"""explain_scan.py — count circular explanations in `isocheck check --json`
reports, checked against the history itself (PolySI text format, as
`isocheck gen` writes it), independently of isocheck.

Usage: explain_scan.py HISTORY REPORT.json [HISTORY REPORT.json ...]

An explanation claims "before's version of key precedes after's" and shows
a cycle that the opposite order closes.  Each edge of that cycle must hold
without the claim: SO and WR edges are read off the history; a WW edge
rests on the fact from < to, an RW edge on the fact src < to (src: whose
write the reader's first op on the key read); that fact must be
  - the opposite of the claim (the order refuted),
  - the initial version's (src is INIT),
  - the history's own-write order (to read from's version and wrote key),
  - or a fact of the anomaly's "facts" list proven before it (for a fact
    of that list: an earlier one; for an edge of the cycle: any).
A cycle edge resting on the claim itself is circular; one resting on a fact
listed later, or on no listed fact, is unsupported.  Reads an explanation
relies on (each WR/RW edge's read, and the write it read) must be among the
anomaly's operations.  Prints one line of totals; exits 1 when any
explanation is circular, unsupported, shows an edge the history lacks or
leaves out an operation it relies on.
"""
import json
import re
import sys

OP = re.compile(r'^\s*([rw])\((-?\d+),(-?\d+),(-?\d+),(-?\d+)\)\s*$')


def load_history(path):
    txns = {}        # id -> {"session", "pos", "ops": [(kind, key, value)]}
    writer = {}      # (key, value) -> txn id
    per_session = {}
    with open(path) as f:
        for line in f:
            m = OP.match(line)
            if not m:
                continue
            kind, key, val, sess, tid = m.group(1), m.group(2), m.group(3), m.group(4), int(m.group(5))
            if tid not in txns:
                per_session[sess] = per_session.get(sess, 0) + 1
                txns[tid] = {"session": sess, "pos": per_session[sess], "ops": []}
            txns[tid]["ops"].append((kind, key, val))
            if kind == "w":
                writer[(key, val)] = tid
    return txns, writer


class History:
    def __init__(self, path):
        self.txns, self.writer = load_history(path)

    def first_op(self, t, key):
        for op in self.txns[t]["ops"]:
            if op[1] == key:
                return op
        return None

    def src(self, t, key):
        """Whose write t's first op on key read: a txn id, None for INIT, 'none' if no such read."""
        op = self.first_op(t, key) if t in self.txns else None
        if op is None or op[0] != "r":
            return "none"
        if op[2] == "0":
            return None
        return self.writer.get((key, op[2]), "none")

    def final_write(self, t, key):
        val = None
        for op in self.txns.get(t, {"ops": []})["ops"]:
            if op[0] == "w" and op[1] == key:
                val = op[2]
        return val

    def so(self, a, b):
        return (a in self.txns and b in self.txns and self.txns[a]["session"] == self.txns[b]["session"]
                and self.txns[a]["pos"] < self.txns[b]["pos"])


class Totals:
    def __init__(self):
        self.reports = self.anomalies = self.proofs = self.facts = self.edges = 0
        self.circular = self.unsupported = self.bad_edge = self.missing_ops = 0
        self.decided = self.chosen = 0
        self.examples = []

    def bad(self, what, where):
        if len(self.examples) < 10:
            self.examples.append(what + ": " + where)


def edge_fact(h, e):
    """The version order fact (before, after) an edge rests on, or 'observed' / 'bad'."""
    k, f, t = e["kind"], e["from"], e["to"]
    if k == "SO":
        return "observed" if h.so(f, t) else "bad"
    if k == "WR":
        return "observed" if f is not None and h.src(t, e["key"]) == f else "bad"
    if h.final_write(t, e["key"]) is None:
        return "bad"
    if k == "WW":
        return (f, t) if (f is None or h.final_write(f, e["key"]) is not None) else "bad"
    s = h.src(f, e["key"])
    return "bad" if s == "none" or f == t else (s, t)


def check_proof(h, an, claim, why, facts_before, tot, where):
    """One explanation: the claim (before, after, key), its why, the facts usable."""
    tot.proofs += 1
    cyc = why.get("cycle", [])
    if len(cyc) < 2 or any(cyc[i]["to"] != cyc[(i + 1) % len(cyc)]["from"] for i in range(len(cyc))):
        tot.bad_edge += 1
        tot.bad("not a cycle", where)
        return
    before, after, key = claim
    for e in cyc:
        tot.edges += 1
        fact = edge_fact(h, e)
        if fact == "bad":
            tot.bad_edge += 1
            tot.bad("edge not in the history %s" % e.get("text"), where)
            continue
        check_ops(h, an, e, tot, where)
        if fact == "observed":
            continue
        x, y = fact
        k = e["key"]
        if (x, y, k) == (before, after, key):
            tot.circular += 1
            tot.bad("circular: rests on its own claim (%s)" % e.get("text"), where)
        elif (x, y, k) == (after, before, key) or x is None:
            pass
        elif h.src(y, k) == x and h.final_write(y, k) is not None:
            pass
        elif (x, y, k) not in facts_before:
            tot.unsupported += 1
            tot.bad("unsupported: %s's %s before %s's is neither a history fact nor proven before" % (x, k, y), where)


def check_ops(h, an, e, tot, where):
    """The read behind a WR/RW edge and the write it read are among the anomaly's ops."""
    if e["kind"] not in ("WR", "RW"):
        return
    reader = e["to"] if e["kind"] == "WR" else e["from"]
    op = h.first_op(reader, e["key"])
    shown = {(o["txn"], o["op"], o["key"], "0" if o["value"] == "init" else o["value"]) for o in an["ops"]}
    need = [(reader, "r", e["key"], op[2] if op else "?")]
    s = h.src(reader, e["key"])
    if s not in (None, "none"):
        need.append((s, "w", e["key"], h.final_write(s, e["key"])))
    for n in need:
        if n not in shown:
            tot.missing_ops += 1
            tot.bad("op not shown %r" % (n,), where)


def scan(hpath, rpath, tot):
    h = History(hpath)
    with open(rpath) as f:
        rep = json.load(f)
    tot.reports += 1
    for ai, an in enumerate(rep.get("anomalies", [])):
        if not an.get("edges"):
            continue
        tot.anomalies += 1
        tot.chosen += bool(an.get("chosen"))
        where = "%s anomaly %d" % (rpath, ai + 1)
        facts = an.get("facts", [])
        proven = []
        for fi, fa in enumerate(facts):
            tot.facts += 1
            claim = (fa["before"], fa["after"], fa["key"])
            check_proof(h, an, claim, fa["why"], set(proven), tot, "%s fact %d" % (where, fi + 1))
            proven.append(claim)
        for e in an["edges"]:
            w = e.get("why", {})
            if w.get("status") == "decided":
                tot.decided += 1
            if w.get("status") != "forced":
                continue
            fact = edge_fact(h, e)
            if fact in ("bad", "observed") or (w.get("before"), w.get("after")) != fact:
                tot.bad_edge += 1
                tot.bad("the claim is not the edge's fact", where)
                continue
            check_proof(h, an, (fact[0], fact[1], e["key"]), w, set(proven), tot, where)


def main(argv):
    if len(argv) < 3 or len(argv) % 2 == 0:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    tot = Totals()
    for i in range(1, len(argv), 2):
        scan(argv[i], argv[i + 1], tot)
    print("%d reports, %d anomalies (%d under a chosen order), %d explanations (%d facts proven first), %d cycle edges: "
          "%d circular, %d unsupported, %d edges not in the history, %d ops not shown; %d decided by the checker"
          % (tot.reports, tot.anomalies, tot.chosen, tot.proofs, tot.facts, tot.edges, tot.circular, tot.unsupported,
             tot.bad_edge, tot.missing_ops, tot.decided))
    for x in tot.examples:
        print("  " + x)
    return 1 if tot.circular or tot.unsupported or tot.bad_edge or tot.missing_ops else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
