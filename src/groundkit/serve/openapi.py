"""The OpenAPI document, as committed in docs/openapi.json (a test keeps the two equal).

Regenerate: ``python -m groundkit.serve.openapi > docs/openapi.json``. Every server has the same
routes: without a secret configured, the mutating ones answer 403 (``auth.invalid``).
"""

from __future__ import annotations

import json
import sys
import tempfile
from typing import Any

from groundkit.config import Settings
from groundkit.serve.app import create_app
from groundkit.serve.guards import allowed_hosts_for
from groundkit.serve.runtime import Runtime

__all__ = ["openapi_document"]


def openapi_document() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as index_dir:
        runtime = Runtime(Settings(index_dir=index_dir))
        app = create_app(runtime, allowed_hosts=allowed_hosts_for("127.0.0.1", 8765))
        document: dict[str, Any] = app.openapi()
        runtime.close()
    return document


def main() -> None:
    sys.stdout.write(json.dumps(openapi_document(), indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
