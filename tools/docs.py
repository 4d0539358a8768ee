"""The documentation tooling of the Persode repository (not part of the installed package).

    python tools/docs.py build [--slow [NB ...]] [--executed DIR] [--browser] [--shots DIR] [--json FILE]  # run, process, render, check _docs/
    python tools/docs.py check [SITE] [--shots DIR]    # the static checks, then every page in headless Chromium
    python tools/docs.py sidebar [--check]             # nbs/sidebar.yml from the notebooks present, one section per folder
    python tools/docs.py readme [--check]              # README.md (and README_files/) from nbs/index.ipynb

Quarto cannot be installed without a network, so the site is built offline in four steps:

1. **run** every notebook from top to bottom (two at a time, each in a fresh process), as `nbdev_test` does: cells
   flagged `#| slow` are skipped unless `--slow` is given, in which case the full experiment reruns execute too and the
   site shows results computed in this build. With `--executed DIR` a notebook whose executed copy is in DIR (as the
   test run leaves them, see `tests/test_notebooks.py`) is not run again: its page shows the outputs of that run;
2. **process** each executed notebook with nbdev's own processors (`FilterDefaults`: hidden cells removed, `show_doc`
   API reference, backticked names linked) into `_proc/`;
3. **render** `_proc/` with `smalldocs` into `_docs/`, equations typeset as SVG with matplotlib's mathtext, so that the
   pages need no network;
4. **check** the result offline (pages, links, anchors, pictures, no traceback shown); `check` (or `build --browser`)
   then opens every page in headless Chromium through Playwright (`tools/browser.py`).

It needs the dev extra (`pip install -e ".[dev]"`: nbdev, execnb, smalldocs, playwright) and, for the browser check,
Debian's Chromium (`apt-get install -y chromium`); Playwright drives that binary, no browser is downloaded.
"""
from __future__ import annotations
import os, re, sys, io, json, time, shutil, base64, argparse, subprocess, functools, html as _html
from pathlib import Path
from urllib.parse import urlsplit, unquote
from concurrent.futures import ThreadPoolExecutor
from persode.core.child import child_env   # the project first on a child's PYTHONPATH, so notebooks import this checkout


# the parts of the package, one folder each under nbs/, in the order data flows; one sidebar section per part
PARTS = (('core', 'Core'), ('memory', 'Memory'), ('recall', 'Recall'), ('storage', 'Storage'), ('journal', 'Journal'),
         ('experiments', 'Experiments'), ('cli', 'CLI'), ('web', 'Web'), ('testing', 'Testing'))

def _hidden(rel:Path)->bool: return any(part.startswith(('_', '.')) for part in rel.parts)

def doc_notebooks(
    nbs:str|Path,  # the notebooks folder
)->list[tuple[str|None, list[Path]]]:  # (section, notebooks) in the order data flows; `None` for the notebooks at the top
    "The notebooks of the site: one section per folder (the parts in `PARTS` first, any other folder after them by name), "
    "then the notebooks at the top of `nbs` (`index.ipynb` left out). Names starting with `_` or `.` are skipped."
    nbs = Path(nbs)
    found = sorted(p for p in nbs.rglob('*.ipynb') if not _hidden(p.relative_to(nbs)))
    by_dir = {}
    for p in found: by_dir.setdefault(p.relative_to(nbs).parent.as_posix(), []).append(p)
    top = [p for p in by_dir.pop('.', []) if p.stem != 'index']
    titles = dict(PARTS)
    order = [d for d, _ in PARTS if d in by_dir] + sorted(d for d in by_dir if d not in titles)
    out = [(titles.get(d, d), sorted(by_dir[d], key=lambda p: p.relative_to(nbs).as_posix())) for d in order]
    if top: out.append((None, top))
    return out

_PREFIX = re.compile(r'^\d+[a-zA-Z0-9]*_')

def page_name(
    nb:str|Path,              # a notebook: a path relative to `nbs`, or any path when `nbs` is given
    nbs:str|Path|None=None,   # the notebooks folder, when `nb` is a full path
)->str:  # the path of its HTML page in the site
    "The page nbdev gives a notebook (as in its doc links): the folders kept, the number prefix of the name dropped."
    rel = Path(nb).resolve().relative_to(Path(nbs).resolve()) if nbs is not None else Path(nb)
    return (rel.parent/(_PREFIX.sub('', rel.stem.lower()) + '.html')).as_posix()

def sidebar_yml(
    nbs:str|Path,         # the notebooks folder
    pages:bool=False,     # name the renamed copies (`recall/store.ipynb`) instead of the sources (`recall/01_store.ipynb`)
)->str:                   # the text of `sidebar.yml`
    "The Quarto sidebar for the notebooks present in `nbs`: the front page, one section per part, the top notebooks last."
    nbs = Path(nbs)
    f = (lambda p: page_name(p, nbs)[:-5] + '.ipynb') if pages else (lambda p: p.relative_to(nbs).as_posix())
    lines = ['website:', '  sidebar:', '    contents:', '      - index.ipynb']
    for sec, nbl in doc_notebooks(nbs):
        if sec is None: lines += [f'      - {f(p)}' for p in nbl]
        else: lines += [f'      - section: "{sec}"', '        contents:'] + [f'          - {f(p)}' for p in nbl]
    return '\n'.join(lines) + '\n'

def write_sidebar(
    nbs:str|Path,   # the notebooks folder
    check:bool=False, # only report whether `sidebar.yml` is stale, without writing it
)->bool:            # whether the file was (or, with `check`, would be) changed
    "Regenerate `nbs/sidebar.yml` from the notebooks present."
    p = Path(nbs)/'sidebar.yml'
    new = sidebar_yml(nbs)
    if p.exists() and p.read_text() == new: return False
    if not check: p.write_text(new)
    return True

