"""The docs tooling (`tools/docs.py`, `tools/browser.py`) on a tiny project made on the spot: the real site is built by
`python tools/docs.py build` in CI and checked by tests/test_docs.py."""
import json, shutil, subprocess, sys
from pathlib import Path
import pytest
import docs, browser
from conftest import ROOT

def _nb(cells)->str:
    return json.dumps({'cells': [{'cell_type': t, 'metadata': {}, 'source': s, **({'outputs': [], 'execution_count': None} if t == 'code' else {})}
                                 for t, s in cells], 'metadata': {}, 'nbformat': 4, 'nbformat_minor': 5})

# a 1x1 PNG, the picture a nested page shows from nbs/images
PNG = bytes.fromhex('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cf00000301010018dd8db00000000049454e44ae426082')

def mini_project(root:Path)->Path:
    "A throw-away nbdev project with this repo's settings and Quarto files: a front page, an experiment page in "
    "nbs/experiments/ and a memory page in nbs/memory/ that links to it by its bare name and shows a picture from nbs/images."
    (root/'nbs'/'experiments').mkdir(parents=True); (root/'nbs'/'memory').mkdir(); (root/'nbs'/'images').mkdir()
    (root/'nbs'/'images'/'dot.png').write_bytes(PNG)
    shutil.copy2(ROOT/'settings.ini', root/'settings.ini')
    for f in docs._PROJECT_FILES:
        if (ROOT/'nbs'/f).exists(): shutil.copy2(ROOT/'nbs'/f, root/'nbs'/f)
    (root/'nbs'/'index.ipynb').write_text(_nb([('markdown', '# Mini\n\n> A front page.'), ('markdown', 'See [the experiment](experiments/exp1_forgetting.html).'),
                                               ('code', 'print("hello from the front page")')]))
    (root/'nbs'/'memory'/'00_decay.ipynb').write_text(_nb([
        ('markdown', '# Decay\n\n> Forgetting curves.'),
        ('markdown', 'Measured in [experiment 1](exp1_forgetting.html#the-curve), drawn here: ![a dot](../images/dot.png); '
                     'its notebook is [10_exp1_forgetting](../experiments/10_exp1_forgetting.ipynb).'),
        ('code', 'print("decay page")')]))
    (root/'nbs'/'experiments'/'10_exp1_forgetting.ipynb').write_text(_nb([
        ('markdown', '# Experiment 1\n\n> Forgetting.'),
        ('markdown', '## The curve'),
        ('markdown', 'Retention is $e^{-\\lambda t}$ with $$\\lambda = \\tfrac{\\ln 4}{6} \\tag{1}$$'),
        ('code', 'import math\nprint(f"retention after 6 days: {math.exp(-math.log(4)):.2f}")'),
        ('code', 'import matplotlib.pyplot as plt\nfig, ax = plt.subplots(figsize=(3,2), dpi=80); ax.plot([0,6],[1,.25]);'),
        ('code', 'from IPython.display import Markdown'),
        ('code', 'Markdown("the curve of [decay](decay.html)")'),
        ('code', '#| slow\nprint("the full rerun")'),
        ('code', '#| eval: false\nraise RuntimeError("never runs")')]))
    return root

@pytest.fixture(scope='module')
def mini(tmp_path_factory):
    root = mini_project(tmp_path_factory.mktemp('docs')/'mini')
    rep = docs.build_docs(root, quiet=True)
    return root, rep

def test_page_names():
    "Pages are nested like the notebooks, with the number prefix dropped: the paths nbdev's doc links (persode/_modidx.py) use."
    assert docs.page_name('memory/00_decay.ipynb') == 'memory/decay.html'
    assert docs.page_name('recall/01_store.ipynb') == 'recall/store.html'
    assert docs.page_name('experiments/10_exp1_forgetting.ipynb') == 'experiments/exp1_forgetting.html'
    assert docs.page_name('index.ipynb') == 'index.html' and docs.page_name('library_shape.ipynb') == 'library_shape.html'
    assert docs.page_name(ROOT/'nbs'/'recall'/'01_store.ipynb', ROOT/'nbs') == 'recall/store.html'
    from persode._modidx import d
    assert d['syms']['persode.recall.store']['persode.recall.store.MemoryStore'][0].startswith('recall/store.html#')
    assert (ROOT/'nbs'/'recall'/'01_store.ipynb').exists()

