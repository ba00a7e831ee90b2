# Independent check of cpu_op self/total, ac2g launch delay and queue length (HTA rules),
# straight from the raw Kineto JSON with exact decimal microseconds.
import gzip, json, sys, collections
from decimal import Decimal
d = json.load(gzip.open(sys.argv[1]), parse_float=Decimal)
ev = d['traceEvents']
ns = lambda v: int(Decimal(str(v)) * 1000)
ops = collections.defaultdict(list)
for e in ev:
    if e.get('ph') == 'X' and e.get('cat') == 'cpu_op':
        ops[(e['pid'], e['tid'])].append((ns(e['ts']), ns(e.get('dur', 0)), e['name']))
tot = collections.Counter(); self_ = collections.Counter(); cnt = collections.Counter()
for k, lst in ops.items():
    lst.sort(key=lambda x: (x[0], -x[1]))
    stack = []
    def close(o):
        tot[o[2]] += o[1]; self_[o[2]] += max(0, o[1] - o[3]); cnt[o[2]] += 1
    for s, dur, name in lst:
        while stack and stack[-1][0] + stack[-1][1] <= s:
            close(stack.pop())
        if stack:
            stack[-1][3] += min(dur, stack[-1][0] + stack[-1][1] - s)
        stack.append([s, dur, name, 0])
    while stack: close(stack.pop())
top = sorted(self_.items(), key=lambda x: -x[1])[:3]
for n, v in top: print('cpu_op', n, 'count', cnt[n], 'total_ns', tot[n], 'self_ns', v)
# ac2g: flow start (ph s) binds to the enclosing runtime event; flow finish (ph f) to the kernel
starts = {}; ends = {}
for e in ev:
    if e.get('cat') == 'ac2g' and e.get('ph') in ('s', 'f'):
        (starts if e['ph'] == 's' else ends)[e['id']] = e
runtime = {}; kernels = {}
for e in ev:
    if e.get('ph') != 'X': continue
    c = e.get('cat')
    corr = e.get('args', {}).get('correlation')
    if corr is None: continue
    if c in ('cuda_runtime', 'cuda_driver'): runtime[corr] = e
    elif c in ('kernel', 'gpu_memcpy', 'gpu_memset'): kernels[corr] = e
delays = collections.defaultdict(list); q = collections.defaultdict(list)
for corr, k in kernels.items():
    r = runtime.get(corr)
    if r is None or corr not in starts: continue
    st = k['args'].get('stream', k['tid'])
    delays[st].append(ns(k['ts']) - (ns(r['ts']) + ns(r['dur'])))
    q[st] += [(ns(r['ts']), 1), (ns(k['ts']) + ns(k['dur']), -1)]
for st in sorted(delays, key=lambda s: -len(delays[s])):
    ds = sorted(delays[st]); ev2 = sorted(q[st]); depth = 0; mx = 0
    for i, (t, dlt) in enumerate(ev2):
        depth += dlt
        if i + 1 < len(ev2) and ev2[i + 1][0] == t: continue
        mx = max(mx, depth)
    print('stream', st, 'launches', len(ds), 'mean_delay_ns', sum(ds) / len(ds), 'max_delay_ns', ds[-1], 'max_queue', mx)
