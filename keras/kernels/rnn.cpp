#include "keras/kernels/rnn.hpp"

#include <cstring>
#include <vector>

#include "keras/errors.hpp"
#include "keras/kernels/dnnl_context.hpp"
#include "keras/kernels/lstm_training.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::kernels {
namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;
using md = dnnl::memory::desc;

bool is_lstm(RnnCell c) { return c == RnnCell::lstm; }

// Memory descriptors of one layer, one direction. Weights are left to oneDNN (`any`); the user's
// Keras-layout weights are reordered into whatever it picks.
struct Descs {
  md x, state, c, w_any, r_any, w_user, r_user, b, y;
};

Descs descs_of(const RnnArgs& a) {
  const auto G = rnn_gates(a.cell), BG = rnn_bias_gates(a.cell);
  Descs d;
  d.x = md({a.time, a.batch, a.input}, dt::f32, tag::ntc);
  d.y = md({a.time, a.batch, a.units}, dt::f32, tag::ntc);
  d.state = md({1, 1, a.batch, a.units}, dt::f32, tag::ldnc);
  d.c = is_lstm(a.cell) ? d.state : md();
  d.w_any = md({1, 1, a.input, G, a.units}, dt::f32, tag::any);
  d.r_any = md({1, 1, a.units, G, a.units}, dt::f32, tag::any);
  d.w_user = md({1, 1, a.input, G, a.units}, dt::f32, tag::ldigo);
  d.r_user = md({1, 1, a.units, G, a.units}, dt::f32, tag::ldigo);
  d.b = md({1, 1, BG, a.units}, dt::f32, tag::ldgo);
  return d;
}

dnnl::algorithm vanilla_activation(RnnCell c) {
  switch (c) {
    case RnnCell::vanilla_relu: return dnnl::algorithm::eltwise_relu;
    case RnnCell::vanilla_sigmoid: return dnnl::algorithm::eltwise_logistic;
    default: return dnnl::algorithm::eltwise_tanh;
  }
}

struct Entry {
  dnnl::rnn_primitive_desc_base fwd_pd, bwd_pd;
  dnnl::primitive fwd, bwd;
  dnnl::memory w, r;      // weights in the forward primitive's format
  dnnl::memory bw, br;    // weights in the backward primitive's format
  dnnl::memory dw, dr;    // weight gradients in the backward primitive's format
  dnnl::memory w_user, r_user, dw_user, dr_user;  // unbound Keras-layout views
};

dnnl::memory owned(const md& d) { return dnnl::memory(d, engine()); }
dnnl::memory unbound(const md& d) { return dnnl::memory(d, engine(), DNNL_MEMORY_NONE); }

// Creates the forward (and, when training, backward) primitives of one cell kind.
template <class Fwd, class Bwd, class MakeFwd, class MakeBwd>
void create(Entry& e, bool training, MakeFwd make_fwd, MakeBwd make_bwd) {
  const auto prop = training ? dnnl::prop_kind::forward_training : dnnl::prop_kind::forward_inference;
  typename Fwd::primitive_desc fpd(make_fwd(prop), engine());
  e.fwd_pd = fpd;
  e.fwd = Fwd(fpd);
  if (!training) return;
  typename Bwd::primitive_desc bpd(make_bwd(), engine(), fpd);
  e.bwd_pd = bpd;
  e.bwd = Bwd(bpd);
}