def test_relink_leads_to_pages_at_any_depth():
    pages = {'store.html': ['recall/store.html'], 'views.html': ['recall/views.html', 'web/views.html'],
             'fusion.html': ['experiments/fusion.html'], 'index.html': ['index.html']}
    r = lambda md, page='experiments/fusion.html': docs.relink(md, page, pages)
    test = 'see [the store](store.html#scoring) and [fusion](17_fusion.ipynb)'
    assert r(test) == 'see [the store](../recall/store.html#scoring) and [fusion](fusion.ipynb)'
    assert r('[v](views.html)', 'web/app.html') == '[v](views.html)'                 # a name two pages share: the same folder's
    assert r('[v](views.html)') == '[v](views.html)'                                # ...or left as written (the check reports it)
    assert r('[s](recall/01_store.ipynb)', 'index.html') == '[s](recall/store.ipynb)'
    assert r('[s](../recall/01_store.ipynb)', 'web/app.html') == '[s](../recall/store.ipynb)'
    assert r('[home](index.html)', 'web/app.html') == '[home](../index.html)'
    for keep in ('[x](https://h.io/store.html)', '[x](/store.html)', '[x](#store)', '`store.html`', '![p](../images/a.png)'):
        assert r(keep) == keep

def test_unlink_code_keeps_links_in_prose_only():
    md = 'See [`Store`](store.html#store).\n\n```python\ndef f(\n    s, # a [`Store`](https://x.io/store.html#store)\n)\n```\n'
    out = docs.unlink_code(md)
    assert '[`Store`](store.html#store)' in out and '    s, # a `Store`\n' in out
    assert docs.unlink_code('no code [`a`](b.html)') == 'no code [`a`](b.html)' and docs.unlink_code('') == ''

def test_unnest_links_keeps_the_authors_link():
    test = 'once ([[`child_env`](https://x.io/child.html#child_env)](child.html) puts'
    assert docs.unnest_links(test) == 'once ([`child_env`](child.html) puts'
    assert docs.unnest_links('[`a`](b.html) and [[x]](y)') == '[`a`](b.html) and [[x]](y)'

def test_sidebar_has_one_section_per_folder_in_the_order_data_flows(tmp_path):
    "Folders in the order of the parts, any other folder after them, the notebooks at the top last; `_`/`.` names skipped."
    for n in ('index', 'library_shape', 'testing/01_testing', 'web/00_views', 'memory/01_strength', 'memory/00_decay',
              'core/00_text', 'experiments/10_exp1_forgetting', 'zoo/00_extra', '_scratch', 'memory/_draft', '.hidden/00_x'):
        (tmp_path/f'{n}.ipynb').parent.mkdir(parents=True, exist_ok=True); (tmp_path/f'{n}.ipynb').write_text('{}')
    groups = docs.doc_notebooks(tmp_path)
    assert [s for s, _ in groups] == ['Core', 'Memory', 'Experiments', 'Web', 'Testing', 'zoo', None]
    assert [p.name for p in groups[1][1]] == ['00_decay.ipynb', '01_strength.ipynb']
    assert [p.name for p in groups[-1][1]] == ['library_shape.ipynb']
    yml = docs.sidebar_yml(tmp_path)
    assert '_scratch' not in yml and '_draft' not in yml and 'hidden' not in yml
    assert '      - section: "Memory"\n        contents:\n          - memory/00_decay.ipynb\n' in yml
    assert yml.endswith('      - library_shape.ipynb\n')
    assert 'experiments/exp1_forgetting.ipynb' in docs.sidebar_yml(tmp_path, pages=True)
    assert docs.write_sidebar(tmp_path) and not docs.write_sidebar(tmp_path, check=True)

def test_the_sidebar_follows_the_parts_of_the_package():
    "Every folder of nbs/ with notebooks is a part of the package, and the parts come in the order data flows."
    secs = [s for s, _ in docs.doc_notebooks(ROOT/'nbs')]
    assert secs == [t for _, t in docs.PARTS] + [None]
    assert [p.name for p in docs.doc_notebooks(ROOT/'nbs')[-1][1]] == ['library_shape.ipynb']

def test_no_notebook_named_after_the_old_docs_module():
    assert 'docs' not in {docs.page_name(p, ROOT/'nbs')[:-5].rsplit('/')[-1] for _, g in docs.doc_notebooks(ROOT/'nbs') for p in g}

