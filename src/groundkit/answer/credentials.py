"""Provider keys: the keychain and environment lookups live in ``groundkit.credentials`` (a base
module, since a Qdrant collection's key is read the same way); re-exported here for callers."""

from groundkit.credentials import SERVICE, KeyStore, read_key

__all__ = ["SERVICE", "KeyStore", "read_key"]
