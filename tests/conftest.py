"Shared by the tests: the repository root first on the import path (persode may or may not be pip-installed), and the repository's tools."
import os, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT/'tools', ROOT): sys.path.insert(0, str(p))
os.environ['PYTHONPATH'] = os.pathsep.join([str(ROOT)] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p])
os.environ.setdefault('MPLBACKEND', 'Agg')

# A test run leaves the checkout as it found it: the controller (not an xdist worker) compares `git status` before and after.
import subprocess

def _git_status():
    try: r = subprocess.run(['git', 'status', '--porcelain', '--untracked-files=all'], cwd=ROOT, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError): return None
    return r.stdout if r.returncode == 0 else None

def pytest_sessionstart(session):
    if not hasattr(session.config, 'workerinput'): session.config._persode_git = _git_status()

def pytest_sessionfinish(session, exitstatus):
    before = getattr(session.config, '_persode_git', None)
    if before is None: return                       # not a git checkout (or a worker)
    after = _git_status()
    if after is not None and after != before:
        changed = sorted(set(after.splitlines()) ^ set(before.splitlines()))
        session.config._persode_dirty = changed
        session.exitstatus = 1

def pytest_terminal_summary(terminalreporter, exitstatus, config):
    changed = getattr(config, '_persode_dirty', None)
    if changed: terminalreporter.write_line('the test run changed the checkout (no test may write into the repository):\n  ' + '\n  '.join(changed), red=True)
