"""Embedders: text -> vectors, behind one small Protocol."""

from groundkit.embed.base import Embedder, EmbedderIdentity, InputType
from groundkit.embed.blas import one_blas_thread

one_blas_thread()  # before any numpy import: see groundkit.embed.blas

__all__ = ["Embedder", "EmbedderIdentity", "InputType"]
