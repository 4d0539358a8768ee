"""One pytest test per notebook: each runs the notebook's tests in a subprocess (safe under `pytest -n 2`), as
`nbdev_test --path <nb>` does (`run_nb` in tools/docs.py: every cell in order from the notebook's folder, `IN_TEST` set).

Cells flagged `#| slow` (the full experiment reruns) are skipped, as `nbdev_test` skips them by default; they run with
`nbdev_test --flags slow` and in CI's docs build (`python tools/docs.py build --slow`). With `PERSODE_EXECUTED=DIR` the
executed notebooks are kept in DIR, so that `python tools/docs.py build --executed DIR` renders the site from this run
instead of running every notebook again.
"""
import os, subprocess, sys
from pathlib import Path
import pytest
from persode.core.child import child_env   # the repository root first on the children's PYTHONPATH (conftest puts it on ours)

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT/'nbs'
# the longest notebooks start first, so that two workers finish at about the same time
LONGEST = ('experiments/14_exp5_locomo', 'experiments/17_fusion', 'experiments/16_intensity', 'storage/04_postgres',
           'experiments/15_exp6_epirec')
NOTEBOOKS = sorted((p.relative_to(NBS).as_posix() for p in NBS.rglob('*.ipynb')
                    if not any(part.startswith(('_', '.')) for part in p.relative_to(NBS).parts)),
                   key=lambda n: (LONGEST.index(n[:-6]) if n[:-6] in LONGEST else len(LONGEST), n))

def test_the_longest_notebooks_come_first():
    present = [n for n in LONGEST if (NBS/f'{n}.ipynb').exists()]
    assert [n[:-6] for n in NOTEBOOKS[:len(present)]] == present

@pytest.mark.parametrize('nb', NOTEBOOKS)
def test_notebook(nb):
    # one notebook per worker: pytest-xdist already runs two notebooks at a time on a 2-core machine
    keep = os.environ.get('PERSODE_EXECUTED')
    cmd = [sys.executable, str(ROOT/'tools'/'docs.py'), '_run', str(NBS/nb), str(Path(keep).resolve()/nb) if keep else '-']
    r = subprocess.run(cmd, cwd=NBS, env=child_env(ROOT), capture_output=True, text=True, timeout=1800)
    out = (r.stdout + '\n' + r.stderr).strip()
    if r.returncode != 0: pytest.fail(f'{nb} failed (exit {r.returncode}):\n{out[-20000:]}', pytrace=False)
