"""Queries -> ranked, cited hits; citations -> text re-read and re-checked."""
