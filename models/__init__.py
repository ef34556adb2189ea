"""NLI backends behind one protocol, a registry of named models, and the embedded default."""

from models.base import ModelLoadError, NLIModel, NLIScores, Pair
from models.registry import available_models, load_model

__all__ = ["ModelLoadError", "NLIModel", "NLIScores", "Pair", "available_models", "load_model"]
