#pragma once
// A guard in front of HDF5 1.10 (Debian 12's) for files from strangers: it trusts the object sizes
// inside a global heap collection, where variable-length strings (h5py's str attributes, such as
// model_config) live. A corrupt size makes H5Aread copy from far outside the heap, a segfault in
// the reader's process (found by fuzz_hdf5_model), and a zero size loops forever. This check walks
// every global heap collection of the file before HDF5 reads it.
#include <string>

namespace keras::hdf5 {

/// Throws keras::IOError naming the file when a global heap collection's objects do not tile it.
void check_global_heaps(const std::string& path);

}  // namespace keras::hdf5
