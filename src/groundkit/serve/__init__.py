"""REST and MCP over one runtime: ``create_app`` (HTTP, both) and ``create_mcp_server`` (stdio).

Needs the ``serve`` extra: ``pip install 'groundkit[serve]'``.
"""

from groundkit.serve.runtime import Runtime
from groundkit.serve.secret import SharedSecret, secret_from_env

__all__ = ["Runtime", "SharedSecret", "secret_from_env"]
