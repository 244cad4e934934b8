"""The package version, in a module of its own so that any layer can read it without importing
the package's public face (which pulls in the whole library)."""

__all__ = ["__version__"]

__version__ = "0.1.0"
