"Shared by the tests: the repository root first on the import path (persode may or may not be pip-installed), and the repository's tools."
import os, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT/'tools', ROOT): sys.path.insert(0, str(p))
os.environ['PYTHONPATH'] = os.pathsep.join([str(ROOT)] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p])
os.environ.setdefault('MPLBACKEND', 'Agg')
