"""The `grk` command line: parse, call the library, render, translate errors."""
