__version__ = "0.1.0"

# The names most sessions start from, importable as `from persode import MemoryStore`. They are resolved on first use
# so that `import persode` stays light (no torch, no matplotlib until something needs it).
_LAZY = {
    'MemoryStore': 'persode.recall.store', 'StrengthWeights': 'persode.memory.strength', 'Memory': 'persode.memory.strength',
    'LexiconAnalyzer': 'persode.memory.analyzer', 'Analysis': 'persode.memory.analyzer', 'get_embedder': 'persode.memory.embeddings',
    'OnboardingPreferences': 'persode.journal.onboarding', 'EpisodicMemoryAgent': 'persode.journal.agent',
    'JournalEntry': 'persode.journal.agent', 'open_journal': 'persode.storage',
}

def __getattr__(name):
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'persode' has no attribute {name!r}")

def __dir__(): return sorted(list(globals()) + list(_LAZY))
