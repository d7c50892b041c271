#include "keras/utils/threads.hpp"

#include <omp.h>

#include "keras/errors.hpp"

namespace keras::utils {

void set_num_threads(int n) {
  if (n < 1) throw ValueError("set_num_threads needs a positive number of threads, got " + std::to_string(n));
  omp_set_num_threads(n);
}

int get_num_threads() { return omp_get_max_threads(); }

}  // namespace keras::utils
