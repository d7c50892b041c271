#pragma once
// What every fuzz target shares: the input as a file (our parsers read files), and the rule that a
// parser may reject input only with a keras:: exception. Anything else — another exception, a crash,
// a sanitizer report — is a finding: libFuzzer stops and saves the input.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>

#include <unistd.h>

#include "keras/errors.hpp"

namespace keras_fuzz {

/// Writes the input to a per-process file in /dev/shm (RAM) and returns its path.
inline std::string as_file(const std::uint8_t* data, std::size_t size, const std::string& suffix) {
  const std::string path = "/dev/shm/kerascpp_fuzz_" + std::to_string(::getpid()) + suffix;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

/// Runs `parse`; a keras::Error is a clean rejection, any other exception aborts (a finding).
template <class F>
int run(F&& parse) {
  try {
    parse();
  } catch (const keras::Error&) {
  } catch (const std::exception& e) {
    std::fprintf(stderr, "non-keras exception escaped: %s\n", e.what());
    std::abort();
  }
  return 0;
}

}  // namespace keras_fuzz
