#pragma once
// The exceptions kerascpp throws. Every message names the layer, the shapes or the file, and the fix.
#include <stdexcept>
#include <string>

namespace keras {

/// Base of every kerascpp exception.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A bad argument: wrong shape, unknown identifier, inconsistent lengths (Python's ValueError).
class ValueError : public Error {
 public:
  using Error::Error;
};

/// A file that is missing, unreadable, truncated or corrupt.
class IOError : public Error {
 public:
  using Error::Error;
};

/// The end of a sequence was reached (tf.errors.OutOfRangeError): Iterator::get_next after the last element.
class OutOfRangeError : public Error {
 public:
  using Error::Error;
};

}  // namespace keras