def test_build_runs_renders_and_checks(mini):
    root, rep = mini
    assert rep['failures'] == {} and rep['problems'] == [] and rep['warnings'] == []
    assert rep['pages'] == ['index.html', 'memory/decay.html', 'experiments/exp1_forgetting.html']
    page = (root/'_docs'/'experiments'/'exp1_forgetting.html').read_text()
    assert 'retention after 6 days: 0.25' in page and 'data:image/png;base64' in page   # a real output and figure
    assert page.count('class="pd-math"') == 2 and '(1)' in page and 'katex' not in page  # equations typeset offline
    assert 'never runs' in page and 'RuntimeError: never runs' not in page               # eval: false shown, not run
    assert 'print(&quot;the full rerun&quot;)' in page or 'the full rerun' in page       # the slow cell is shown...
    assert '<pre><code>the full rerun' not in page and 'the full rerun\n</code>' not in page  # ...but not run
    assert (root/'nbs'/'sidebar.yml').read_text() == docs.sidebar_yml(root/'nbs')
    decay = (root/'_docs'/'memory'/'decay.html').read_text()   # a nested page: links and pictures lead out of its folder
    assert 'href="../experiments/exp1_forgetting.html#the-curve"' in decay and 'src="../images/dot.png"' in decay
    assert 'href="../experiments/exp1_forgetting.html"' in decay and (root/'_docs'/'images'/'dot.png').exists()
    assert 'href="../site_libs/' in decay or 'src="../site_libs/' in decay
    assert 'href="../memory/decay.html"' in page    # a link in markdown a cell printed leads there too

def test_every_page_of_this_project_has_its_api_reference(tmp_path):
    # nbdev builds a page's API reference by running the cells that import or export; a cell that mixes an import with
    # code using a name defined elsewhere breaks that step and drops every anchor the page should have. The real site
    # without running the notebooks (some 80 s) finds that, and any link to a missing anchor, before the docs build does.
    rep = docs.build_docs(ROOT, out=tmp_path/'site', proc=tmp_path/'proc', execute=False, quiet=True)
    assert rep['failures'] == {}, rep['failures']
    assert rep['problems'] == [] and rep['warnings'] == [], (rep['problems'], rep['warnings'])

def test_build_slow_runs_the_slow_cells_of_the_notebooks_named(tmp_path):
    root = mini_project(tmp_path/'mini')
    r = _cli('--path', str(root), 'build', '--slow', 'experiments/10_exp1_forgetting', '--only', 'experiments/10_exp1_forgetting', 'memory/00_decay',
             '--json', str(tmp_path/'r.json'))
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path/'r.json').read_text())['failures'] == {}
    page = (root/'_docs'/'experiments'/'exp1_forgetting.html').read_text()
    assert page.count('the full rerun') == 2    # the source and its output

def test_build_from_executed_notebooks_does_not_run_them_again(tmp_path):
    "`run_nb` keeps what a test run executed; `build --executed` shows those outputs instead of running the notebook again."
    root = mini_project(tmp_path/'mini'); ex = tmp_path/'executed'
    nb = root/'nbs'/'experiments'/'10_exp1_forgetting.ipynb'
    assert docs.run_nb(nb, ex/'experiments'/nb.name) == ex/'experiments'/nb.name   # kept at its place under nbs/, as the tests keep it
    # change the source after the run: a page built from the executed copy still shows the output of that run
    nb.write_text(nb.read_text().replace('retention after 6 days', 'CHANGED since the run'))
    rep = docs.build_docs(root, quiet=True, executed=ex)
    assert rep['failures'] == {} and rep['problems'] == []
    page = (root/'_docs'/'experiments'/'exp1_forgetting.html').read_text()
    assert 'retention after 6 days: 0.25' in page and 'data:image/png;base64' in page and 'CHANGED' not in page
    assert 'hello from the front page' in (root/'_docs'/'index.html').read_text()       # not in the folder: run as usual
    r = _cli('_run', str(nb), '-', cwd=nb.parent)                                          # the tests' runner: exit 0 on success
    assert r.returncode == 0 and 'passed' in r.stdout, r.stderr
    nb.write_text(nb.read_text().replace('import math', 'import math\\nassert False, \'a failing test\''))   # a notebook's JSON: an escaped newline
    r = _cli('_run', str(nb), '-', cwd=nb.parent)
    assert r.returncode == 1 and 'a failing test' in r.stderr

def test_source_links_without_a_repository_are_dropped():
    "With no git_url in settings.ini nbdev's source links point at `/blob/...`: the API entry keeps its text, loses the link."
    from fastcore.basics import AttrDict
    md = '---\n\n[source](/blob/main/persode/x.py#L3){target=\\"_blank\\" style=\\"float:right\\"}\n\n### f\n\n> f(a)'
    nb = AttrDict(cells=[AttrDict(cell_type='code', outputs=[dict(data={'text/markdown': md})])])
    docs._unlink_outputs(nb)
    out = nb.cells[0].outputs[0]['data']['text/markdown']
    assert 'blob/' not in out and '### f' in out and '> f(a)' in out
    kept = '[source](https://example.org/r/blob/main/x.py#L3)'
    nb = AttrDict(cells=[AttrDict(cell_type='code', outputs=[dict(data={'text/markdown': kept})])])
    docs._unlink_outputs(nb); assert nb.cells[0].outputs[0]['data']['text/markdown'] == kept

