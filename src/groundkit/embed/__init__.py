"""Embedders: text -> vectors, behind one small Protocol."""

from groundkit.embed.base import Embedder, EmbedderIdentity, InputType

__all__ = ["Embedder", "EmbedderIdentity", "InputType"]
