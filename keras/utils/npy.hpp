#pragma once
// NumPy .npy files: read versions 1.0, 2.0 and 3.0, write version 1.0.
#include <string>

#include "keras/tensor.hpp"

namespace keras::utils {

/// Reads a C-ordered, little-endian .npy array. Supported dtypes: '<f4', '<f8' (converted to float32),
/// '<i4', '<i8', '|u1' and '|b1' (converted to uint8), and NumPy's strings: '<U<n>' (UTF-32, converted to
/// UTF-8) and '|S<n>' (bytes), each a DType::string tensor without the trailing NUL padding. Throws keras::IOError naming the file when it is
/// missing, truncated, corrupt, Fortran-ordered or of another dtype.
Tensor load_npy(const std::string& path);

/// Writes t as a version 1.0 .npy file that numpy.load() reads; a string tensor as '<U<n>' (n the longest
/// element) when all its strings are UTF-8, else as '|S<n>' bytes. The data goes to path + ".tmp" first and
/// is then renamed over path, so a failed save never destroys an existing file. Throws keras::IOError.
void save_npy(const std::string& path, const Tensor& t);

}  // namespace keras::utils
