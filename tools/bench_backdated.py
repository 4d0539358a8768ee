"""Query latency of `retrieve` at 100k memories (random 512-d unit vectors, hashing-embedder store): the same queries at
a time after every memory and at a backdated time (half the memories formed later), interleaved query by query so
both see the same machine load; in memory and on a SQLite journal. Numbers are printed, never asserted.

    PYTHONPATH=. python tools/bench_backdated.py                 # this checkout
    git archive <commit> persode | tar -x -C /tmp/old            # an older checkout, which refuses backdated queries:
    PYTHONPATH=/tmp/old python tools/bench_backdated.py --in-time-only
"""
import sys, time, statistics, tempfile, shutil
import numpy as np
from datetime import datetime, timedelta, timezone
from persode.recall.store import MemoryStore
from persode.memory.embeddings import HashingEmbedder
from persode.memory.analyzer import Analysis
from persode.storage import open_journal

def main(in_time_only:bool=False, n:int=100_000, queries:int=100):
    rng, e = np.random.default_rng(0), HashingEmbedder()
    V = rng.standard_normal((n, e.dim)).astype(np.float32)
    t0 = datetime(2020, 1, 1, tzinfo=timezone.utc)
    ats = [t0 + timedelta(days=float(o)) for o in np.sort(rng.uniform(0, 3650, n))]
    an = [Analysis('x', 'x', 'neutral', float(x), 0.) for x in rng.uniform(0, 1, n)]
    texts = [f'memory {i}' for i in range(n)]
    Q = rng.standard_normal((queries, e.dim)).astype(np.float32); Q /= np.linalg.norm(Q, axis=1, keepdims=True)
    qa, d = Analysis('q', 'q', 'neutral', 0.1, 0.), tempfile.mkdtemp(prefix='persode-bench-')
    mem = MemoryStore(e); mem.add_many(texts, ats, analyses=an, embeddings=V)
    with open_journal(f'{d}/j.db') as j: j.store_for('u', e).add_many(texts, ats, analyses=an, embeddings=V)
    j = open_journal(f'{d}/j.db')
    times = {'after every memory': ats[-1] + timedelta(days=1)} | ({} if in_time_only else {'backdated': ats[n//2]})
    for name, s in (('memory', mem), ('sqlite', j.store_for('u', e))):
        for strat in ('similarity', 'fused'):
            lat = {k: [] for k in times}
            for q in Q:
                for k, t in times.items():
                    x = time.perf_counter(); s.retrieve(None, t, 5, strat, reinforce=False, query_embedding=q, query_analysis=qa)
                    lat[k].append(time.perf_counter() - x)
            print(f'{name:7} {strat:10} ' + '  '.join(f'{k}: median {1e3*statistics.median(v):.2f} ms (min {1e3*min(v):.2f})' for k, v in lat.items()))
    j.close(); shutil.rmtree(d, ignore_errors=True)

if __name__ == '__main__': main('--in-time-only' in sys.argv)
