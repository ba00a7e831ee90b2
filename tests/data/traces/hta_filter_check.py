# Independent check of --hta-compat: HTA's parser (hta/common/trace.py,
# _filter_irrelevant_gpu_kernels) keeps the device kernels whose "correlation" arg was
# launched by a CPU event starting before the last ProfilerStep. Prints the kept kernel
# count and their span (last end - first start) in microseconds.
# Usage: python3 hta_filter_check.py TRACE.json.gz
import gzip, json, sys
from decimal import Decimal
ev = json.load(gzip.open(sys.argv[1]), parse_float=Decimal)['traceEvents']
device = {'kernel', 'gpu_memcpy', 'gpu_memset'}
steps = [e['ts'] for e in ev if e.get('ph') == 'X' and str(e.get('name', '')).startswith('ProfilerStep')]
last = max(steps)
launched = {e['args']['correlation'] for e in ev
            if e.get('ph') == 'X' and e.get('cat') not in device and e.get('cat') != 'gpu_user_annotation'
            and e['ts'] < last and 'correlation' in e.get('args', {})}
kept = [e for e in ev if e.get('ph') == 'X' and e.get('cat') in device and e.get('args', {}).get('correlation') in launched]
print('steps', len(steps), 'kernels kept', len(kept),
      'span_us', max(e['ts'] + e['dur'] for e in kept) - min(e['ts'] for e in kept))
