"""One pytest test per notebook: each runs `nbdev_test --path <nb>` in a subprocess (safe under `pytest -n 2`).

Cells flagged `#| slow` (the full experiment reruns) are skipped, as `nbdev_test` skips them by default; they run with
`nbdev_test --flags slow` and in CI's docs build (`python tools/docs.py build --slow`).
"""
import os, subprocess, sys
from pathlib import Path
import pytest
from persode.child import child_env   # the repository root first on the children's PYTHONPATH (conftest puts it on ours)

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT/'nbs'
# the longest notebooks start first, so that two workers finish at about the same time
LONGEST = ('14_exp5_locomo', '17_fusion', '16_train_intensity', '04b_postgres', '15_exp6_epirec')
NOTEBOOKS = sorted((p.name for p in NBS.glob('*.ipynb') if not p.name.startswith(('_', '.'))),
                   key=lambda n: (LONGEST.index(n[:-6]) if n[:-6] in LONGEST else len(LONGEST), n))

def _nbdev_test():
    exe = Path(sys.executable).with_name('nbdev_test')
    return [str(exe)] if exe.exists() else [sys.executable, '-c', 'from nbdev.test import nbdev_test; nbdev_test()']

def test_the_longest_notebooks_come_first():
    present = [n for n in LONGEST if (NBS/f'{n}.ipynb').exists()]
    assert [n[:-6] for n in NOTEBOOKS[:len(present)]] == present

@pytest.mark.parametrize('nb', NOTEBOOKS)
def test_notebook(nb):
    # one worker per notebook: pytest-xdist already runs two notebooks at a time on a 2-core machine
    cmd = _nbdev_test() + ['--path', str(NBS/nb), '--n_workers', '1', '--do_print']
    r = subprocess.run(cmd, cwd=NBS, env=child_env(ROOT), capture_output=True, text=True, timeout=1800)
    out = (r.stdout + '\n' + r.stderr).strip()
    if r.returncode != 0 or 'nbdev Tests Failed' in out:
        pytest.fail(f'{nb} failed (exit {r.returncode}):\n{out[-20000:]}', pytrace=False)
