#!/usr/bin/env bash
# Docs steps for .ci/run (owned by the docs issue). Expects: the venv active, `pip install -e ".[dev]"` done,
# and `apt-get install -y chromium chromium-driver` (the browser check uses /usr/bin/chromium, or $CHROMIUM).
set -euo pipefail
cd "$(dirname "$0")/.."
persode docs --check-sidebar                      # nbs/sidebar.yml lists exactly the notebooks present, in paper order
persode docs --check-readme                       # README.md is what nbs/index.ipynb generates (runs the front page)
mkdir -p .ci/artifacts
# run every notebook (2 at a time), nbdev-process, render offline into _docs/, static checks, then headless Chromium
persode docs --out _docs --browser --shots .ci/artifacts/docs-screenshots --json .ci/artifacts/docs-report.json
