"""Speed of the list of all entries and of the whole-word search (`JournalDB.entries`, `count_entries`) at 100k entries,
on a SQLite journal and on PostgreSQL (a temporary server), with the deep page also read the usual way (LIMIT/OFFSET,
the alternative to the keyset cursor) in the same run. Numbers are written to a JSON file and printed, never asserted.

The journal is filled in bulk through the storage contract's `insert_rows` (one transaction): 100k synthetic entries
over five years (15 words each from a 400-word vocabulary with a Zipf-like spread, one made-up word in 10 entries,
an emotion from the analyzer's list, two hashtags), and random 512-d unit vectors recorded under the hashing
embedder's identity (the list and the word search never read vectors; embedding 100k texts would only slow the fill).

    PYTHONPATH=. python tools/bench_find.py [--n 100000] [--repeats 30] [--out nbs/experiments/results/find_speed.json]
"""
import argparse, json, os, statistics, sqlite3, tempfile, shutil, time
from datetime import datetime, timedelta, timezone
from pathlib import Path
import numpy as np
from persode.memory.analyzer import EMOTIONS
from persode.memory.embeddings import HashingEmbedder
from persode.memory.strength import Memory
from persode.storage import open_journal, mem_rows

USER, T0 = 'bench', datetime(2021, 1, 1, tzinfo=timezone.utc)

def entries(n:int, seed:int=0)->list:
    "n synthetic entries, oldest first (see the module's doc)."
    rng = np.random.default_rng(seed)
    vocab = [f'{a}{b}' for a in ('walk', 'sea', 'work', 'rain', 'book', 'cat', 'train', 'coffee', 'garden', 'music',
                                 'friend', 'sister', 'dinner', 'river', 'market', 'letter', 'window', 'bread', 'song', 'hill')
             for b in ('', 's', 'ed', 'ing', 'er', 'y', 'ful', 'less', 'ish', 'ward', 'ly', 'ness', 'hood', 'ment', 'ist', 'ism',
                       'ous', 'ive', 'al', 'ic')]
    p = 1/np.arange(1, len(vocab) + 1); p /= p.sum()
    W = rng.choice(len(vocab), size=(n, 15), p=p)
    rare = set(rng.choice(n, 10, replace=False).tolist())
    days = np.sort(rng.uniform(0, 5*365, n))
    emo = rng.choice(len(EMOTIONS), n)
    out = []
    for i in range(n):
        words = [vocab[k] for k in W[i]]
        if i in rare: words[7] = 'zeppelin'
        text = ' '.join(words).capitalize() + '.'
        out.append(Memory(f'b{i:06d}', text, T0 + timedelta(days=float(days[i])), float(rng.uniform()), EMOTIONS[emo[i]], 0.,
                          '', (f'#{EMOTIONS[emo[i]]}', f'#{words[0]}')))
    return out

def fill(db, mems, dim:int=512, batch:int=20_000, seed:int=1):
    "Bulk insert through the contract, `batch` rows per transaction."
    rng, ident = np.random.default_rng(seed), HashingEmbedder(dim).identity
    for i in range(0, len(mems), batch):
        V = rng.standard_normal((len(mems[i:i+batch]), dim)).astype(np.float32); V /= np.linalg.norm(V, axis=1, keepdims=True)
        db.insert_rows(USER, ident, dim, mem_rows(mems[i:i+batch], V))

def stats(xs:list)->dict:
    xs = sorted(xs)
    return dict(median_ms=round(1e3*statistics.median(xs), 2), p95_ms=round(1e3*xs[min(len(xs) - 1, int(0.95*len(xs)))], 2))

