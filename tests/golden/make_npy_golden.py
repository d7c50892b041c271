#!/usr/bin/python3
"""Writes the small .npy fixtures that tests/keras/utils/npy_test.cpp reads, into tests/golden/npy/.

Run from anywhere: /usr/bin/python3 tests/golden/make_npy_golden.py
The files are small and committed; the C++ test hard-codes the values written here.
"""
import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "npy")


def save(name, arr, version=None):
    path = os.path.join(OUT, name + ".npy")
    if version is None:
        np.save(path, arr)
    else:
        with open(path, "wb") as f:
            np.lib.format.write_array(f, arr, version=version)


def main():
    os.makedirs(OUT, exist_ok=True)
    save("f4_2x3", (np.arange(6, dtype="<f4") * 0.5 - 1).reshape(2, 3))
    save("f8_4", np.array([0.25, -1.5, 1e10, 3.0], dtype="<f8"))
    save("i4_2x2x2", (np.arange(8, dtype="<i4") - 4).reshape(2, 2, 2))
    save("i8_scalar", np.array(-1234567890123, dtype="<i8"))
    save("u1_5", np.array([0, 1, 127, 128, 255], dtype="u1"))
    save("b1_4", np.array([True, False, False, True]))
    save("f4_empty_0x3", np.zeros((0, 3), dtype="<f4"))
    save("f4_v2", np.arange(3, dtype="<f4"), version=(2, 0))
    save("f4_v3", np.arange(3, dtype="<f4"), version=(3, 0))
    save("f4_fortran", np.asfortranarray(np.arange(6, dtype="<f4").reshape(2, 3)))
    save("f4_bigendian", np.arange(3, dtype=">f4"))
    save("i2_3", np.arange(3, dtype="<i2"))
    # Strings: '<U' (UTF-32: 1-, 2-, 3- and 4-byte UTF-8 characters, and a shorter element padded with NULs)
    # and '|S' bytes (not UTF-8; an inner NUL is kept, trailing ones are padding).
    save("U5_2x2", np.array([["a", "h\u00e9llo"], ["\u65e5\u672c", "\U0001F600x"]]))
    save("S3_3", np.array([b"ab", b"", b"\xff\x00z"]))
    save("U1_empty_0", np.array([], dtype="<U1"))


if __name__ == "__main__":
    main()
