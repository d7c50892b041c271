#pragma once
// Where the tests find their files: tests/golden, ../shared (the real Keras fixtures) and build/bin.
// tests/CMakeLists.txt gives these absolute paths to main.cpp alone, so that no other test file's
// compile command names a path of this clone (ccache then shares test objects between clones).
namespace keras_test {
extern const char* const golden_dir;
extern const char* const shared_dir;
extern const char* const bin_dir;
}  // namespace keras_test
