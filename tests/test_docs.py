"""The documentation: sidebar.yml and README.md up to date, the offline site builds and passes the static and browser checks.

The site is built once per session (all notebooks executed) into a temporary folder, unless $PERSODE_DOCS_SITE names a
site already built by `persode docs` (CI builds it first and points the tests at it, so notebooks are not run twice).
"""
import os, sys, tempfile
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # persode may or may not be pip-installed
os.environ['PYTHONPATH'] = os.pathsep.join([str(ROOT)] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p])
from persode import docs

def test_sidebar_is_current():
    assert not docs.write_sidebar(ROOT/'nbs', check=True), 'nbs/sidebar.yml is stale: run `persode docs --sidebar` and commit it'

def test_readme_is_current():
    assert not docs.write_readme(ROOT, check=True), 'README.md is stale: run `persode docs --readme` and commit README.md and README_files/'

@pytest.fixture(scope='session')
def site():
    given = os.environ.get('PERSODE_DOCS_SITE')
    if given:
        assert (Path(given)/'index.html').exists(), f'$PERSODE_DOCS_SITE={given} has no index.html'
        return Path(given), None
    tmp = Path(tempfile.mkdtemp(prefix='persode-docs-'))
    rep = docs.build_docs(ROOT, tmp/'_docs', proc=tmp/'_proc', workers=2)
    return tmp/'_docs', rep

def test_docs_build(site):
    out, rep = site
    expected = ['index.html'] + [docs.page_name(p) for _, g in docs.doc_notebooks(ROOT/'nbs') for p in g]
    problems = docs.check_site(out, expected)
    if rep is not None: problems += [f'{k} failed to run:\n{v}' for k, v in rep['failures'].items()]
    assert not problems, '\n'.join(problems)

@pytest.mark.skipif(not docs.find_chromium(), reason='no Chromium at /usr/bin/chromium ($CHROMIUM): apt-get install -y chromium chromium-driver')
def test_docs_in_browser(site):
    out, _ = site
    shots = os.environ.get('PERSODE_DOCS_SHOTS') or str(ROOT/'.ci'/'artifacts'/'docs-screenshots')
    r = docs.browser_check(out, shots)
    print(f'screenshots in {r["shots"]}')
    assert r['pages'] >= 2
    assert not r['problems'], '\n'.join(r['problems'])
    assert (Path(r['shots'])/'index.png').exists()
