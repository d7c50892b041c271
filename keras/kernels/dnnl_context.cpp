#include "keras/kernels/dnnl_context.hpp"

namespace keras::kernels {

dnnl::engine& engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

dnnl::stream& stream() {
  thread_local dnnl::stream s(engine());
  return s;
}

}  // namespace keras::kernels
