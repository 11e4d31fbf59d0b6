# list_assumed_oracle.py HISTORY.edn LEVEL REPORT.txt [REPORT.json] — an
# independent check (it shares no code with isocheck) of what a report on a
# list-append history with repeated appended values states as established.
#
# From the EDN text (one {:type :ok|:info|:fail ... :value [[:r k [..]]
# [:append k v] ...] :index i} per line; txn id = :index): per key, L is the
# longest external prefix a committed (:ok) read shows (a read's external
# prefix: its list without its own appends so far).  A segmentation tiles L
# with whole blocks (all of a non-:fail transaction's appends to the key, in
# program order), each transaction at most once, such that every committed
# read's prefix of L ends between two blocks, a transaction's block starts at
# or after the end of every prefix it read of the key itself, and (LEVEL ser
# or si: a writer's version comes right after the one it read) a committed
# reader-appender's block starts where its prefix ends and, when that is
# inside L, it sits there.  An element of a read's prefix has an established
# appender when every segmentation puts the same transaction there (a key
# with no segmentation: when its value was appended once); else its
# appender is a choice.
#
# Checked on the text report: a WR edge's sentence ("txn B read k=[..]
# written by txn A") says "assumed written by" iff the last element of B's
# prefix is a choice; an RW edge's ("txn A read k=[..], which ...") names an
# assumed writer iff A's is; a "lists" proof ("forced...: txn X's read k=[..]
# lists txn a's k ...") says "forced given the writers assumed" iff a or b
# appended a value at a chosen element of X's prefix; a "where ... lists it
# so" basis says "(assumed: ...)" under the same condition.  JSON: an edge
# has "assumed_writer" iff its WR/RW read's last element is a choice
# (and a WW or RW edge whose basis is a read-modify-write: the overwriter's
# read's).  Prints each mismatch and a summary; exits 1 on any mismatch.
import json, re, sys

hist, level, rep = sys.argv[1], sys.argv[2], sys.argv[3]
js = sys.argv[4] if len(sys.argv) > 4 else None
OP = re.compile(r'[\[(]:(r|append) (\S+?) (\[[^\]]*\]|nil|[^\s\])]+)[\])]')
txns = []                        # (id, status, [(kind, key, value or list)])
for n, line in enumerate(open(hist)):
    if ':f :txn' not in line:
        continue
    st = re.search(r':type :(\w+)', line).group(1)
    ix = re.search(r':index (\d+)', line)
    tid = ix.group(1) if ix else str(n)
    ops = []
    for kind, k, v in OP.findall(line):
        if kind == 'r':
            ops.append(('r', k, v.strip('[]').split() if v.startswith('[') else []))
        else:
            ops.append(('a', k, v))
    txns.append((tid, st, ops))

blocks = {}                      # key -> {txn: [values]}
reads = []                       # (txn, status, key, full list, prefix length, read index in txn)
for tid, st, ops in txns:
    own = {}
    for kind, k, v in ops:
        if kind == 'a':
            own.setdefault(k, []).append(v)
            if st != 'fail':
                blocks.setdefault(k, {}).setdefault(tid, []).append(v)
        else:
            o = own.get(k, [])
            ext = len(v) - len(o) if o and len(o) <= len(v) and v[len(v) - len(o):] == o else len(v)
            reads.append((tid, st, k, v, ext))

def segs(k):
    rs = [r for r in reads if r[2] == k and r[1] == 'ok']
    if not rs:
        return None, []
    L = max((r[3][:r[4]] for r in rs), key=len)
    bounds = {len(L)} | {r[4] for r in rs if r[3][:r[4]] == L[:r[4]]}
    start_min, exact = {}, {}
    for t, st, kk, l, e in reads:
        if kk != k or st == 'fail' or t not in blocks.get(k, {}):
            continue
        start_min[t] = max(start_min.get(t, 0), e)
        if level in ('ser', 'si') and l[:e] == L[:e]:
            exact[t] = e if exact.get(t, e) == e else -1
    must = {}
    for t, p in exact.items():
        if p < len(L) and p >= 0 and any(x[0] == t and x[1] == 'ok' for x in txns):
            must[p] = t if must.get(p, t) == t else None
    out = []
    def walk(pos, used, acc):
        if pos == len(L):
            out.append(list(acc))
            return
        for t, b in sorted(blocks.get(k, {}).items(), key=lambda x: int(x[0])):
            e = pos + len(b)
            if t in used or L[pos:e] != b or pos < start_min.get(t, 0):
                continue
            if any(bb > pos and bb < e for bb in bounds):
                continue
            if t in exact and exact[t] != pos:
                continue
            if pos in must and must[pos] != t:
                continue
            walk(e, used | {t}, acc + [t] * len(b))
    walk(0, set(), [])
    return L, out