_MD_LINK = re.compile(r'(\]\()([^)\s#]+\.(?:ipynb|html))(?=[)#\s])')

def relink(
    md:str,           # markdown of a page
    page:str,         # that page's path in the site (`recall/store.html`)
    pages:dict,       # page file name (`store.html`) -> the site paths of the pages with that name
)->str:
    "Markdown whose links to other notebooks or pages lead to them from `page`: `NN_name.ipynb` becomes `name.ipynb`, and "
    "a bare name of a page in another folder becomes a relative path to it (when only one page has that name)."
    import posixpath
    here = posixpath.dirname(page)
    def fix(m):
        link = m.group(2)
        if re.match(r'[a-z][\w+.-]*:', link) or link.startswith('/'): return m.group(0)
        d, name = posixpath.split(link)
        ext = posixpath.splitext(name)[1]
        name = _PREFIX.sub('', name)
        target = posixpath.normpath(posixpath.join(here, d, name[:-len(ext)] + '.html'))
        if not d:
            homes = pages.get(name[:-len(ext)] + '.html', [])
            if target not in homes and len(homes) == 1: target = homes[0]
        return m.group(1) + posixpath.relpath(target[:-5] + ext, here or '.')
    return _MD_LINK.sub(fix, md)

def _skip_cell(flags, direcs):
    def _skip(cell):
        if cell.cell_type != 'code': return True
        if 'nbdev_export' + '(' in cell.source: return True
        direc = direcs.get(id(cell), {})
        if direc.get('eval:', [''])[0].lower() == 'false': return True
        return bool(set(flags) & set(direc.keys()))
    return _skip

def _frontmatter(nb)->dict:
    "The notebook's front matter as nbdev reads it, without touching `nb`."
    import copy
    from nbdev.process import NBProcessor
    from nbdev.frontmatter import FrontmatterProc
    return getattr(NBProcessor(nb=copy.deepcopy(nb), procs=FrontmatterProc, process=True).nb, 'frontmatter_', {}) or {}

def execute_nb(
    nb,                  # a notebook read by `execnb.nbio.read_nb` (outputs filled in place; sources untouched)
    path:str|Path,       # the notebook's file: cells run from its folder
    flags=('slow',),     # test flags whose cells are skipped, as in `nbdev_test`
):
    "Run every cell of `nb` as `nbdev_test` would and keep the outputs; raise `RuntimeError` with the traceback on failure."
    from execnb.shell import CaptureShell
    from nbdev.process import extract_directives
    from fastcore.xtras import working_directory
    path = Path(path).resolve()
    if str(_frontmatter(nb).get('skip_exec', '')).lower() in ('true', '1', 'yes'): return nb
    direcs = {id(c): extract_directives(c, remove=False) for c in nb.cells if c.cell_type == 'code'}
    os.environ['IN_TEST'] = '1'
    k = CaptureShell(path, mpl_format='png')
    with working_directory(path.parent):
        try: k.run_all(nb, exc_stop=True, preproc=_skip_cell(flags, direcs))
        except (Exception, SystemExit) as e: raise RuntimeError(f'{path.name}: execution failed\n{k.prettytb(fname=path)}') from e
    return nb

def process_nb(
    src:str|Path,        # the source notebook
    dst:str|Path,        # where the processed copy goes
    execute:bool=True,   # run the notebook first; if False, keep the outputs it has (normally none)
    slow:bool=False,     # also run the `#| slow` cells (the full experiment reruns and their pins)
    executed:str|Path|None=None, # an executed copy of `src` (see `run_nb`) to process instead, with its outputs; not run again
)->Path:
    "Run (optionally) and nbdev-process one notebook into `dst`."
    from execnb.nbio import read_nb, write_nb
    from nbdev.processors import FilterDefaults
    from fastcore.xtras import working_directory
    import copy
    from nbdev.processors import add_show_docs, exec_show_docs
    src, dst = Path(src).resolve(), Path(dst).resolve()
    nb = read_nb(executed if executed else src)
    if execute and not executed: execute_nb(nb, src, flags=() if slow else ('slow',))
    nbs = _nbs_of(src)
    page, pages = page_name(src, nbs), _pages_by_name(nbs)
    for c in nb.cells:   # links to other notebooks point at their renamed copies, from this page's folder
        if c.cell_type == 'markdown': c.source = relink(c.source, page, pages)
    ran = copy.deepcopy(nb)
    degraded = None
    with working_directory(src.parent):
        os.environ['IN_TEST'] = '1'
        try: FilterDefaults()(nb)
        except Exception as e:   # nbdev's show_doc step failed: keep the page, without the API reference
            degraded = f'{src.name}: nbdev could not build its API reference ({str(e).splitlines()[0][:200]}; ' \
                       f'{type(e.__cause__).__name__ if e.__cause__ else ""}: {e.__cause__}). Usually a cell mixes imports with other ' \
                        'code (see STYLE.md); `nbdev_docs` fails on it too. The page was built without the API reference.'
            nb = ran
            class _NoShowDocs(FilterDefaults):
                def base_procs(self): return [p for p in super().base_procs() if p not in (add_show_docs, exec_show_docs)]
            _NoShowDocs()(nb)
        finally: os.environ.pop('IN_TEST', None)
    _unlink_outputs(nb)
    for c in nb.cells:   # the markdown a cell prints (a table, a verdict) links to other pages as the prose does
        for o in c.get('outputs', []):
            md = o.get('data', {}).get('text/markdown')
            if md: o['data']['text/markdown'] = relink(''.join(md) if isinstance(md, list) else md, page, pages)
    dst.parent.mkdir(parents=True, exist_ok=True)
    write_nb(nb, dst)
    if degraded: raise _Degraded(degraded)
    return dst

