"""A test run leaves the checkout as it found it: conftest.py compares `git status` before and after the session and
fails the run, naming the files, when a test wrote into the repository. Checked here on a throw-away repository."""
import shutil, subprocess, sys
from pathlib import Path
import pytest
from conftest import ROOT

needs_git = pytest.mark.skipif(shutil.which('git') is None, reason='git is not installed')

def _repo(tmp:Path, test_body:str)->Path:
    (tmp/'tests').mkdir(parents=True)
    shutil.copy2(ROOT/'tests'/'conftest.py', tmp/'tests'/'conftest.py')
    (tmp/'tests'/'test_one.py').write_text(f'from pathlib import Path\n\ndef test_one():\n    {test_body}\n')
    (tmp/'tracked.txt').write_text('as committed\n')
    git = lambda *a: subprocess.run(['git', '-c', 'user.name=t', '-c', 'user.email=t@t', *a], cwd=tmp, check=True, capture_output=True)
    git('init', '-q'); git('add', '-A'); git('commit', '-qm', 'start')
    return tmp

def _pytest(repo:Path):
    return subprocess.run([sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'], cwd=repo, capture_output=True, text=True)

@needs_git
def test_a_run_that_writes_into_the_checkout_fails(tmp_path):
    r = _pytest(_repo(tmp_path, "(Path(__file__).parents[1]/'tracked.txt').write_text('rewritten\\n'); (Path(__file__).parents[1]/'new.json').write_text('{}')"))
    assert r.returncode == 1, r.stdout
    assert 'the test run changed the checkout' in r.stdout and 'M tracked.txt' in r.stdout and '?? new.json' in r.stdout, r.stdout

@needs_git
def test_a_clean_run_passes(tmp_path):
    r = _pytest(_repo(tmp_path, "import tempfile; (Path(tempfile.mkdtemp())/'scratch.txt').write_text('fine')"))
    assert r.returncode == 0 and 'changed the checkout' not in r.stdout, r.stdout
