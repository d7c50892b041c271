// One OpenMP runtime, LLVM's, runs kerascpp's parallel regions and oneDNN's (CMakeLists.txt links it ahead of the
// libgomp oneDNN asks for). A library's call of an OpenMP entry point goes to the first definition of that symbol,
// at that version, in the process's global scope: what dlvsym(RTLD_DEFAULT, ...) returns.
#include <dlfcn.h>
#include <omp.h>

#include <catch2/catch.hpp>
#include <string>

namespace {

std::string library_defining(const char* symbol, const char* version) {
  void* address = dlvsym(RTLD_DEFAULT, symbol, version);
  Dl_info info{};
  if (!address || !dladdr(address, &info) || !info.dli_fname) return "(not found)";
  return info.dli_fname;
}

}  // namespace

TEST_CASE("LLVM's OpenMP runtime serves the entry points oneDNN and kerascpp call") {
  // The ones libdnnl.so.2 imports at GCC's versions (nm -D --with-symbol-versions), and those libkerascpp.so
  // imports (bound to libomp's own version when it was linked) at the versions GCC-compiled code would ask for.
  const char* entry_points[][2] = {{"GOMP_parallel", "GOMP_4.0"},      {"GOMP_barrier", "GOMP_1.0"},
                                   {"GOMP_single_start", "GOMP_1.0"},  {"GOMP_loop_end", "GOMP_1.0"},
                                   {"omp_get_max_threads", "OMP_1.0"}, {"omp_get_num_threads", "OMP_1.0"},
                                   {"omp_get_thread_num", "OMP_1.0"},  {"omp_in_parallel", "OMP_1.0"},
                                   {"omp_set_num_threads", "OMP_1.0"},
                                   {"GOMP_loop_ull_nonmonotonic_dynamic_start", "GOMP_4.5"}};
  for (const auto& [symbol, version] : entry_points) {
    INFO(symbol << "@" << version);
    CHECK_THAT(library_defining(symbol, version), Catch::Contains("libomp"));
  }
  // And its pool runs a region on the threads asked for.
  int team = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    team = omp_get_num_threads();
  }
  CHECK(team == 2);
}