Entry& entry(const RnnArgs& a, bool training) {
  auto& cache = primitive_cache<Entry>();
  // Field by field: RnnArgs has padding bytes, which must not enter the key.
  const auto key = cache_key(a.batch, a.time, a.input, a.units, static_cast<std::int32_t>(a.cell), training);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const Descs d = descs_of(a);
  const auto dir = dnnl::rnn_direction::unidirectional_left2right;
  const auto bwd = dnnl::prop_kind::backward;
  Entry e;
  switch (a.cell) {
    case RnnCell::lstm:
      create<dnnl::lstm_forward, dnnl::lstm_backward>(
          e, training,
          [&](dnnl::prop_kind p) {
            return dnnl::lstm_forward::desc(p, dir, d.x, d.state, d.c, d.w_any, d.r_any, d.b, d.y, d.state, d.c);
          },
          [&] {
            return dnnl::lstm_backward::desc(bwd, dir, d.x, d.state, d.c, d.w_any, d.r_any, d.b, d.y, d.state, d.c, d.x,
                                             d.state, d.c, d.w_any, d.r_any, d.b, d.y, d.state, d.c);
          });
      break;
    case RnnCell::gru:
      create<dnnl::gru_forward, dnnl::gru_backward>(
          e, training,
          [&](dnnl::prop_kind p) {
            return dnnl::gru_forward::desc(p, dir, d.x, d.state, d.w_any, d.r_any, d.b, d.y, d.state);
          },
          [&] {
            return dnnl::gru_backward::desc(bwd, dir, d.x, d.state, d.w_any, d.r_any, d.b, d.y, d.state, d.x, d.state,
                                            d.w_any, d.r_any, d.b, d.y, d.state);
          });
      break;
    case RnnCell::lbr_gru:
      create<dnnl::lbr_gru_forward, dnnl::lbr_gru_backward>(
          e, training,
          [&](dnnl::prop_kind p) {
            return dnnl::lbr_gru_forward::desc(p, dir, d.x, d.state, d.w_any, d.r_any, d.b, d.y, d.state);
          },
          [&] {
            return dnnl::lbr_gru_backward::desc(bwd, dir, d.x, d.state, d.w_any, d.r_any, d.b, d.y, d.state, d.x,
                                                d.state, d.w_any, d.r_any, d.b, d.y, d.state);
          });
      break;
    default: {
      const auto act = vanilla_activation(a.cell);
      create<dnnl::vanilla_rnn_forward, dnnl::vanilla_rnn_backward>(
          e, training,
          [&](dnnl::prop_kind p) {
            return dnnl::vanilla_rnn_forward::desc(p, act, dir, d.x, d.state, d.w_any, d.r_any, d.b, d.y, d.state);
          },
          [&] {
            return dnnl::vanilla_rnn_backward::desc(bwd, act, dir, d.x, d.state, d.w_any, d.r_any, d.b, d.y, d.state,
                                                    d.x, d.state, d.w_any, d.r_any, d.b, d.y, d.state);
          });
    }
  }
  e.w = owned(e.fwd_pd.weights_layer_desc());
  e.r = owned(e.fwd_pd.weights_iter_desc());
  e.w_user = unbound(d.w_user);
  e.r_user = unbound(d.r_user);
  if (training) {
    e.bw = owned(e.bwd_pd.weights_layer_desc());
    e.br = owned(e.bwd_pd.weights_iter_desc());
    e.dw = owned(e.bwd_pd.diff_weights_layer_desc());
    e.dr = owned(e.bwd_pd.diff_weights_iter_desc());
    e.dw_user = unbound(d.w_user);
    e.dr_user = unbound(d.r_user);
  }
  return cache.emplace(key, std::move(e)).first->second;
}

void reorder(dnnl::memory& from, dnnl::memory& to) {
  execute(dnnl::reorder(from, to), {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}});
}

dnnl::memory bind(const md& d, const void* p) { return dnnl::memory(d, engine(), const_cast<void*>(p)); }

// oneDNN's RNN primitives open parallel regions at every time step: below a few million
// multiply-adds per step, waking the pool costs more than the step (measured: LSTM(32), batch 64
// trains at 6 ms/step on one thread, 15-300 ms/step on two threads of a busy machine).
constexpr std::int64_t kSerialStepWork = 1 << 22;

std::int64_t work(const RnnArgs& a) {
  const std::int64_t per_step = a.batch * (a.input + a.units) * rnn_gates(a.cell) * a.units;
  return per_step < kSerialStepWork ? 0 : kParallelGrain;  // what SmallWorkScope compares with its grain
}

}  // namespace

int rnn_gates(RnnCell cell) {
  switch (cell) {
    case RnnCell::lstm: return 4;
    case RnnCell::gru:
    case RnnCell::lbr_gru: return 3;
    default: return 1;
  }
}

void lbr_gru_bias_from_keras(std::int64_t u, const float* k, float* d) {
  for (std::int64_t i = 0; i < 2 * u; ++i) d[i] = k[i] + k[3 * u + i];
  for (std::int64_t i = 0; i < u; ++i) {
    d[2 * u + i] = k[2 * u + i];
    d[3 * u + i] = k[5 * u + i];
  }
}

void lbr_gru_bias_grad_to_keras(std::int64_t u, const float* d, float* k) {
  for (std::int64_t i = 0; i < 2 * u; ++i) k[i] = k[3 * u + i] = d[i];
  for (std::int64_t i = 0; i < u; ++i) {
    k[2 * u + i] = d[2 * u + i];
    k[5 * u + i] = d[3 * u + i];
  }
}

int rnn_bias_gates(RnnCell cell) { return cell == RnnCell::lbr_gru ? 4 : rnn_gates(cell); }

std::size_t rnn_workspace_bytes(const RnnArgs& a) {
  if (lstm_training_fits(a)) return lstm_training_workspace_bytes(a);
  return entry(a, true).fwd_pd.workspace_desc().get_size();
}

