"""Deterministic fakes for groundkit's extension points, shipped for users' tests too."""

from groundkit.testing.embedder import FakeEmbedder
from groundkit.testing.fake_servers import FakeOllamaServer, FakeOpenAIServer, RecordedRequest
from groundkit.testing.tiny_models import write_tiny_cross_encoder

__all__ = [
    "FakeEmbedder",
    "FakeOllamaServer",
    "FakeOpenAIServer",
    "RecordedRequest",
    "write_tiny_cross_encoder",
]
