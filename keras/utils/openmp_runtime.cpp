// One OpenMP runtime per process (CMakeLists.txt): kerascpp's parallel regions run on LLVM's (libomp), bound when
// the library was linked; oneDNN's, and any code GCC compiled with -fopenmp, on the first runtime that answers
// GCC's entry points in the process: LLVM's, unless a libgomp was loaded ahead of it (a link line that names
// -fopenmp or libgomp before kerascpp, LD_PRELOAD, or a host program that had loaded it). Then two thread pools
// fight over the cores, each one's threads spinning while the other's work (predict can run ten times slower):
// said once on stderr, as the library loads.
#include <dlfcn.h>

#include <cstdio>

extern "C" void GOMP_parallel(void (*fn)(void*), void* data, unsigned threads, unsigned flags);

namespace {

const char* file_of(void* symbol) {
  Dl_info info{};
  return symbol && dladdr(symbol, &info) && info.dli_fname ? info.dli_fname : "(unknown)";
}

[[maybe_unused]] const bool one_openmp_runtime = [] {
  void* ours = reinterpret_cast<void*>(&GOMP_parallel);
  void* theirs = dlvsym(RTLD_DEFAULT, "GOMP_parallel", "GOMP_4.0");  // what oneDNN's calls resolve to
  if (!theirs || theirs == ours) return true;
  std::fprintf(stderr,
               "kerascpp: two OpenMP runtimes in this process: kerascpp runs on %s, oneDNN on %s, loaded "
               "before it, and their thread pools fight over the cores (computation can run many times slower). "
               "Link kerascpp before -fopenmp, OpenMP::OpenMP_CXX or libgomp, and do not preload libgomp.\n",
               file_of(ours), file_of(theirs));
  return false;
}();

}  // namespace