_FENCE = re.compile(r'^```.*?^```', re.M | re.S)
_CODE_LINK = re.compile(r'\[(`[^`\]]+`)\]\([^)\s]+\)')

def unlink_code(md:str)->str:
    "Markdown with nbdev's doc links taken back out of fenced code (a signature's comments), where they would show raw."
    return _FENCE.sub(lambda m: _CODE_LINK.sub(r'\1', m.group(0)), md)

_NESTED_LINK = re.compile(r'\[\[(`[^`\]]+`)\]\([^)\s]+\)\]\(')

def unnest_links(md:str)->str:
    "Markdown without the link nbdev puts inside a link the author wrote (`[[`x`](auto)](mine)` -> `[`x`](mine)`)."
    return _NESTED_LINK.sub(r'[\1](', md)

# what nbdev shows for a function without a docstring (the docstring of Python's `__call__`): better nothing than that
_NO_DOC = '\n\n*Call self as a function.*'

# nbdev's "source" link of an API entry when settings.ini names no repository (`git_url` empty): it would lead nowhere
_NO_REPO_SOURCE = re.compile(r'\[source\]\(/blob/[^)\s]*\)(?:\{[^}]*\})?')

def _unlink_outputs(nb):
    "Apply `unlink_code` to every markdown output of `nb` (the API reference `show_doc` writes, without a borrowed "
    "docstring and without a source link that has no repository to point at), `unnest_links` to its prose."
    for c in nb.cells:
        if c.cell_type == 'markdown': c.source = unnest_links(c.source)
        for o in c.get('outputs', []):
            md = o.get('data', {}).get('text/markdown')
            if md: o['data']['text/markdown'] = _NO_REPO_SOURCE.sub('', unlink_code(''.join(md) if isinstance(md, list) else md).replace(_NO_DOC, ''))

class _Degraded(RuntimeError): "The page was written, but without part of its content."

def run_nb(
    src:str|Path,        # the source notebook
    dst:str|Path|None=None, # where the executed copy goes (for `build --executed`); nothing is written when None
    slow:bool=False,     # also run the `#| slow` cells
)->Path|None:
    "Run a notebook's tests as `nbdev_test` does (`execute_nb`), keeping the executed copy in `dst`; `RuntimeError` on failure."
    from execnb.nbio import read_nb, write_nb
    src = Path(src).resolve()
    nb = execute_nb(read_nb(src), src, flags=() if slow else ('slow',))
    if dst is None: return None
    dst = Path(dst); dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name(dst.name + '.part'); write_nb(nb, tmp); os.replace(tmp, dst)
    return dst

def _nbs_of(path:Path)->Path:
    "The notebooks folder of the project holding `path`."
    root = _repo_root(Path(path).parent)
    return root/_settings(root).get('nbs_path', 'nbs')

def _pages_by_name(nbs:Path)->dict:
    "Page file name -> the site paths of the pages with that name (`views.html` -> [`recall/views.html`, `web/views.html`])."
    out = {}
    for _, g in doc_notebooks(nbs):
        for p in g:
            n = page_name(p, nbs); out.setdefault(n.rsplit('/', 1)[-1], []).append(n)
    out.setdefault('index.html', []).append('index.html')
    return out

def _run_one(argv:list[str])->int:
    "Child-process entry point of the tests: `src dst|-`."
    src, dst = argv
    try: run_nb(src, None if dst == '-' else dst)
    except RuntimeError as e: print(str(e), file=sys.stderr); return 1
    print(f'{Path(src).name}: passed')
    return 0

def _proc_one(argv:list[str])->int:
    "Child-process entry point: `src dst exec(0|1) slow(0|1) executed|-`."
    src, dst, ex, slow, done = argv
    try: process_nb(src, dst, execute=ex == '1', slow=slow == '1', executed=None if done == '-' else done)
    except _Degraded as e: print(str(e), file=sys.stderr); return 3
    except RuntimeError as e: print(str(e), file=sys.stderr); return 1
    return 0

def _repo_root(path=None)->Path:
    "The project folder: the nearest parent holding `settings.ini`."
    p = Path(path or os.getcwd()).resolve()
    for d in (p, *p.parents):
        if (d/'settings.ini').exists(): return d
    raise FileNotFoundError(f'no settings.ini in {p} or above: run `python tools/docs.py` inside the Persode repository (or pass --path)')

# platformdirs (under the throw-away PostgreSQL server) warns when a machine has no login session; a page should not show it
_QUIET = ','.join(filter(None, (os.environ.get('PYTHONWARNINGS'), 'ignore:XDG_RUNTIME_DIR is not set')))

def _run_child(root, src, dst, execute, timeout, slow=False, executed=None):
    "Process one notebook in a child process (this script's hidden `_proc` command); return (src, seconds, error or None)."
    t = time.time()
    try:
        r = subprocess.run([sys.executable, str(Path(__file__).resolve()), '_proc', str(src), str(dst),
                            '1' if execute else '0', '1' if slow else '0', str(executed) if executed else '-'], cwd=src.parent,
                           env=child_env(root, PYTHONWARNINGS=_QUIET), capture_output=True, text=True, timeout=timeout)
        err = None if r.returncode == 0 else (r.stderr.strip() or r.stdout.strip() or f'exit status {r.returncode}')
        if r.returncode == 3 and dst.exists(): err = '(page written) ' + err
    except subprocess.TimeoutExpired: err = f'{src.name}: still running after {timeout} s; stopped'
    return src, time.time() - t, err

