#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "test_paths.hpp"

namespace keras_test {
extern const char* const golden_dir = KERAS_GOLDEN_DIR;
extern const char* const shared_dir = KERAS_SHARED_DIR;
extern const char* const bin_dir = KERAS_BIN_DIR;
}  // namespace keras_test
