"One pytest test per notebook: each runs `nbdev_test --path <nb>` in a subprocess (safe under `pytest -n 2`)."
import os, subprocess, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT/'nbs'
NOTEBOOKS = sorted(p.name for p in NBS.glob('*.ipynb') if not p.name.startswith(('_', '.')))

def _env():
    env = dict(os.environ)
    # works whether or not persode is pip-installed: the repo root comes first on the import path
    env['PYTHONPATH'] = os.pathsep.join([str(ROOT)] + [p for p in env.get('PYTHONPATH', '').split(os.pathsep) if p])
    env.setdefault('MPLBACKEND', 'Agg')
    return env

def _nbdev_test():
    exe = Path(sys.executable).with_name('nbdev_test')
    return [str(exe)] if exe.exists() else [sys.executable, '-c', 'from nbdev.test import nbdev_test; nbdev_test()']

@pytest.mark.parametrize('nb', NOTEBOOKS)
def test_notebook(nb):
    # one worker per notebook: pytest-xdist already runs two notebooks at a time on a 2-core machine
    cmd = _nbdev_test() + ['--path', str(NBS/nb), '--n_workers', '1', '--do_print']
    r = subprocess.run(cmd, cwd=NBS, env=_env(), capture_output=True, text=True, timeout=1800)
    out = (r.stdout + '\n' + r.stderr).strip()
    if r.returncode != 0 or 'nbdev Tests Failed' in out:
        pytest.fail(f'{nb} failed (exit {r.returncode}):\n{out[-20000:]}', pytrace=False)
