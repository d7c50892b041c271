#pragma once
// The size of the one OpenMP pool that oneDNN and kerascpp's own loops share.
namespace keras::utils {

/// Sets the number of threads for all computation (omp_set_num_threads).
void set_num_threads(int n);
int get_num_threads();

}  // namespace keras::utils
