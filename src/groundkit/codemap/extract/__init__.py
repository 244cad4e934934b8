"""Language extractors behind one seam (``base.Extractor``)."""
