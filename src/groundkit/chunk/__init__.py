"""Documents -> chunks whose ``[start, end)`` slice the stored document text exactly."""

from groundkit.chunk.core import CHUNKER_VERSION, ChunkSettings, Section, Span, pack
from groundkit.chunk.dispatch import chunk_text

__all__ = ["CHUNKER_VERSION", "ChunkSettings", "Section", "Span", "chunk_text", "pack"]
