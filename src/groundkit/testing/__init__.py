"""Deterministic fakes for groundkit's extension points, shipped for users' tests too."""

from groundkit.testing.chat import (
    ForbiddenTransport,
    MemoryKeyring,
    RecordingTransport,
    ScriptedChat,
    ScriptedReply,
    TransportCalled,
)
from groundkit.testing.chat_server import FakeChatServer
from groundkit.testing.codemap import LinksExtractor
from groundkit.testing.embedder import FakeEmbedder
from groundkit.testing.fake_servers import FakeOllamaServer, FakeOpenAIServer, RecordedRequest
from groundkit.testing.graph_builder import GraphBuilder
from groundkit.testing.map_graph import MakeGraph, MapGraphContract
from groundkit.testing.tiny_models import write_tiny_cross_encoder

__all__ = [
    "FakeChatServer",
    "FakeEmbedder",
    "FakeOllamaServer",
    "FakeOpenAIServer",
    "ForbiddenTransport",
    "GraphBuilder",
    "LinksExtractor",
    "MakeGraph",
    "MapGraphContract",
    "MemoryKeyring",
    "RecordedRequest",
    "RecordingTransport",
    "ScriptedChat",
    "ScriptedReply",
    "TransportCalled",
    "write_tiny_cross_encoder",
]
