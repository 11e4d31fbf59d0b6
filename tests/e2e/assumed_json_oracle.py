# assumed_json_oracle.py HISTORY REPORT.json — an independent check (it shares
# no code with isocheck) of what a JSON report says rests on a chosen writer.
# From the history text (r(k,v,s,t) / w(k,v,s,t) lines): a transaction's
# external read of k is a read before any write of k in it; its possible
# writers are the other transactions whose last write of k is that value; the
# read is ambiguous with two or more.  From the report: every edge of a cycle
# or of a proof rests on a read — a WR edge on its reader's read of its key,
# an RW edge on its reader's (from), an edge whose basis is a
# read-modify-write on the overwriter's (basis.after).  Checked: an anomaly's
# "assumes" is exactly the ambiguous reads its edges rest on, with the values
# read; an edge has "assumed_writer" iff it rests on an ambiguous read; a
# forced proof has "assumed_writers" iff an edge of its cycle rests on one or
# a fact it cites has the flag; a WR edge's writer wrote the value read, the
# only possible writer when not assumed; a level with anomalies shown does
# not list its check's cycle's reads ("the cycle shown assumes").
# Prints each mismatch and a summary line; exits 1 on any mismatch.
import collections, json, sys

hist, rep = sys.argv[1], sys.argv[2]
final = {}                                  # (txn, key) -> last value written
ext = {}                                    # (txn, key) -> value of its external read
wrote = set()
for line in open(hist):
    if len(line) < 3 or line[1] != '(' or line[0] not in 'rw':
        continue
    k, v, _s, t = line[2:line.index(')')].split(',')
    if line[0] == 'w':
        final[(t, k)] = v
        wrote.add((t, k))
    elif (t, k) not in wrote and (t, k) not in ext:
        ext[(t, k)] = v
writers = collections.defaultdict(set)
for (t, k), v in final.items():
    writers[(k, v)].add(t)

def possible(r, k):
    return writers[(k, ext[(r, k)])] - {r} if (r, k) in ext else set()

def ambiguous(r, k):
    return len(possible(r, k)) >= 2

bad = 0
def fail(msg):
    global bad
    bad += 1
    print('MISMATCH', msg)

def s(x):
    return None if x is None else str(x)

def rests_on(e, basis):
    out = []
    if e['kind'] == 'WR': out.append((s(e['to']), e['key']))
    if e['kind'] == 'RW': out.append((s(e['from']), e['key']))
    if basis and basis['kind'] == 'read-modify-write': out.append((s(basis['after']), e['key']))
    return [x for x in out if x[0] is not None]

def check_edge(e, basis, where):
    amb = any(ambiguous(r, k) for r, k in rests_on(e, basis))
    if amb != bool(e.get('assumed_writer')):
        fail('%s: edge %s assumed_writer=%s, history says %s' % (where, e['text'], e.get('assumed_writer'), amb))
    if e['kind'] == 'WR' and e['from'] is not None:
        r, w, k = s(e['to']), s(e['from']), e['key']
        if (r, k) in ext and final.get((w, k)) != ext[(r, k)]:
            fail('%s: WR %s: the writer did not write the value read' % (where, e['text']))
        if not e.get('assumed_writer') and (r, k) in ext and possible(r, k) != {w}:
            fail('%s: WR %s stated as a fact, possible writers %s' % (where, e['text'], sorted(possible(r, k))))
    return amb

d = json.load(open(rep))
counts = collections.Counter()
has_amb = any(ambiguous(r, k) for (r, k) in ext)
for L in d['results']:
    shown = any(a['level'] == L['level'] for a in d['anomalies'])
    if shown and has_amb and L['reason'] and 'the cycle shown assumes' in L['reason']:
        fail('level %s: the reason lists its check cycle\'s reads beside anomalies shown' % L['level'])
for n, a in enumerate(d['anomalies'], 1):
    if not a['edges']:
        continue
    if has_amb and 'assumes' not in a:
        fail('anomaly %d: no "assumes"' % n); continue
    want = set()
    def why(w, where, facts_flag):
        if w['status'] != 'forced':
            if w.get('assumed_writers'): fail('%s: a %s proof flagged assumed' % (where, w['status']))
            return
        amb = False
        for e in w['cycle']:
            b = e.get('basis')
            amb |= check_edge(e, b, where)
            want.update(x for x in rests_on(e, b) if ambiguous(*x))
            if b and b['kind'] == 'proven': amb |= facts_flag[b['fact']]
        counts['proofs'] += 1
        counts['assumed proofs'] += amb
        if amb != bool(w.get('assumed_writers')):
            fail('%s: proof assumed_writers=%s, history says %s' % (where, w.get('assumed_writers'), amb))
        return amb
    flags = []
    for i, f in enumerate(a['facts']):
        flags.append(bool(why(f['why'], 'anomaly %d fact %d' % (n, i + 1), flags)))
    for e in a['edges']:
        check_edge(e, None, 'anomaly %d cycle' % n)
        want.update(x for x in rests_on(e, None) if ambiguous(*x))
        if 'why' in e: why(e['why'], 'anomaly %d edge %s' % (n, e['text'][:60]), flags)
    got = {(s(x['txn']), x['key']) for x in a.get('assumes', [])}
    for x in a.get('assumes', []):
        if x['value'] != ext.get((s(x['txn']), x['key'])):
            fail('anomaly %d: assumes %s with value %s, the read was %s' % (n, x, x['value'], ext.get((s(x['txn']), x['key']))))
        if x['writer'] is not None and s(x['writer']) not in possible(s(x['txn']), x['key']):
            fail('anomaly %d: assumes %s: not a possible writer' % (n, x))
    if got != want:
        fail('anomaly %d: assumes %s, history says %s' % (n, sorted(got), sorted(want)))
    counts['anomalies'] += 1
    counts['assumed reads'] += len(got)
print('%d anomalies, %d assumed reads, %d proofs (%d assumed), %d mismatches' % (
    counts['anomalies'], counts['assumed reads'], counts['proofs'], counts['assumed proofs'], bad))
sys.exit(1 if bad else 0)
