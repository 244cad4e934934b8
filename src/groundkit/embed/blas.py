"""One BLAS thread for numpy, unless the user chose otherwise.

A vector search is one matrix-vector product. With OpenBLAS's default of a thread per core, on a
machine whose cores are busy (an embedding model in the same process, another process), that
product waits for threads that are not scheduled: ``benchmarks/blas_threads.py`` measured a
search over 10,731 vectors at 0.36 ms quiet and 24 ms with two cores busy, against 0.71 ms with
one thread, busy or not. The variable only counts if it is set before numpy is first imported,
so groundkit sets it (when it is not set already) on import of ``groundkit.embed`` and of the
vector index, both of which come before any numpy import of groundkit's own. A program that
imported numpy before groundkit keeps the threads it started with.
"""

from __future__ import annotations

import os
import sys

__all__ = ["one_blas_thread"]

# OpenBLAS (numpy's wheels) and MKL (some distributions' numpy); not OMP_NUM_THREADS, which
# llama.cpp and others read for work that does want every core.
_VARIABLES = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def one_blas_thread() -> None:
    if "numpy" in sys.modules:
        return  # its BLAS has read the environment already: too late, and not ours to change
    for name in _VARIABLES:
        os.environ.setdefault(name, "1")