def appenders(k, v):
    return {t for t, b in blocks.get(k, {}).items() if v in b}

seg = {k: segs(k) for k in blocks}

def chosen(t, k, p):
    """Is element p of txn t's read of k (its first read) an element whose appender is a choice?"""
    r = next((r for r in reads if r[0] == t and r[2] == k), None)
    if r is None or p >= r[4]:
        return False
    L, ss = seg.get(k, (None, []))
    if ss and r[3][:p + 1] == L[:p + 1]:
        return len({s[p] for s in ss}) > 1
    return len(appenders(k, r[3][p])) > 1

def version_chosen(t, k):
    r = next((r for r in reads if r[0] == t and r[2] == k), None)
    return r is not None and r[4] > 0 and k in blocks and chosen(t, k, r[4] - 1)

def listed_chosen(x, k, a, b):
    r = next((r for r in reads if r[0] == x and r[2] == k), None)
    if r is None or k not in blocks:
        return False
    return any(chosen(x, k, p) and (appenders(k, r[3][p]) & {a, b}) for p in range(r[4]))

bad = checked = hedged = 0
def expect(want, got, what):
    global bad, checked, hedged
    checked += 1
    hedged += want
    if want != got:
        bad += 1
        print('MISMATCH (%s, report %s): %s' % ('assumed' if want else 'established', 'hedged' if got else 'plain', what))

T = r'(?:txn (\d+)|INIT)'
for line in open(rep):
    for m in re.finditer(r'txn (\d+) read (\S+?)=\[[^\]]*\]( \(snapshot \[[^\]]*\]\))?(,? assumed written by| written by|, which| \(its writer assumed\))', line):
        t, k, how = m.group(1), m.group(2), m.group(4)
        if k not in blocks:
            continue
        expect(version_chosen(t, k), 'assumed' in how, line.strip())
    m = re.search(r'(forced given the writers assumed|forced): txn (\d+)\'s read (\S+?)=\[[^\]]*\] lists ' + T + r"'s \S+ (?:before|but not) " + T + "'s", line)
    if m and m.group(3) in blocks:
        expect(listed_chosen(m.group(2), m.group(3), m.group(4) or '0', m.group(5) or '0'), 'assumed' in m.group(1), line.strip())
    m = re.search(T + r"'s (\S+) precedes " + T + r"'s: txn (\d+)'s read \S+?=\[[^\]]*\] lists it so( \(assumed)?", line)
    if m and m.group(2) in blocks:
        expect(listed_chosen(m.group(4), m.group(2), m.group(1) or '0', m.group(3) or '0'), bool(m.group(5)), line.strip())

if js:
    doc = json.load(open(js))
    def edges(x):
        if isinstance(x, dict):
            if 'kind' in x and 'text' in x and 'from' in x:
                yield x
            for v in x.values():
                yield from edges(v)
        elif isinstance(x, list):
            for v in x:
                yield from edges(v)
    for e in edges(doc):
        if e['key'] not in blocks:
            continue
        rest = [str(e['to'])] if e['kind'] == 'WR' else [str(e['from'])] if e['kind'] == 'RW' else []
        b = e.get('basis') or {}
        if b.get('kind') == 'read-modify-write' and e['kind'] in ('WW', 'RW'):
            rest.append(str(b['after']))     # the overwriter read the version it overwrote
        if rest:
            expect(any(version_chosen(r, e['key']) for r in rest), bool(e.get('assumed_writer')), 'JSON ' + e['text'])

print('%d statements checked, %d resting on a chosen appender, %d mismatches' % (checked, hedged, bad))
sys.exit(1 if bad else 0)
