"""Writes tests/golden/fuzz_findings/declared_shapes.h5 with h5py: datasets whose declared shape the file does
not hold, the kind of damage fuzz_hdf5_model found (a reader that trusts the shape allocates gigabytes first).

  w_unstored  float32 [1e9], contiguous, never written: the file stores 0 of its 4 GB
  w_huge      float32 [2**40, 2**40], chunked 1x1, never written: 2**80 values
  w_ok        float32 [3] = 1, 2, 3, written

Run with Debian's /usr/bin/python3 (python3-h5py, python3-numpy).
"""
import os

import h5py
import numpy as np

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz_findings", "declared_shapes.h5")
with h5py.File(path, "w") as f:
    f.create_dataset("w_unstored", shape=(10**9,), dtype="f4")
    f.create_dataset("w_huge", shape=(2**40, 2**40), dtype="f4", chunks=(1, 1))
    f.create_dataset("w_ok", data=np.array([1, 2, 3], dtype="f4"))
print(path, os.path.getsize(path), "bytes")
