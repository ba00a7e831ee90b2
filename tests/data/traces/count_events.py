#!/usr/bin/env python3
"""Independent counts for the trace import tests (json/gzip only, no importer code).

Usage: python3 count_events.py TRACE.json[.gz]...
Prints events, per-phase counts, X slices, kernels, instants (i/I other than
[memory]), memory counter samples, and flow links (s->f pairs by cat+id in time
order, or the one s and one f of an id whatever their order, whose both ends lie on
a slice of their thread: s/t and f with bp "e" bind to the deepest
slice containing ts, other f to the first slice starting at or after ts).
"""
import collections, gzip, json, sys


def load(path):
    raw = gzip.open(path).read() if path.endswith('.gz') else open(path, 'rb').read()
    doc = json.loads(raw)
    return doc['traceEvents'] if isinstance(doc, dict) else doc


def us_to_ns(v):
    # Decimal text to integer ns, like the importer (round half up past 3 decimals).
    from decimal import Decimal, ROUND_HALF_UP
    return int((Decimal(str(v)) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def count(path):
    ev = load(path)
    phases = collections.Counter(e.get('ph') for e in ev)
    threads = collections.defaultdict(list)
    memory = 0
    per_device = collections.Counter()
    instants = 0
    for e in ev:
        ph = e.get('ph')
        if ph == 'X' or (ph in ('i', 'I') and e.get('name') != '[memory]'):
            start = us_to_ns(e['ts'])
            dur = max(0, us_to_ns(e.get('dur', 0))) if ph == 'X' else 0
            threads[(str(e.get('pid')), str(e.get('tid')))].append((start, start + dur))
            instants += ph != 'X'
        elif ph in ('i', 'I'):
            a = e.get('args', {})
            memory += ('Total Allocated' in a) + ('Total Reserved' in a)
            per_device[(a.get('Device Type'), a.get('Device Id'))] += 1

    def bound(e):
        ts = us_to_ns(e['ts'])
        slices = threads.get((str(e.get('pid')), str(e.get('tid'))), [])
        if e['ph'] == 'f' and e.get('bp') != 'e':
            return any(s >= ts for s, _ in slices)
        return any(s <= ts <= t for s, t in slices)

    groups = collections.defaultdict(list)
    for e in ev:
        if e.get('ph') in ('s', 't', 'f'):
            groups[(e.get('cat'), str(e.get('id')))].append(e)
    links = 0
    for g in groups.values():
        g.sort(key=lambda e: us_to_ns(e['ts']))
        if [e['ph'] for e in g] == ['f', 's']:  # one end before its start: clock skew, still a pair
            g.reverse()
        start = None
        for e in g:
            if e['ph'] == 's':
                start = e
            elif start is not None:
                links += bound(start) and bound(e)
                start = e if e['ph'] == 't' else None
    kernels = sum(1 for e in ev if e.get('ph') == 'X' and e.get('cat') == 'kernel')
    print(path)
    print(f"  events {len(ev)} phases {dict(phases)}")
    print(f"  X {phases.get('X', 0)} kernels {kernels} instants {instants} memory_samples {memory} flow_links {links}")
    if per_device:
        print(f"  [memory] events per (Device Type, Device Id): {dict(per_device)}")


for p in sys.argv[1:]:
    count(p)