_TEX_SUBS = [(r'\\[td]frac\b', r'\\frac'), (r'\\le\b', r'\\leq'), (r'\\ge\b', r'\\geq'), (r'\\ne\b', r'\\neq'),
             (r'\\[lr]Vert\b', r'\\Vert'), (r'\\[lr]vert\b', '|'), (r'\\(?:big|Big|bigg|Bigg)[lr]?\b', ''),
             (r'\\displaystyle\b', ''), (r'\\textstyle\b', ''), (r'\\boldsymbol\b', r'\\mathbf'), (r'\\bm\b', r'\\mathbf'),
             (r'\\operatorname\*?', r'\\mathrm'), (r'\\lbrace\b', r'\\{'), (r'\\rbrace\b', r'\\}'), (r'\\coloneqq\b', ':='),
             (r'\\mathrm\{([^}]*)\}', lambda m: r'\mathrm{' + m.group(1).replace(' ', r'\ ') + '}'),
             (r'\\text\{([^}]*)\}', lambda m: r'\mathrm{' + m.group(1).replace(' ', r'\ ') + '}')]

def _tex_for_mathtext(tex:str)->tuple[list[str], str]:
    "Rows of mathtext-compatible TeX and an equation tag (from `\\tag{..}`), if any."
    tag = ''
    m = re.search(r'\\tag\*?\{([^}]*)\}', tex)
    if m: tag, tex = f'({m.group(1)})', tex[:m.start()] + tex[m.end():]
    tex = re.sub(r'\\(begin|end)\{(aligned|align\*?|gathered|split)\}', '', tex)
    rows = [r for r in re.split(r'\\\\', tex) if r.strip()] or ['']
    out = []
    for r in rows:
        r = ' '.join(r.replace('&', '').split())
        for pat, rep in _TEX_SUBS: r = re.sub(pat, rep, r)
        out.append(r)
    return out, tag

@functools.lru_cache(maxsize=4096)
def tex_svg(
    tex:str,              # one row of TeX, without dollars
    size:float=12.,       # font size in points; the picture is scaled to the text around it with `em` units
)->tuple[str, float, float]:  # (SVG text, height in em, depth below the baseline in em)
    "Typeset `tex` with matplotlib's mathtext into a standalone SVG."
    import matplotlib
    from matplotlib import mathtext
    from matplotlib.font_manager import FontProperties
    prop = FontProperties(size=size)
    w, h, d = mathtext.MathTextParser('path').parse(f'${tex}$', dpi=72, prop=prop)[:3]
    buf = io.BytesIO()
    with matplotlib.rc_context({'svg.fonttype': 'path', 'svg.hashsalt': 'persode'}):
        mathtext.math_to_image(f'${tex}$', buf, prop=prop, dpi=72, format='svg')
    svg = buf.getvalue().decode()
    svg = re.sub(r'<metadata>.*?</metadata>', '', svg, flags=re.S)
    return svg, float(h)/size, float(d)/size

def math_html(
    tex:str,              # the TeX between the dollars
    display:bool=False,   # display maths (a block of its own) or inline
)->str:                   # HTML: SVG pictures, or the TeX in `<code>` when mathtext cannot read it
    "The offline HTML for one equation."
    rows, tag = _tex_for_mathtext(tex)
    imgs = []
    try:
        for r in rows:
            svg, h, d = tex_svg(r, 14. if display else 12.)
            src = 'data:image/svg+xml;base64,' + base64.b64encode(svg.encode()).decode()
            imgs.append(f'<img class="pd-math" src="{src}" alt="{_html.escape(tex)}" '
                        f'style="height:{h*(14/12 if display else 1):.3f}em;vertical-align:-{d*(14/12 if display else 1):.3f}em">')
    except Exception as e:
        _MATH_FAILS.append((tex, str(e).splitlines()[0] if str(e) else type(e).__name__))
        code = f'<code class="pd-math-tex">{_html.escape(tex)}</code>'
        return f'<span class="math display pd-math-block">{code}</span>' if display else code
    if not display: return f'<span class="math inline">{"".join(imgs)}</span>'
    body = ''.join(f'<span class="pd-math-row">{i}</span>' for i in imgs)
    tag_html = f'<span class="pd-math-tag">{_html.escape(tag)}</span>' if tag else ''
    return f'<span class="math display pd-math-block">{body}{tag_html}</span>'

_MATH_FAILS = []

class _offline_math:
    "Context manager: make smalldocs typeset maths with `math_html` instead of KaTeX."
    def __enter__(self):
        import smalldocs.markdown as smd
        self.smd, self.old = smd, (smd.math_inline, smd.math_display, smd.math_block)
        def _inline(self_, tokens, idx, options, env): return math_html(tokens[idx].content.strip())
        def _display(self_, tokens, idx, options, env): return math_html(tokens[idx].content.strip(), display=True)
        def _block(self_, tokens, idx, options, env): return f'<p>{math_html(tokens[idx].content.strip(), display=True)}</p>\n'
        smd.math_inline, smd.math_display, smd.math_block = _inline, _display, _block
        return self
    def __exit__(self, *exc): self.smd.math_inline, self.smd.math_display, self.smd.math_block = self.old

# folders of pictures and recorded results, copied beside the pages at the same place under nbs/
_ASSET_DIRS = ('images', 'results', 'figures')
_PROJECT_FILES = ('_quarto.yml', 'nbdev.yml', 'styles.css', '_brand.yml', 'favicon.svg')
# options that only Quarto reads (nbdev sets them for `nbdev_docs`/`nbdev_readme`); smalldocs says it ignores them
_QUARTO_ONLY = ('format commonmark is not built', 'keep-md is ignored', 'output-file is not read', 'repo-actions')

def _settings(root:Path)->dict:
    import configparser
    c = configparser.ConfigParser(); c.read(root/'settings.ini')
    return dict(c['DEFAULT'])