def test_doc_links_become_relative(tmp_path):
    "nbdev's links, root-relative when settings.ini names no doc host, point into the offline site; other links stay."
    (tmp_path/'sub').mkdir()
    for f in ('a.html', 'sub/b.html'):
        (tmp_path/f).write_text('<a href="/decay.html#retention">r</a> <a href="//cdn.example/x.css">x</a> <a href="store.html">s</a>')
    docs._rewrite_links(tmp_path, '')
    assert (tmp_path/'a.html').read_text() == '<a href="decay.html#retention">r</a> <a href="//cdn.example/x.css">x</a> <a href="store.html">s</a>'
    assert (tmp_path/'sub'/'b.html').read_text().startswith('<a href="../decay.html#retention">')
    (tmp_path/'c.html').write_text('<a href="https://h.io/base/decay.html">d</a>')
    docs._rewrite_links(tmp_path, 'https://h.io/base')
    assert (tmp_path/'c.html').read_text() == '<a href="decay.html">d</a>'

def test_check_site_finds_a_broken_link_and_a_traceback(mini, tmp_path):
    site = tmp_path/'site'; shutil.copytree(mini[0]/'_docs', site)
    assert docs.check_site(site, ['index.html', 'experiments/exp1_forgetting.html']) == []
    p = site/'experiments'/'exp1_forgetting.html'
    p.write_text(p.read_text().replace('</main>', '<a href="nowhere.html">x</a><pre>Traceback (most recent call last):</pre></main>', 1))
    probs = docs.check_site(site, ['index.html', 'experiments/exp1_forgetting.html', 'missing.html'])
    assert any('broken link nowhere.html' in q for q in probs) and any('traceback' in q for q in probs)
    assert 'missing page missing.html' in probs

def test_readme_from_the_front_page(mini):
    root, _ = mini
    md, imgs = docs.readme_md(root/'nbs'/'index.ipynb')
    assert md.startswith('# Mini') and 'hello from the front page' in md and imgs == {}
    assert docs.write_readme(root, check=True)
    docs.write_readme(root)
    assert not docs.write_readme(root, check=True)

def _cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, str(ROOT/'tools'/'docs.py'), *args], cwd=cwd, capture_output=True, text=True)

def test_cli_sidebar_check(mini):
    root, _ = mini
    assert _cli('--path', str(root), 'sidebar', '--check').returncode == 0
    (root/'nbs'/'experiments'/'12_exp3_retrieval.ipynb').write_text((root/'nbs'/'index.ipynb').read_text())
    r = _cli('--path', str(root), 'sidebar', '--check')
    assert r.returncode == 1 and 'stale' in r.stderr               # a new notebook makes the committed sidebar stale
    assert _cli('--path', str(root), 'sidebar').returncode == 0
    assert _cli('--path', str(root), 'sidebar', '--check').returncode == 0

def test_cli_refuses_unknown_commands_and_places():
    assert _cli('bogus').returncode == 2
    r = _cli('--path', '/', 'sidebar', '--check')
    assert r.returncode != 0 and 'settings.ini' in r.stderr

needs_chromium = pytest.mark.skipif(not browser.find_chromium(), reason='no Chromium: apt-get install -y chromium')

@needs_chromium
def test_browser_check_passes_a_sound_site(mini, tmp_path):
    r = browser.browser_check(mini[0]/'_docs', tmp_path/'shots')
    assert r['pages'] >= 2 and r['problems'] == [], r['problems']
    assert (tmp_path/'shots'/'index.png').stat().st_size > 1000
    assert (tmp_path/'shots'/'experiments_exp1_forgetting.png').exists()   # a nested page, photographed

@needs_chromium
def test_browser_check_reports_what_a_reader_would_see_broken(mini, tmp_path):
    site = tmp_path/'site'; shutil.copytree(mini[0]/'_docs', site)
    p = site/'experiments'/'exp1_forgetting.html'
    p.write_text(p.read_text().replace('</body>', '<img src="gone.png"><script>console.error("boom"); undefined_fn();</script>'
                                       '<img src="https://example.org/x.png"></body>', 1))
    probs = browser.browser_check(site, tmp_path/'shots')['problems']
    text = '\n'.join(probs)
    assert 'console error: boom' in text, text
    assert 'JavaScript error' in text and 'undefined_fn' in text
    assert 'HTTP 404' in text and 'gone.png' in text
    assert 'requests https://example.org/x.png' in text