def cases(mems)->dict:
    "name -> callable(db) of what the pages ask for."
    newest = sorted(mems, key=lambda m: (m.created_at.timestamp(), m.id), reverse=True)
    deep = newest[len(newest)//2 - 1]
    cur = f'{deep.created_at.timestamp()!r}~{deep.id}'
    month = dict(start=datetime(2024, 3, 1, tzinfo=timezone.utc), end=datetime(2024, 4, 1, tzinfo=timezone.utc))
    return {
        'list: newest page': lambda db: db.entries(USER),
        'list: page in the middle (keyset cursor)': lambda db: db.entries(USER, before=cur),
        'count all': lambda db: db.count_entries(USER),
        'search: common word': lambda db: db.entries(USER, q='walk'),
        'search: two words': lambda db: db.entries(USER, q='sea rain'),
        'search: rare word (10 entries)': lambda db: db.entries(USER, q='zeppelin'),
        'search: word absent': lambda db: db.entries(USER, q='unicorn'),
        'search: hashtag': lambda db: db.entries(USER, tag='garden'),
        'search: feeling': lambda db: db.entries(USER, emotion='pride'),
        'search: one month': lambda db: db.entries(USER, **month),
        'search: word + feeling + month': lambda db: db.entries(USER, q='walk', emotion='joy', **month),
        'count: common word': lambda db: db.count_entries(USER, q='walk'),
        'count: common word, up to 1,000 (as the search page)': lambda db: db.count_entries(USER, q='walk', upto=1000),
        'count: rare word, up to 1,000': lambda db: db.count_entries(USER, q='zeppelin', upto=1000),
        'count: rare word': lambda db: db.count_entries(USER, q='zeppelin'),
    }

def offset_page(kind:str, target:str, offset:int):
    "The alternative to the cursor: the same page by LIMIT/OFFSET, on a connection of its own."
    if kind == 'sqlite':
        con = sqlite3.connect(target)
        return lambda db: con.execute('SELECT id, text, created, intensity, emotion, valence, event, hashtags FROM memories WHERE user_id=? '
                                      'ORDER BY created DESC, id DESC LIMIT 25 OFFSET ?', (USER, offset)).fetchall()
    import psycopg
    con = psycopg.connect(target, autocommit=True)
    return lambda db: con.execute('SELECT id, text, created_at, intensity, emotion, valence, event, hashtags FROM persode_memories WHERE user_id=%s '
                                  'ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT 25 OFFSET %s', (USER, offset)).fetchall()

def measure(db, cs:dict, repeats:int)->dict:
    for f in cs.values(): f(db)                      # warm the caches once
    lat = {k: [] for k in cs}
    for _ in range(repeats):                         # interleaved: every case sees the same machine load
        for k, f in cs.items():
            t = time.perf_counter(); f(db); lat[k].append(time.perf_counter() - t)
    return {k: stats(v) for k, v in lat.items()}

def run(n:int=100_000, repeats:int=30)->dict:
    mems = entries(n)
    cs = cases(mems)
    res = dict(n=n, repeats=repeats, cpus=os.cpu_count(), when=datetime.now(timezone.utc).strftime('%Y-%m-%d'),
               data='synthetic entries over five years, 15 words each; random 512-d unit vectors under the hashing embedder identity',
               fill={}, timings={})
    d = Path(tempfile.mkdtemp(prefix='persode-bench-find-'))
    try:
        with open_journal(d/'j.db') as db:
            t = time.perf_counter(); fill(db, mems); res['fill']['sqlite_s'] = round(time.perf_counter() - t, 1)
            assert db.count_entries(USER) == n and db.count_entries(USER, q='zeppelin') == 10
            res['timings']['sqlite'] = measure(db, {**cs, 'list: page in the middle (LIMIT/OFFSET)': offset_page('sqlite', str(d/'j.db'), n//2)}, repeats)
        from persode.testing.temp_postgres import temp_postgres
        with temp_postgres() as pg, open_journal(pg.url) as db:
            t = time.perf_counter(); fill(db, mems); res['fill']['postgres_s'] = round(time.perf_counter() - t, 1)
            with db.connection() as c: c.execute('ANALYZE persode_memories')
            assert db.count_entries(USER) == n and db.count_entries(USER, q='zeppelin') == 10
            res['timings']['postgres'] = measure(db, {**cs, 'list: page in the middle (LIMIT/OFFSET)': offset_page('postgres', pg.url, n//2)}, repeats)
    finally: shutil.rmtree(d, ignore_errors=True)
    for b, tm in res['timings'].items():
        res.setdefault('offset_over_keyset', {})[b] = round(tm['list: page in the middle (LIMIT/OFFSET)']['median_ms'] / tm['list: page in the middle (keyset cursor)']['median_ms'], 1)
    return res

if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--n', type=int, default=100_000); ap.add_argument('--repeats', type=int, default=30)
    ap.add_argument('--out', default=str(Path(__file__).resolve().parent.parent/'nbs'/'experiments'/'results'/'find_speed.json'))
    a = ap.parse_args()
    r = run(a.n, a.repeats)
    Path(a.out).write_text(json.dumps(r, indent=1) + '\n')
    for b, tm in r['timings'].items():
        for k, v in tm.items(): print(f'{b:9} {k:45} median {v["median_ms"]:8.2f} ms   p95 {v["p95_ms"]:8.2f} ms')
    print('LIMIT/OFFSET over keyset (page in the middle):', r['offset_over_keyset'], '| fill:', r['fill'])