def _offline_css(out:Path):
    "Drop the web-font `@import`s of the Bootswatch themes: the site falls back to the system fonts and stays offline."
    for f in (out/'site_libs').rglob('*.css'):
        t = f.read_text(encoding='utf-8')
        new = re.sub(r'@import\s+url\((["\']?)https?://[^)]*\1\)\s*;?', '', t)
        if new != t: f.write_text(new, encoding='utf-8')

def _prefixed_markdown(nb_path:Path)->list[int]:
    "Markdown cells whose every line starts with `# ` (text pasted with Python comment prefixes): they render as headings."
    cells = json.loads(Path(nb_path).read_text(encoding='utf-8')).get('cells', [])
    bad = []
    for i, c in enumerate(cells):
        if c.get('cell_type') != 'markdown': continue
        lines = [l for l in _text(c.get('source')).split('\n') if l.strip()]
        if lines and all(l.startswith('# ') or l.strip() == '#' for l in lines) and \
           (len(lines) > 1 or lines[0].startswith(('# #', '# >'))): bad.append(i + 1)
    return bad

def _rewrite_links(out:Path, host:str):
    "Make nbdev's doc links (`https://host/base/decay.html#x`, or `/decay.html#x` with no doc_host) relative, so the offline site links to itself."
    host = host.rstrip('/') + '/'
    for f in out.rglob('*.html'):
        t = f.read_text(encoding='utf-8')
        depth = len(f.relative_to(out).parts) - 1
        up = "../"*depth
        # with no doc_host in settings.ini nbdev's links are root-relative (`/decay.html#x`); never touch `//host` links
        new = re.sub(r'href="/(?!/)', lambda m: f'href="{up}', t) if host == '/' else t.replace(f'href="{host}', f'href="{up}')
        new = _PRIVATE_ANCHOR.sub(r'\1"', new)
        if new != t: f.write_text(new, encoding='utf-8')

# nbdev links every backticked name it knows, private ones too; those have no API entry (show_doc documents public
# names only), so their links point at the page instead of at an anchor that does not exist
_PRIVATE_ANCHOR = re.compile(r'(href="[^"#]*\.html)#(?:[\w.]*\.)?_[\w]*"')

