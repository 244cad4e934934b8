"""Sources -> normalised text: path walking, URL fetching, per-format loaders."""