void rnn_forward(const RnnArgs& a, const float* x, const float* h0, const float* c0, const float* w, const float* r,
                 const float* b, float* y, float* h, float* c, void* workspace) {
  if (a.batch * a.time * a.units == 0) return;
  if (workspace && lstm_training_fits(a)) return lstm_training_forward(a, x, h0, c0, w, r, b, y, h, c, workspace);
  SmallWorkScope serial_if_small(work(a));
  Entry& e = entry(a, workspace != nullptr);
  const Descs d = descs_of(a);
  std::vector<float> zeros;
  if (!h0 || (is_lstm(a.cell) && !c0)) zeros.assign(static_cast<std::size_t>(a.batch * a.units), 0.f);
  e.w_user.set_data_handle(const_cast<float*>(w));
  e.r_user.set_data_handle(const_cast<float*>(r));
  reorder(e.w_user, e.w);
  reorder(e.r_user, e.r);
  std::unordered_map<int, dnnl::memory> args{
      {DNNL_ARG_SRC_LAYER, bind(d.x, x)},
      {DNNL_ARG_SRC_ITER, bind(d.state, h0 ? h0 : zeros.data())},
      {DNNL_ARG_WEIGHTS_LAYER, e.w},
      {DNNL_ARG_WEIGHTS_ITER, e.r},
      {DNNL_ARG_BIAS, bind(d.b, b)},
      {DNNL_ARG_DST_LAYER, bind(d.y, y)},
      {DNNL_ARG_DST_ITER, bind(d.state, h)}};
  if (is_lstm(a.cell)) {
    args.emplace(DNNL_ARG_SRC_ITER_C, bind(d.c, c0 ? c0 : zeros.data()));
    args.emplace(DNNL_ARG_DST_ITER_C, bind(d.c, c));
  }
  if (workspace) args.emplace(DNNL_ARG_WORKSPACE, bind(e.fwd_pd.workspace_desc(), workspace));
  execute(e.fwd, args);
  stream().wait();
}

void rnn_backward(const RnnArgs& a, const RnnBackwardArgs& g) {
  const std::size_t state = static_cast<std::size_t>(a.batch * a.units);
  if (a.batch * a.time * a.units == 0) {
    std::memset(g.dx, 0, sizeof(float) * static_cast<std::size_t>(a.batch * a.time * a.input));
    return;
  }
  if (lstm_training_fits(a)) return lstm_training_backward(a, g);
  SmallWorkScope serial_if_small(work(a));
  Entry& e = entry(a, true);
  const Descs d = descs_of(a);
  const bool lstm = is_lstm(a.cell);
  std::vector<float> zeros(state, 0.f), dh0_scratch(g.dh0 ? 0 : state), dc0_scratch(lstm && !g.dc0 ? state : 0);
  e.w_user.set_data_handle(const_cast<float*>(g.w));
  e.r_user.set_data_handle(const_cast<float*>(g.r));
  reorder(e.w_user, e.bw);
  reorder(e.r_user, e.br);
  // oneDNN accumulates into the weight gradients.
  std::memset(e.dw.get_data_handle(), 0, e.dw.get_desc().get_size());
  std::memset(e.dr.get_data_handle(), 0, e.dr.get_desc().get_size());
  std::memset(g.db, 0, sizeof(float) * static_cast<std::size_t>(rnn_bias_gates(a.cell) * a.units));
  std::unordered_map<int, dnnl::memory> args{
      {DNNL_ARG_SRC_LAYER, bind(d.x, g.x)},
      {DNNL_ARG_SRC_ITER, bind(d.state, g.h0 ? g.h0 : zeros.data())},
      {DNNL_ARG_WEIGHTS_LAYER, e.bw},
      {DNNL_ARG_WEIGHTS_ITER, e.br},
      {DNNL_ARG_BIAS, bind(d.b, g.b)},
      {DNNL_ARG_DST_LAYER, bind(d.y, g.y)},
      {DNNL_ARG_DST_ITER, bind(d.state, g.h)},
      {DNNL_ARG_DIFF_SRC_LAYER, bind(d.x, g.dx)},
      {DNNL_ARG_DIFF_SRC_ITER, bind(d.state, g.dh0 ? g.dh0 : dh0_scratch.data())},
      {DNNL_ARG_DIFF_WEIGHTS_LAYER, e.dw},
      {DNNL_ARG_DIFF_WEIGHTS_ITER, e.dr},
      {DNNL_ARG_DIFF_BIAS, bind(d.b, g.db)},
      {DNNL_ARG_DIFF_DST_LAYER, bind(d.y, g.dy)},
      {DNNL_ARG_DIFF_DST_ITER, bind(d.state, g.dh ? g.dh : zeros.data())},
      {DNNL_ARG_WORKSPACE, bind(e.bwd_pd.workspace_desc(), g.workspace)}};
  if (lstm) {
    args.emplace(DNNL_ARG_SRC_ITER_C, bind(d.c, g.c0 ? g.c0 : zeros.data()));
    args.emplace(DNNL_ARG_DST_ITER_C, bind(d.c, g.c));
    args.emplace(DNNL_ARG_DIFF_SRC_ITER_C, bind(d.c, g.dc0 ? g.dc0 : dc0_scratch.data()));
    args.emplace(DNNL_ARG_DIFF_DST_ITER_C, bind(d.c, g.dc ? g.dc : zeros.data()));
  }
  execute(e.bwd, args);
  e.dw_user.set_data_handle(g.dw);
  e.dr_user.set_data_handle(g.dr);
  reorder(e.dw, e.dw_user);
  reorder(e.dr, e.dr_user);
  stream().wait();
}

}  // namespace keras::kernels
