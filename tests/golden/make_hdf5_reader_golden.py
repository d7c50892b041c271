"""Writes the files tests/keras/hdf5/reader_test.cpp reads, with h5py, to cover what kerascpp's own
HDF5 reader must read besides the Keras fixtures: every numeric type and byte order h5py writes, compact
and contiguous layouts, scalars, nested paths, old-style (symbol table) groups large enough for a two-level
B-tree, new-style groups (link messages), fixed- and variable-length string attributes, a string too big
for the first global heap collection, and one compressed (chunked) dataset, which it refuses.

  hdf5_reader/variants.h5         h5py's default file format (superblock 0): kerascpp's reader
  hdf5_reader/variants_latest.h5  libver="latest" (superblock 3): the HDF5 library reads it

The test compares every value with what the HDF5 library reads from the same file, and checks a few
values written here by hand. Run with Debian's /usr/bin/python3 (python3-h5py, python3-numpy).
"""
import os

import h5py
import numpy as np

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hdf5_reader")


def write(f):
    base = np.array([-2.5, -1.0, 0.0, 0.5, 1.5, 3.0])
    for dtype in ["<f2", "<f4", "<f8", ">f4", ">f8"]:
        f.create_dataset("floats/" + dtype.replace("<", "le_").replace(">", "be_"), data=base.astype(dtype).reshape(2, 3))
    ints = np.array([-128, -1, 0, 1, 2, 127])
    for dtype in ["<i1", "<i2", "<i4", "<i8", ">i4", ">i8"]:
        f.create_dataset("ints/" + dtype.replace("<", "le_").replace(">", "be_"), data=ints.astype(dtype))
    for dtype in ["<u1", "<u2", "<u4", ">u8"]:
        f.create_dataset("ints/" + dtype.replace("<", "le_").replace(">", "be_"), data=np.abs(ints).astype(dtype))
    f.create_dataset("scalar", data=np.float32(7.25))
    f.create_dataset("empty", shape=(0, 4), dtype="f4")
    # A compact dataset keeps its values in its object header.
    space = h5py.h5s.create_simple((4,))
    dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
    dcpl.set_layout(h5py.h5d.COMPACT)
    compact = h5py.h5d.create(f.id, b"compact", h5py.h5t.IEEE_F32LE, space, dcpl)
    compact.write(h5py.h5s.ALL, h5py.h5s.ALL, np.array([1, 2, 3, 4], dtype="f4"))
    f.create_dataset("a/b/c/deep", data=np.arange(5, dtype="f4"))
    many = f.create_group("many")  # 300 members: several symbol table nodes under a two-level B-tree
    for i in range(300):
        many.create_dataset(f"w{i:03d}", data=np.array([i], dtype="f4"))
    ordered = f.create_group("ordered", track_order=True)  # link messages instead of a symbol table
    for name in ["zeta", "alpha", "mid"]:
        ordered.create_dataset(name, data=np.array([len(name)], dtype="i4"))
    f.create_dataset("compressed", data=np.arange(100, dtype="f4"), compression="gzip")
    g = f["a"]
    g.attrs["vlen"] = "variable length"
    g.attrs["vlen_list"] = ["dense", "dense_1", "kernel:0"]
    g.attrs["fixed_list"] = np.array([b"ab", b"cde"])
    g.attrs["fixed"] = np.bytes_("fixed length")
    g.attrs["empty_list"] = np.array([], dtype="f8")
    g.attrs["number"] = np.int32(3)
    f.attrs["long"] = "x" * 20_000 + "end"


for name, libver in [("variants.h5", None), ("variants_latest.h5", "latest")]:
    path = os.path.join(here, name)
    with h5py.File(path, "w", libver=libver) as f:
        write(f)
    print(path, os.path.getsize(path), "bytes")
