#include "keras/kernels/dnnl_context.hpp"

#include <oneapi/dnnl/dnnl_debug.h>

#include "keras/profiler/trace_hooks.hpp"

namespace keras::kernels {

dnnl::engine& engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

dnnl::stream& stream() {
  thread_local dnnl::stream s(engine());
  return s;
}

void execute(const dnnl::primitive& primitive, const std::unordered_map<int, dnnl::memory>& args) {
  profiler::Tracer* const tracer = profiler::tracer();
  if (!tracer) {
    primitive.execute(stream(), args);
    return;
  }
  const std::int64_t begin = profiler::now_ns();
  primitive.execute(stream(), args);
  stream().wait();
  const std::int64_t end = profiler::now_ns();
  const_dnnl_primitive_desc_t pd = primitive.get_primitive_desc();
  dnnl_primitive_kind_t kind = dnnl_undefined_primitive;
  const char* impl = "";
  dnnl_primitive_desc_query(pd, dnnl_query_primitive_kind, 0, &kind);
  dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
  tracer->kernel(dnnl_prim_kind2str(kind), impl ? impl : "", begin, end);
}

}  // namespace keras::kernels