def build_docs(
    path:str|Path|None=None,  # the project folder (holding settings.ini); found from the current folder by default
    out:str|Path|None=None,   # the site folder; `_docs` in the project by default
    execute:bool=True,        # run the notebooks first (False: use them as saved, i.e. without outputs)
    workers:int=2,            # notebooks run at the same time
    timeout:int=900,          # seconds one notebook may run
    only:list|None=None,      # build only these notebooks (file names or stems), plus the front page
    proc:str|Path|None=None,  # the folder for processed notebooks; `_proc` in the project by default
    slow:bool|list=False,     # also run the `#| slow` cells (the full experiment reruns): True for every notebook, or a list of notebooks
    quiet:bool=False,         # print only warnings and errors
    executed:str|Path|None=None, # a folder of executed notebooks (`run_nb`, e.g. left by the test run): those are not run again
)->dict:                      # a report: pages, timings, failures, warnings
    "Build the documentation site offline: run, process (nbdev), render (smalldocs), check."
    say = (lambda *a: None) if quiet else (lambda *a: print(*a, flush=True))
    root = _repo_root(path); cfg = _settings(root)
    nbs = root/cfg.get('nbs_path', 'nbs')
    proc = Path(proc).resolve() if proc else root/'_proc'
    out = Path(out).resolve() if out else root/cfg.get('doc_path', '_docs')
    t0 = time.time()
    def _key(p): return p.relative_to(nbs).with_suffix('').as_posix()   # `experiments/14_exp5_locomo`
    def _named(p, names): return _key(p) in names or p.stem in names
    slow_names = None if isinstance(slow, bool) else {Path(o).with_suffix('').as_posix() for o in slow}
    def _slow(p): return slow is True or (slow_names is not None and _named(p, slow_names))
    def _done(p):   # an executed copy to use instead of running the notebook (never for a notebook rerun with its slow cells)
        f = Path(executed)/p.relative_to(nbs) if executed and execute and not _slow(p) else None
        return f if f is not None and f.exists() else None
    groups = doc_notebooks(nbs)
    nbl = [nbs/'index.ipynb'] + [p for _, g in groups for p in g]
    if only:
        keep = {Path(o).with_suffix('').as_posix() for o in only}
        nbl = [p for p in nbl if _named(p, keep) or _key(p) == 'index']
        groups = [(s, [p for p in g if p in nbl]) for s, g in groups]
        groups = [(s, g) for s, g in groups if g]
    def _page(p): return page_name(p, nbs)
    def _dst(p): return proc/(_page(p)[:-5] + '.ipynb')
    names = [_page(p) for p in nbl]
    dup = {n for n in names if names.count(n) > 1}
    if dup: raise ValueError(f'two notebooks would make the same page {sorted(dup)}: rename one')
    write_sidebar(nbs)
    if proc.exists(): shutil.rmtree(proc)
    proc.mkdir(parents=True)
    for f in _PROJECT_FILES:
        if (nbs/f).exists(): shutil.copy2(nbs/f, proc/f)
    # the site is rendered from _proc; keep its output folder outside it
    (proc/'nbdev.yml').write_text(re.sub(r'output-dir:.*', f'output-dir: {out}', (proc/'nbdev.yml').read_text()))
    # the pictures and recorded results the pages show, where the pages (nested like the notebooks) find them
    for d in sorted(nbs.rglob('*')):
        rel = d.relative_to(nbs)
        if d.is_dir() and d.name in _ASSET_DIRS and not _hidden(rel) and not (proc/rel).exists(): shutil.copytree(d, proc/rel)
    # 1+2: run and process, `workers` notebooks at a time, the slowest-looking (experiments) first
    jobs = sorted(nbl, key=lambda p: (not _slow(p), _key(p).split('/')[0] != 'experiments', _key(p)))
    n_slow, n_done = sum(map(_slow, jobs)), sum(_done(p) is not None for p in jobs)
    say(f'docs: {"running and " if execute else ""}processing {len(jobs)} notebooks with {workers} workers'
        + (f' (`#| slow` cells included in {n_slow})' if execute and n_slow else '')
        + (f'; {n_done} already executed in {executed}, not run again' if n_done else ''))
    timings, failures = {}, {}
    with ThreadPoolExecutor(max(1, workers)) as ex:
        for src, secs, err in ex.map(lambda p: _run_child(root, p, _dst(p), execute, timeout, _slow(p), _done(p)), jobs):
            name = src.relative_to(nbs).as_posix()
            timings[name] = round(secs, 1)
            say(f'  {"FAIL" if err else "ok  "} {name:40s} {secs:6.1f} s')
            if err:
                failures[name] = err
                if execute and not err.startswith('(page written)'):   # keep a page for it: process it without running it
                    s2, _, err2 = _run_child(root, src, _dst(src), False, timeout)
                    if err2: failures[name] += '\n(also failed without execution)\n' + err2
    side = ['website:', '  sidebar:', '    contents:', '      - index.ipynb']
    for sec, g in groups:
        g = [f'{_page(p)[:-5]}.ipynb' for p in g if _dst(p).exists()]
        if g and sec is None: side += [f'      - {n}' for n in g]
        elif g: side += [f'      - section: "{sec}"', '        contents:'] + [f'          - {n}' for n in g]
    (proc/'sidebar.yml').write_text('\n'.join(side) + '\n')
    t1 = time.time()
    # 3: render
    from smalldocs.site import build as sd_build
    _MATH_FAILS.clear()
    if out.exists() and not (out/'site_libs').exists() and any(out.iterdir()):
        raise ValueError(f'{out} is not empty and is not a built site: give another --out or empty it')
    with _offline_math():
        site = sd_build(proc, quiet=True)
    _rewrite_links(out, cfg.get('doc_host', '').rstrip('/') + cfg.get('doc_baseurl', ''))
    _offline_css(out)
    t2 = time.time()
    warnings = [str(w) for w in site.warnings if not any(b in str(w) for b in _QUARTO_ONLY)] + [f'equation not typeset ({msg}): {tex}' for tex, msg in _MATH_FAILS]
    # 4: check
    problems = check_site(out, names)
    for p in nbl:
        bad = _prefixed_markdown(p)
        if bad: problems.append(f'{p.relative_to(nbs).as_posix()}: markdown cell(s) {bad} have every line prefixed with "# " (written as Python '
                                'comments), so they render as headings: remove the prefixes in the notebook')
    rep = dict(out=str(out), pages=names, timings=timings, failures=failures, warnings=warnings,
               problems=problems, seconds=dict(run_process=round(t1-t0, 1), render=round(t2-t1, 1), total=round(time.time()-t0, 1)))
    for w in warnings: say(f'warning: {w}')
    for n, e in failures.items(): print(f'error: {n} failed:\n{e}', file=sys.stderr)
    for p in problems: print(f'problem: {p}', file=sys.stderr)
    say(f'docs: wrote {len(nbl)} pages to {out} in {rep["seconds"]["total"]} s '
        f'(run+process {rep["seconds"]["run_process"]} s, render {rep["seconds"]["render"]} s)')
    return rep

from html.parser import HTMLParser

class _Refs(HTMLParser):
    "Collect the links, pictures, ids and visible text of a page."
    def __init__(self):
        super().__init__(); self.links, self.imgs, self.ids, self.text, self._skip = [], [], set(), [], 0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get('id'): self.ids.add(a['id'])
        if tag == 'a' and a.get('href'): self.links.append(a['href'])
        if tag in ('img', 'script') and a.get('src'): self.imgs.append(a['src'])
        if tag == 'link' and a.get('href') and 'stylesheet' in (a.get('rel') or ''): self.imgs.append(a['href'])
        if tag in ('script', 'style'): self._skip += 1
    def handle_endtag(self, tag):
        if tag in ('script', 'style') and self._skip: self._skip -= 1
    def handle_data(self, d):
        if not self._skip: self.text.append(d)

_BAD_TEXT = [(re.compile(r'Traceback \(most recent call last\)'), 'a Python traceback'),
             (re.compile(r'\w+Error: .*\n?.*File "', re.S), 'a Python traceback'),
             (re.compile(r'application/vnd\.jupyter\.widget-view\+json|Widget Javascript not detected|IntProgress\(|HBox\(children='), 'a widget blob'),
             (re.compile(r'<ipython-input-|Cell In\[\d+\], line \d+'), 'a Python traceback')]

_SRC_BLOCK = re.compile(r'<div class="sourceCode[^"]*"[^>]*><pre.*?</pre></div>', re.S)

def _local(href:str)->bool:
    s = urlsplit(href)
    return not (s.scheme or s.netloc or href.startswith(('mailto:', 'javascript:', 'data:')))

