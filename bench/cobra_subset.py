#!/usr/bin/env python3
"""cobra_subset.py SRC DST K -- keep the first K committed transactions of each
Cobra log in SRC (a directory of *.log), drop aborted ones, and drop every read
of a write that is not kept; write the logs to DST.

Why this is still a valid problem of the same shape: the projection of an SI
(or serializable) execution onto a subset of its transactions, without the reads
of the writes left out, is SI (serializable) under the same commit order, since a
kept read's write stays the latest one visible to it.  Used to make a second,
independent PolySI problem from CobraLogs' scaling/tpcc-100000, whose stored
snapshot lacks 11 of its 24 logs (doc/benchmarks.md, stop 25)."""
import glob, os, struct, sys

INIT_TXNS = (0xbebeebee, 0xdeadbeef)
FIELDS = {'S': 1, 'C': 1, 'A': 1, 'W': 3, 'R': 4}


def die(msg):
    print('cobra_subset.py: ' + msg, file=sys.stderr)
    sys.exit(2)


def read_log(path):
    data = open(path, 'rb').read()
    i, txns, cur = 0, [], None
    while i < len(data):
        t = chr(data[i]); i += 1
        n = FIELDS.get(t)
        if n is None:
            die('%s: byte %d: unknown record type %r' % (path, i - 1, t))
        v = struct.unpack('>%dq' % n, data[i:i + 8 * n]); i += 8 * n
        if t == 'S': cur = (v[0], [])
        elif t == 'C': txns.append(cur); cur = None
        elif t == 'A': cur = None
        else: cur[1].append((t, v))
    return txns


def main():
    if len(sys.argv) != 4 or not sys.argv[3].isdigit():
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    src, dst, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if not os.path.isdir(src):
        die(src + ': not a directory of Cobra logs')
    if os.path.exists(dst) and os.path.samefile(src, dst):
        die('DST is SRC: refusing to overwrite the input logs')
    logs = {p: read_log(p)[:k] for p in sorted(glob.glob(os.path.join(src, '*.log')))}
    kept = {tid for txns in logs.values() for tid, _ in txns}
    wids = {v[0] for txns in logs.values() for _, ops in txns for t, v in ops if t == 'W'}
    os.makedirs(dst, exist_ok=True)
    reads = dropped = 0
    for path, txns in logs.items():
        out = bytearray()
        for tid, ops in txns:
            out += b'S' + struct.pack('>q', tid)
            for t, v in ops:
                if t == 'R':
                    reads += 1
                    if not (v[0] in INIT_TXNS or (v[0] in kept and v[1] in wids)):
                        dropped += 1
                        continue
                out += t.encode() + struct.pack('>%dq' % len(v), *v)
            out += b'C' + struct.pack('>q', tid)
        target = os.path.join(dst, os.path.basename(path))
        with open(target + '.tmp', 'wb') as f:
            f.write(out)
        os.replace(target + '.tmp', target)
    print('transactions %d, reads %d, dropped %d' % (len(kept), reads, dropped))


main()
