#include "layers/attention/attention_utils.hpp"


#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "keras/utils/random.hpp"

namespace keras::layers::detail {

Tensor masked_softmax(const Tensor& scores, const Tensor& keep) {
  if (!keep.defined()) return ops::softmax(scores, -1);
  // (1 - keep) * 1e9 is a constant: no gradient flows into the mask.
  const Tensor penalty = ops::multiply(ops::subtract(Tensor::scalar(1.f), keep.astype(DType::float32)),
                                       Tensor::scalar(1e9f));
  return ops::softmax(ops::subtract(scores, ops::stop_gradient(penalty)), -1);
}

Tensor causal_mask(std::int64_t tq, std::int64_t tv) {
  Tensor m = Tensor::empty({1, tq, tv});
  float* p = m.data<float>();
  for (std::int64_t i = 0; i < tq; ++i)
    for (std::int64_t j = 0; j < tv; ++j) p[i * tv + j] = j <= i ? 1.f : 0.f;
  return m;
}

Tensor merge_masks(const Tensor& a, const Tensor& b) {
  if (!a.defined()) return b;
  if (!b.defined()) return a;
  return ops::stop_gradient(ops::multiply(a, b));
}

Tensor attention_dropout(const Tensor& x, double rate, bool training) {
  if (!training || rate <= 0.0) return x;
  Tensor mask = Tensor::empty(x.shape());
  utils::fill_dropout_mask(mask.data<float>(), mask.size(), rate, utils::random_generator());
  return ops::multiply(x, mask);
}

}  // namespace keras::layers::detail
