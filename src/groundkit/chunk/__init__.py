"""Documents -> chunks whose ``[start, end)`` slice the stored document text exactly."""

from groundkit.chunk.core import pack
from groundkit.chunk.dispatch import chunk_text
from groundkit.chunk.model import CHUNKER_VERSION, ChunkSettings, Section, Span

__all__ = ["CHUNKER_VERSION", "ChunkSettings", "Section", "Span", "chunk_text", "pack"]
