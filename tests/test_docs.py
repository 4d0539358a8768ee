"""The documentation: sidebar.yml and README.md are fresh, and the site built earlier in the run is sound.

The site is not built here: building it runs every notebook (and, in CI, the full experiment reruns), which is the
job of `python tools/docs.py build`. CI builds it first and names it in $PERSODE_DOCS_SITE; without it the site test
is skipped and says how to build one.
"""
import os, re
from pathlib import Path
import pytest
import docs
from conftest import ROOT

def test_sidebar_is_current():
    assert not docs.write_sidebar(ROOT/'nbs', check=True), 'nbs/sidebar.yml is stale: run `python tools/docs.py sidebar` and commit it'

def test_readme_is_current():
    assert not docs.write_readme(ROOT, check=True), 'README.md is stale: run `python tools/docs.py readme` and commit README.md and README_files/'

def test_the_package_ships_no_docs_tooling():
    "The docs builder lives in tools/, not in the installed package, and the module index has no stale entry for it."
    assert not (ROOT/'persode'/'docs.py').exists()
    from persode._modidx import d
    assert not [m for m in d['syms'] if m == 'persode.docs' or m.startswith('persode.docs.')]
    assert not list((ROOT/'nbs').rglob('*_docs.ipynb'))

def test_ci_runs_the_readmes_test_command_on_a_bare_clone():
    "What a newcomer runs is what CI runs: on a fresh clone with nothing beside it and PERSODE_DATA unset; the log ends with its summary."
    m = re.search(r'pip install torch==2\.13\.0 && pip install -e "\.\[dev\]" && pytest[^\n`]*', (ROOT/'README.md').read_text())
    assert m, 'README.md has no install-and-test command'
    ci = (ROOT/'.ci'/'run').read_text()
    lines = [l.strip() for l in ci.splitlines() if l.strip() and not l.strip().startswith('#')]
    run = [i for i, l in enumerate(lines) if l.startswith(m.group(0).strip() + ' ')]
    assert len(run) == 1, 'the README command must appear once in .ci/run, as written'
    before = lines[:run[0]]
    assert any(l.startswith('git clone -q "$ROOT" "$BARE/persode"') for l in before) and 'cd "$BARE/persode"' in before
    assert any(l.startswith('unset PERSODE_DATA') for l in before)
    assert 'tee "$CI_ARTIFACTS/pytest.log"' in lines[run[0]]
    assert lines[-2:] == ['echo "${SUMMARY:-pytest printed no summary line (exit $pytest_rc)}"', '[ "$fail" -eq 0 ] && [ "$pytest_rc" -eq 0 ]'], lines[-2:]
    assert 'git status --porcelain --untracked-files=all' in ci

SITE = os.environ.get('PERSODE_DOCS_SITE')

@pytest.mark.skipif(not SITE, reason='no built site: run `python tools/docs.py build --browser` and set PERSODE_DOCS_SITE=_docs')
def test_built_site():
    site = Path(SITE)
    assert (site/'index.html').exists(), f'$PERSODE_DOCS_SITE={SITE} has no index.html'
    expected = ['index.html'] + [docs.page_name(p, ROOT/'nbs') for _, g in docs.doc_notebooks(ROOT/'nbs') for p in g]
    problems = docs.check_site(site, expected)
    assert not problems, '\n'.join(problems)

REPORT = os.environ.get('PERSODE_DOCS_REPORT')

@pytest.mark.skipif(not REPORT, reason='no build report: `python tools/docs.py build --browser --json FILE`, then PERSODE_DOCS_REPORT=FILE')
def test_build_report():
    "The build that made the site (in CI: with the full experiment reruns): every notebook ran, every page passed in Chromium."
    import json
    rep = json.loads(Path(REPORT).read_text())
    assert not rep['failures'], '\n\n'.join(f'{k}:\n{v[-3000:]}' for k, v in rep['failures'].items())
    assert not rep['problems'], '\n'.join(rep['problems'])
    assert 'browser' in rep, 'the build ran without --browser'
    assert rep['browser']['pages'] >= len(rep['pages']) and not rep['browser']['problems'], '\n'.join(rep['browser']['problems'])
    assert (Path(rep['browser']['shots'])/'index.png').exists()

def test_the_site_links_no_repository_while_there_is_none():
    "settings.ini names no repository (`git_url` empty), so the site's header, its 'Report an issue' links and its source links name none either."
    ini = (ROOT/'settings.ini').read_text()
    assert re.search(r'^git_url\s*=\s*$', ini, re.M), 'settings.ini names a repository: link it from the site as well'
    for f in ('_quarto.yml', 'nbdev.yml'):
        y = (ROOT/'nbs'/f).read_text()
        for s in ('github.com', 'repo-url', 'repo-actions', 'icon: github'): assert s not in y, f'nbs/{f} still holds {s!r}'