def check_site(
    out:str|Path,             # the built site
    expected:list|None=None,  # page names that must exist
)->list[str]:                 # one line per problem; empty when the site is sound
    "Check a built site offline: missing pages, broken internal links/anchors/pictures, tracebacks, widget blobs."
    out = Path(out); probs, parsed = [], {}
    for n in expected or []:
        if not (out/n).is_file(): probs.append(f'missing page {n}')
    for f in sorted(out.rglob('*.html')):
        p = _Refs(); p.feed(f.read_text(encoding='utf-8')); parsed[f.resolve()] = p
    for f, p in parsed.items():
        rel = f.relative_to(out.resolve())
        page = _SRC_BLOCK.sub('', f.read_text(encoding='utf-8'))   # the code listings may mention tracebacks; outputs may not
        t = _Refs(); t.feed(page); text = ''.join(t.text)
        for rx, what in _BAD_TEXT:
            if rx.search(text) or (what == 'a widget blob' and rx.search(page)): probs.append(f'{rel}: shows {what}')
        if '<code class="pd-math-tex">' in page: probs.append(f'{rel}: an equation is shown as TeX source')
        probs += [f'{rel}: loads {h} from the network (the site must work offline)' for h in p.imgs if urlsplit(h).scheme in ('http', 'https')]
        for h in p.links + p.imgs:
            if not _local(h) or h.startswith('#') and not h[1:]: continue
            s = urlsplit(h)
            target = (f.parent/unquote(s.path)).resolve() if s.path else f
            if target.is_dir(): target = target/'index.html'
            if not target.exists(): probs.append(f'{rel}: broken link {h}'); continue
            if s.fragment and target.suffix == '.html' and target in parsed and unquote(s.fragment) not in parsed[target].ids:
                probs.append(f'{rel}: link to a missing anchor {h}')
    for f in sorted(out.rglob('*.css')):
        for m in re.finditer(r'@import\s+url\(["\']?(https?://[^)"\']*)', f.read_text(encoding='utf-8')):
            probs.append(f'{f.relative_to(out)}: imports {m.group(1)} from the network (the site must work offline)')
    return sorted(set(probs))

def _cell_opts(src:str)->tuple[dict, str]:
    opts, lines = {}, src.split('\n')
    while lines and lines[0].startswith('#|'):
        k, _, v = lines.pop(0)[2:].strip().partition(':')
        opts[k.strip()] = v.strip() if _ else True
    return opts, '\n'.join(lines).strip('\n')

def _text(v)->str: return ''.join(v) if isinstance(v, list) else (v or '')

def readme_md(
    nb_path:str|Path,          # the front-page notebook, executed or not
    img_dir:str='README_files', # folder (relative to the README) for figures
    execute:bool=True,         # run the notebook first
)->tuple[str, dict]:           # (markdown, {relative image path: PNG bytes})
    "The README: the front page's markdown, its visible code and its real outputs."
    from execnb.nbio import read_nb
    nb_path = Path(nb_path).resolve()
    nb = read_nb(nb_path)
    if execute: execute_nb(nb, nb_path)
    parts, imgs = [], {}
    for i, c in enumerate(nb.cells):
        src = _text(c.source)
        if c.cell_type == 'markdown': parts.append(src.strip()); continue
        if c.cell_type != 'code': continue
        opts, code = _cell_opts(src)
        if 'hide' in opts or opts.get('include') == 'false': continue
        if code and opts.get('echo') != 'false' and 'hide_input' not in opts: parts.append(f'```python\n{code}\n```')
        if opts.get('output') == 'false' or 'hide_output' in opts: continue
        for o in c.get('outputs', []):
            if o.get('output_type') == 'stream' and o.get('name') == 'stdout':
                parts.append('```\n' + _text(o.get('text')).rstrip() + '\n```')
            elif o.get('output_type') in ('execute_result', 'display_data'):
                d = o.get('data', {})
                if 'image/png' in d:
                    name = f'{img_dir}/cell-{i+1}-output-{len(imgs)+1}.png'
                    imgs[name] = base64.b64decode(_text(d['image/png']))
                    parts.append(f'![]({name})')
                elif 'text/markdown' in d: parts.append(_text(d['text/markdown']).strip())
                elif 'text/plain' in d: parts.append('```\n' + _text(d['text/plain']).rstrip() + '\n```')
    md = '\n\n'.join(p for p in parts if p) + '\n'
    return md, imgs

def write_readme(
    root:str|Path|None=None,  # the project folder
    check:bool=False,         # only report whether README.md is stale
    execute:bool=True,        # run the front page first
)->bool:                      # whether README.md changed (or, with `check`, would change)
    "Regenerate README.md (and README_files/) from `nbs/index.ipynb`."
    root = _repo_root(root)
    md, imgs = readme_md(root/'nbs'/'index.ipynb', execute=execute)
    p = root/'README.md'
    stale = not p.exists() or p.read_text(encoding='utf-8') != md
    stale |= any(not (root/n).exists() or (root/n).read_bytes() != b for n, b in imgs.items()) if not check else \
             any(not (root/n).exists() for n in imgs)
    if check or not stale: return stale
    p.write_text(md, encoding='utf-8')
    d = root/'README_files'
    if d.exists(): shutil.rmtree(d)
    for n, b in imgs.items(): (root/n).parent.mkdir(parents=True, exist_ok=True); (root/n).write_bytes(b)
    return True

_RESULTS = 'nbs/experiments/results'

def _check_results(root:Path)->str:
    "After a build with `--slow`: the reruns wrote their fresh results elsewhere and compared them; did the recorded ones stay put?"
    r = subprocess.run(['git', 'status', '--porcelain', '--', _RESULTS], cwd=root, capture_output=True, text=True)
    if r.returncode != 0: return 'results files: not a git checkout, not checked'
    out = os.environ.get('PERSODE_RESULTS_OUT') or 'temporary folders'
    if not r.stdout.strip(): return (f'results files: the reruns wrote their fresh results to {out} and checked them against '
                                     f'{_RESULTS} (result_diffs in each notebook); {_RESULTS} is unchanged')
    return f'results files: the build changed {_RESULTS}, which no run may write:\n' + r.stdout.rstrip()

