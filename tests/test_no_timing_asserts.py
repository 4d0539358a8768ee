"No test asserts on wall-clock time or on a speed ratio: such a test fails on a busy machine for no fault of the code."
import json, re
import pytest
from conftest import ROOT

# an assert, test_eq or test comparison whose line names a time or a ratio
TIMING = re.compile(r'(?:^|[\s:;])assert\b[^\n]*(?:\b(?:\w*_s|\w*_ms|\w*_?secs?|\w*seconds|elapsed\w*|wall\w*|\w*ratio\w*|\w*latency\w*|duration\w*)\b|perf_counter\(|time\.time\(|monotonic\()[^\n]*[<>]')
ALLOWED = {'ratio_strength', 'ratio_strength_plain'}   # exp. 1: a ratio of memory strengths, not of times
# notebooks (paths under nbs/) owned by work in progress; emptied once their fixes are merged
PENDING = set()

def timing_asserts(src:str)->list[str]:
    "The lines of `src` that assert on a time or a speed ratio."
    return [l.strip() for l in src.split('\n') if (m := TIMING.search(l)) and not set(re.findall(r'\w+', l)) & ALLOWED]

def test_the_pattern():
    assert timing_asserts("assert cli_s < 20/3, cli_s")
    assert timing_asserts("for m in ms: assert L10[m]['ratio'] < 3 and L10[m]['ratio_col'] < 3")
    assert timing_asserts("assert time.perf_counter() - t0 < 1.5")
    assert timing_asserts("assert wall < 30, wall")
    assert timing_asserts("assert summ['total_seconds'] < 60, summ")
    assert timing_asserts("assert restart['fail_s'] < 10, restart['fail_s']")
    assert not timing_asserts("assert res['ratio_strength'] > 100*res['ratio_strength_plain']")
    assert not timing_asserts("test_eq(small['sizes'][1]['gate_fired_share'], 0.5)")

NBS = ROOT/'nbs'

def found_in(nbs)->list[str]:
    found = []
    for nb in nbs:
        for i, c in enumerate(json.loads(nb.read_text(encoding='utf-8'))['cells']):
            if c['cell_type'] == 'code': found += [f'{nb.relative_to(NBS).as_posix()} cell {i}: {l}' for l in timing_asserts(''.join(c['source']))]
    return found

def notebooks()->list:
    "Every notebook under nbs/, in its folders."
    return [p for p in sorted(NBS.rglob('*.ipynb')) if not any(q.startswith('.') for q in p.relative_to(NBS).parts)]

def test_every_notebook_is_searched():
    assert {'memory/00_decay.ipynb', 'experiments/30_speed.ipynb', 'index.ipynb'} <= {p.relative_to(NBS).as_posix() for p in notebooks()}

def test_no_notebook_asserts_on_time():
    found = found_in(p for p in notebooks() if p.relative_to(NBS).as_posix() not in PENDING)
    assert not found, 'timing assertions (report the figure instead):\n' + '\n'.join(found)

@pytest.mark.xfail(bool(PENDING), reason=f'timing assertions still in {sorted(PENDING)} (other work in progress)', strict=False)
def test_pending_notebooks_are_fixed():
    assert not found_in(NBS/n for n in sorted(PENDING) if (NBS/n).exists())
