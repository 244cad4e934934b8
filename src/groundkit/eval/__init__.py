"""Retrieval evaluation: datasets, metrics, the stage runner, reports and the regression gate."""