def _parser():
    p = argparse.ArgumentParser(prog='python tools/docs.py', description='The docs tooling of the Persode repository: '
                                'build the site offline, check it in Chromium, regenerate README.md and sidebar.yml.')
    p.add_argument('--path', help='the project folder, holding settings.ini (default: found from the current folder)')
    sub = p.add_subparsers(dest='cmd', required=True)
    b = sub.add_parser('build', help='run every notebook, process it with nbdev, render the site offline, check it')
    b.add_argument('--out', help='the site folder (default: _docs in the project)')
    b.add_argument('--slow', nargs='*', metavar='NB', help='also run the `#| slow` cells (the full experiment reruns and their pins): '
                   'of every notebook, or of the notebooks named (experiments/14_exp5_locomo)')
    b.add_argument('--no-exec', action='store_true', help='do not run the notebooks: render them as saved (no outputs)')
    b.add_argument('--workers', type=int, default=2, help='notebooks run at the same time (default 2)')
    b.add_argument('--timeout', type=int, default=1800, help='seconds one notebook may run (default 1800)')
    b.add_argument('--only', nargs='+', metavar='NB', help='build only these notebooks (and the front page)')
    b.add_argument('--allow-failures', action='store_true', help='exit 0 even if a notebook fails to run')
    b.add_argument('--browser', action='store_true', help='then open every page in headless Chromium (as `check`)')
    b.add_argument('--shots', help='folder for the browser screenshots (default: a new temporary folder)')
    b.add_argument('--json', help='also write the build report as JSON to this file')
    c = sub.add_parser('check', help='check a built site: the static checks, then every page in headless Chromium')
    c.add_argument('site', nargs='?', help='the built site (default: _docs in the project)')
    c.add_argument('--shots', help='folder for the screenshots (default: a new temporary folder)')
    c.add_argument('--json', help='also write the report as JSON to this file')
    for name, what in (('sidebar', 'nbs/sidebar.yml'), ('readme', 'README.md (and README_files/) from nbs/index.ipynb')):
        s = sub.add_parser(name, help=f'regenerate {what}')
        s.add_argument('--check', action='store_true', help='only check that it is up to date (exit 1 if stale)')
    b.add_argument('--executed', metavar='DIR', help='executed notebooks to use instead of running them again (as the tests leave them '
                   'with PERSODE_EXECUTED=DIR); notebooks named in --slow always run')
    sub.add_parser('_proc').add_argument('args', nargs=5)   # internal: one notebook, in a child process
    sub.add_parser('_run').add_argument('args', nargs=2)    # internal: one notebook's tests, for tests/test_notebooks.py
    return p

def _report_browser(r)->int:
    for q in r['problems']: print(f'browser: {q}', file=sys.stderr)
    print(f'docs: browser check of {r["pages"]} pages in {r["seconds"]} s: {len(r["problems"])} problem(s); '
          f'screenshots in {r["shots"]}')
    return 1 if r['problems'] else 0

def _check(site:Path, root:Path, shots, json_out=None)->int:
    "Static checks, then the browser check, of a built site."
    from browser import browser_check
    nbs = root/_settings(root).get('nbs_path', 'nbs')
    expected = ['index.html'] + [page_name(p, nbs) for _, g in doc_notebooks(nbs) for p in g]
    probs = check_site(site, expected)
    for q in probs: print(f'problem: {q}', file=sys.stderr)
    b = browser_check(site, shots)
    if json_out: Path(json_out).write_text(json.dumps(dict(static=probs, browser=b), indent=1))
    return max(1 if probs else 0, _report_browser(b))

def main(argv:list[str]|None=None)->int:
    "`python tools/docs.py build|check|sidebar|readme`: exit status 0 when the site (or README/sidebar) is sound."
    a = _parser().parse_args(argv)
    if a.cmd == '_proc': return _proc_one(a.args)
    if a.cmd == '_run': return _run_one(a.args)
    root = _repo_root(a.path)
    nbs = root/_settings(root).get('nbs_path', 'nbs')
    if a.cmd == 'sidebar':
        stale = write_sidebar(nbs, check=a.check)
        if a.check and stale: print('nbs/sidebar.yml is stale: run `python tools/docs.py sidebar` and commit it', file=sys.stderr); return 1
        print('nbs/sidebar.yml ' + ('updated' if stale else 'is up to date')); return 0
    if a.cmd == 'readme':
        stale = write_readme(root, check=a.check)
        if a.check and stale: print('README.md is stale: run `python tools/docs.py readme` and commit README.md and README_files/', file=sys.stderr); return 1
        print('README.md ' + ('updated' if stale else 'is up to date')); return 0
    if a.cmd == 'check':
        return _check(Path(a.site).resolve() if a.site else root/_settings(root).get('doc_path', '_docs'), root, a.shots, a.json)
    out = Path(a.out).resolve() if a.out else root/_settings(root).get('doc_path', '_docs')
    slow = False if a.slow is None else (a.slow or True)
    rep = build_docs(root, out, execute=not a.no_exec, workers=a.workers, timeout=a.timeout, only=a.only, slow=slow, executed=a.executed)
    status = 1 if rep['problems'] or (rep['failures'] and not a.allow_failures) else 0
    if slow: print(_check_results(root))
    if a.browser:
        from browser import browser_check
        b = browser_check(out, a.shots); rep['browser'] = b
        status = max(status, _report_browser(b))
    if a.json: Path(a.json).write_text(json.dumps(rep, indent=1))
    return status

if __name__ == '__main__':
    sys.path.insert(0, str(Path(__file__).resolve().parent))   # tools/browser.py
    sys.exit(main())
