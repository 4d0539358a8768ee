"""Open every page of a built site in headless Chromium (through Playwright) and report what a reader would see broken.

Playwright for Python drives Debian's Chromium (`/usr/bin/chromium`, or `$CHROMIUM`): no browser is downloaded.
The site is served on 127.0.0.1 at a free port; any request that leaves that server is a problem (the site must work
offline), and so are console errors, JavaScript exceptions, failed requests, HTTP errors, pictures that do not show,
broken internal links or anchors, a Python traceback on the page, and a page without a title heading.
Screenshots of the chosen pages go to the artifacts folder.
"""
from __future__ import annotations
import os, re, shutil, tempfile, threading, time
from pathlib import Path
from urllib.parse import urlsplit, unquote

CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking']

def find_chromium()->str|None:
    "The Chromium binary: `$CHROMIUM`, the `chromium` on the PATH, or `/usr/bin/chromium`."
    for c in (os.environ.get('CHROMIUM'), shutil.which('chromium'), '/usr/bin/chromium', shutil.which('chromium-browser')):
        if c and Path(c).exists(): return c
    return None

def serve(root:str|Path):
    "Serve `root` on 127.0.0.1 at a free port in a daemon thread; return (server, base url, list of failed requests)."
    import http.server
    errors = []
    class H(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **k): super().__init__(*a, directory=str(root), **k)
        def log_message(self, *a): pass
        def send_error(self, code, *a, **k):
            errors.append(f'{code} {self.path}'); super().send_error(code, *a, **k)
    srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, f'http://127.0.0.1:{srv.server_address[1]}/', errors

# what the page shows, read in the page itself: pictures that did not load, links, anchors, visible text problems
PAGE_JS = r"""() => {
  const imgs = [...document.images].filter(i => i.complete && i.naturalWidth === 0).map(i => i.currentSrc || i.src);
  const links = [...document.querySelectorAll('a[href]')].map(a => a.href);
  const ids = [...document.querySelectorAll('[id]')].map(e => e.id);
  let text = '';
  if (document.body) { const b = document.body.cloneNode(true); b.querySelectorAll('div.sourceCode').forEach(e => e.remove()); text = b.textContent; }
  const bad = [];
  if (/Traceback \(most recent call last\)|Cell In\[\d+\], line \d+/.test(text)) bad.push('a Python traceback');
  if (/application\/vnd\.jupyter\.widget-view|IntProgress\(|HBox\(children=/.test(text)) bad.push('a widget blob');
  const h1 = document.querySelector('h1');
  return {imgs, links, ids, bad, h1: h1 ? h1.innerText : ''};
}"""

def _shot_list(pages:list[str], wanted)->list[str]:
    "The pages to photograph: `wanted` ones present (an absent experiment page is replaced by the first experiment)."
    exp = [p for p in pages if re.match(r'(?:[\w-]+/)*exp\d', p)]
    shoot = [p if p in pages else (exp[0] if exp and re.match(r'(?:[\w-]+/)*exp', p) else None) for p in wanted]
    return [p for p in dict.fromkeys(shoot) if p]

def _link_problems(site:Path, base:str, links:set, ids_of:dict)->list[str]:
    "Internal links (seen in the browser) to pages that do not exist or to anchors missing on their page."
    probs = []
    for p, l in sorted(links):
        if not l.startswith(base): continue
        s = urlsplit(l); target = s.path[1:] or 'index.html'
        if target.endswith('/'): target += 'index.html'
        if not (site/unquote(target)).exists(): probs.append(f'{p}: broken link {l[len(base):]}')
        elif s.fragment and target in ids_of and unquote(s.fragment) not in ids_of[target]:
            probs.append(f'{p}: link to a missing anchor {l[len(base):]}')
    return probs

def _watch(page, base:str, events:list):
    "Record, for the page being checked, every console error, exception, failed or off-site request and HTTP error."
    page.on('console', lambda m: m.type == 'error' and events.append(f'console error: {m.text[:200]}'))
    page.on('pageerror', lambda e: events.append(f'JavaScript error: {str(e).splitlines()[0] if str(e) else e!r}'))
    page.on('requestfailed', lambda r: r.url.startswith(base) and events.append(f'failed to load {r.url[:160]} ({r.failure})'))
    page.on('response', lambda r: r.status >= 400 and events.append(f'HTTP {r.status} for {r.url[:160]}'))
    def _route(route):
        u = route.request.url
        if u.startswith((base, 'data:', 'blob:', 'about:')): return route.continue_()
        events.append(f'requests {u[:160]} (the site must work offline)'); return route.abort()
    page.route('**/*', _route)

def browser_check(
    site:str|Path,                # the built site (e.g. `_docs`)
    shots:str|Path|None=None,     # folder for screenshots; a new temporary folder by default
    chromium:str|None=None,       # the browser binary; `find_chromium()` by default
    shot_pages:tuple=('index.html', 'experiments/exp1_forgetting.html', 'memory/decay.html', 'recall/store.html'),  # pages to photograph (full page)
    timeout:float=30,             # seconds to wait for one page
)->dict:                          # {'pages': n, 'problems': [...], 'shots': folder, 'seconds': s}
    "Open every page of `site` in headless Chromium and report broken pages, links, pictures, JS errors and tracebacks."
    from playwright.sync_api import sync_playwright
    t0 = time.time()
    site = Path(site).resolve()
    chromium = chromium or find_chromium()
    if not chromium: raise FileNotFoundError('no Chromium: apt-get install -y chromium (or set $CHROMIUM)')
    if not (site/'index.html').exists(): raise FileNotFoundError(f'{site}/index.html not found: build the site first (python tools/docs.py build)')
    shots = Path(shots or tempfile.mkdtemp(prefix='persode-shots-')); shots.mkdir(parents=True, exist_ok=True)
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob('*.html'))
    shoot = _shot_list(pages, shot_pages)
    srv, base, srv_errors = serve(site)
    probs, links, ids_of = [], set(), {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={'width': 1280, 'height': 900})
            events = []
            _watch(page, base, events)
            for p in pages:
                events.clear()
                try: page.goto(base + p, wait_until='load', timeout=timeout*1000)
                except Exception as e: probs.append(f'{p}: did not load in {timeout} s ({str(e).splitlines()[0]})'); continue
                page.wait_for_timeout(150)   # late console messages and image decoding
                r = page.evaluate(PAGE_JS)
                probs += [f'{p}: {e}' for e in events]
                probs += [f'{p}: picture not shown: {i[:120]}' for i in r['imgs']]
                probs += [f'{p}: shows {b}' for b in r['bad']]
                if not r['h1'] and p != 'index.html' and not p.startswith(('search', '404')): probs.append(f'{p}: no title heading')
                ids_of[p] = set(r['ids'])
                links |= {(p, l) for l in r['links']}
                if p in shoot: page.screenshot(path=str(shots/(p.replace('/', '_')[:-5] + '.png')), full_page=True)
            browser.close()
    finally: srv.shutdown()
    probs += _link_problems(site, base, links, ids_of)
    probs += [f'server: {e}' for e in srv_errors if not any(e.split(' ', 1)[1].lstrip('/') in q for q in probs)]
    return dict(pages=len(pages), problems=sorted(set(probs)), shots=str(shots), seconds=round(time.time() - t0, 1))
