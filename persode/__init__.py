__version__ = "0.1.0"

# The names most sessions start from, importable as `from persode import MemoryStore`. They are resolved on first use
# so that `import persode` stays light (no torch, no matplotlib until something needs it).
_LAZY = {
    'MemoryStore': 'persode.store', 'StrengthWeights': 'persode.strength', 'Memory': 'persode.strength',
    'LexiconAnalyzer': 'persode.analyzer', 'Analysis': 'persode.analyzer', 'get_embedder': 'persode.embeddings',
    'OnboardingPreferences': 'persode.onboarding', 'EpisodicMemoryAgent': 'persode.agent',
    'JournalEntry': 'persode.agent', 'open_journal': 'persode.storage',
}

def __getattr__(name):
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'persode' has no attribute {name!r}")

def __dir__(): return sorted(list(globals()) + list(_LAZY))
