// keras::ops index, shape, sorting, cumulative, diagonal, selection, binary-math, softmax, einsum and creation
// ops: values and gradients against PyTorch (tests/golden/make_ops2_golden.py), finite differences, dtypes and
// errors.
#include <algorithm>
#include <map>
#include <string>

#include <catch2/catch.hpp>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/ops/binary_math.hpp"
#include "keras/ops/broadcasting.hpp"
#include "keras/ops/comparison.hpp"
#include "keras/ops/composite_reductions.hpp"
#include "keras/ops/creation.hpp"
#include "keras/ops/decompositions.hpp"
#include "keras/ops/cumulative.hpp"
#include "keras/ops/diagonal.hpp"
#include "keras/ops/einsum.hpp"
#include "keras/ops/gather.hpp"
#include "keras/ops/linalg.hpp"
#include "keras/ops/logical.hpp"
#include "keras/ops/norm.hpp"
#include "keras/ops/reordering.hpp"
#include "keras/ops/scatter.hpp"
#include "keras/ops/selection.hpp"
#include "keras/ops/sorting.hpp"
#include "keras/ops/stacking.hpp"

using namespace keras;
using keras::testing::golden_tensor;
using keras::testing::load_golden;

namespace {

using Inputs = std::vector<Tensor>;

std::optional<int> opt_axis(const json& args) {
  if (!args.contains("axis") || args["axis"].is_null()) return std::nullopt;
  return args["axis"].get<int>();
}

Tensor weighted_concat(const std::vector<Tensor>& pieces, int axis) {
  std::vector<Tensor> scaled;
  for (std::size_t i = 0; i < pieces.size(); ++i) scaled.push_back(ops::multiply(pieces[i], Tensor::scalar(float(i + 1))));
  return ops::concatenate(scaled, axis);
}

Tensor apply(const std::string& op, const Inputs& in, const json& a) {
  if (op == "take") return ops::take(in[0], in[1], opt_axis(a));
  if (op == "take_along_axis") return ops::take_along_axis(in[0], in[1], opt_axis(a));
  if (op == "gather_nd") return ops::gather_nd(in[0], in[1]);
  if (op == "scatter") return ops::scatter(in[0], in[1], a["shape"].get<Shape>());
  if (op == "scatter_update") return ops::scatter_update(in[0], in[1], in[2]);
  if (op == "segment_sum") return ops::segment_sum(in[0], in[1], a["num_segments"].get<std::int64_t>());
  if (op == "broadcast_to") return ops::broadcast_to(in[0], a["shape"].get<Shape>());
  if (op == "tile") return ops::tile(in[0], a["reps"].get<std::vector<std::int64_t>>());
  if (op == "stack") return ops::stack(in, a["axis"].get<int>());
  if (op == "unstack") {
    auto parts = ops::unstack(in[0], std::nullopt, a["axis"].get<int>());
    for (std::size_t i = 0; i < parts.size(); ++i) parts[i] = ops::multiply(parts[i], Tensor::scalar(float(i + 1)));
    return ops::stack(parts, 0);
  }
  if (op == "split") {
    const int axis = a["axis"].get<int>();
    return weighted_concat(a.contains("sections")
                               ? ops::split(in[0], a["sections"].get<std::int64_t>(), axis)
                               : ops::split(in[0], a["indices"].get<std::vector<std::int64_t>>(), axis),
                           axis);
  }
  if (op == "squeeze") return ops::squeeze(in[0], a["axes"].get<std::vector<int>>());
  if (op == "flip") return ops::flip(in[0], a["axes"].get<std::vector<int>>());
  if (op == "roll") return ops::roll(in[0], a["shift"].get<std::int64_t>(), opt_axis(a));
  if (op == "permute_axes") return ops::permute_axes(in[0], a["perm"].get<std::vector<int>>());
  if (op == "sort") return ops::sort(in[0], a["axis"].get<int>());
  if (op == "argsort") return ops::argsort(in[0], a["axis"].get<int>());
  if (op == "top_k_values") return ops::top_k(in[0], a["k"].get<std::int64_t>()).first;
  if (op == "top_k_indices") return ops::top_k(in[0], a["k"].get<std::int64_t>()).second;
  if (op == "argmin") return ops::argmin(in[0], a["axis"].get<int>());
  if (op == "cumsum") return ops::cumsum(in[0], opt_axis(a));
  if (op == "cumprod") return ops::cumprod(in[0], opt_axis(a));
  if (op == "prod") return ops::prod(in[0], a["axes"].get<std::vector<int>>(), a["keepdims"].get<bool>());
  if (op == "diag") return ops::diag(in[0], a["k"].get<std::int64_t>());
  if (op == "diagonal") return ops::diagonal(in[0], a["offset"], a["axis1"], a["axis2"]);
  if (op == "trace") return ops::trace(in[0], a["offset"], a["axis1"], a["axis2"]);
  if (op == "tril") return ops::tril(in[0], a["k"].get<std::int64_t>());
  if (op == "triu") return ops::triu(in[0], a["k"].get<std::int64_t>());
  if (op == "where") return ops::where(in[0], in[1], in[2]);
  if (op == "power") return ops::power(in[0], in[1]);
  if (op == "mod") return ops::mod(in[0], in[1]);
  if (op == "floor_divide") return ops::floor_divide(in[0], in[1]);
  if (op == "softmax") return ops::softmax(in[0], a["axis"].get<int>());
  if (op == "log_softmax") return ops::log_softmax(in[0], a["axis"].get<int>());
  if (op == "einsum") return ops::einsum(a["eq"].get<std::string>(), in);
  if (op == "arange") return ops::arange(a["start"], a["stop"].get<double>(), a["step"]);
  if (op == "linspace") return ops::linspace(a["start"], a["stop"], a["num"]);
  if (op == "eye") return ops::eye(a["n"], a["m"].get<std::int64_t>());
  static const std::map<std::string, Tensor (*)(const Tensor&, const Tensor&)> binary{
      {"equal", ops::equal},         {"not_equal", ops::not_equal},     {"less", ops::less},
      {"less_equal", ops::less_equal}, {"greater", ops::greater},       {"greater_equal", ops::greater_equal},
      {"logical_and", ops::logical_and}, {"logical_or", ops::logical_or}, {"logical_xor", ops::logical_xor}};
  if (auto it = binary.find(op); it != binary.end()) return it->second(in[0], in[1]);
  if (op == "isnan") return ops::isnan(in[0]);
  if (op == "isinf") return ops::isinf(in[0]);
  if (op == "isfinite") return ops::isfinite(in[0]);
  if (op == "logical_not") return ops::logical_not(in[0]);
  if (op == "any") return ops::any(in[0], a["axes"].get<std::vector<int>>(), a["keepdims"].get<bool>());
  if (op == "all") return ops::all(in[0], a["axes"].get<std::vector<int>>(), a["keepdims"].get<bool>());
  if (op == "inv") return ops::inv(in[0]);
  if (op == "det") return ops::det(in[0]);
  if (op == "solve") return ops::solve(in[0], in[1]);
  if (op == "cholesky") return ops::cholesky(in[0]);
  if (op == "matrix_transpose") return ops::matrix_transpose(in[0]);
  if (op == "norm") {
    ops::NormOrd ord;
    if (a["ord"].is_number()) ord = a["ord"].get<double>();
    else if (a["ord"] == "inf") ord = ops::inf;
    else if (a["ord"] == "-inf") ord = -ops::inf;
    else if (a["ord"].is_string()) ord = a["ord"].get<std::string>();
    return ops::norm(in[0], ord, a["axes"].get<std::vector<int>>(), a.value("keepdims", false));
  }
  if (op == "svd_s") return ops::svd(in[0], false, false).s;
  if (op == "eigh_w") return ops::eigh(in[0]).first;
  if (op == "qr_r_abs") return ops::abs(ops::qr(in[0], a.value("mode", "reduced")).second);
  FAIL("unknown op " << op);
  return Tensor();
}

Tensor load(json t) {
  for (auto& v : t["data"])  // non-finite values are written as strings
    if (v.is_string()) v = v == "nan" ? std::numeric_limits<double>::quiet_NaN() : (v == "inf" ? 1.0 : -1.0) * std::numeric_limits<double>::infinity();
  return golden_tensor(t);
}

void check_close(const Tensor& got, const Tensor& want) {
  REQUIRE(got.shape() == want.shape());
  const auto g = got.astype(DType::float32), w = want.astype(DType::float32);
  for (std::int64_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    const float gv = g.data<float>()[i], wv = w.data<float>()[i];
    if (!std::isfinite(wv)) CHECK((std::isnan(wv) ? std::isnan(gv) : gv == wv));
    else CHECK(gv == Approx(wv).epsilon(1e-5).margin(1e-5));
  }
}

}  // namespace

TEST_CASE("ops index, shape, sorting, cumulative, diagonal, math and einsum ops match PyTorch", "[ops2]") {
  const json golden = load_golden("ops2.json");
  for (const auto& c : golden["cases"]) {
    const std::string op = c["op"];
    INFO(op << " " << c["args"].dump());
    Inputs in;
    for (const auto& t : c["inputs"]) in.push_back(load(t));
    GradientTape tape;
    for (const auto& x : in)
      if (x.dtype() == DType::float32) tape.watch(x);
    const Tensor y = apply(op, in, c["args"]);
    const Tensor want = load(c["y"]);
    check_close(y, want);
    if (want.dtype() != DType::float32) CHECK(y.dtype() == want.dtype());
    if (c["w"].is_null()) continue;
    std::vector<Tensor> sources;
    for (const auto& x : in)
      if (x.dtype() == DType::float32) sources.push_back(x);
    const auto grads = tape.gradient(ops::sum(ops::multiply(y, golden_tensor(c["w"]))), sources);
    std::size_t k = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      if (c["grads"][i].is_null()) continue;
      INFO("gradient of input " << i);
      const Tensor gw = golden_tensor(c["grads"][i]);
      check_close(grads[k].defined() ? grads[k] : Tensor::zeros(gw.shape()), gw);
      ++k;
    }
  }
}

TEST_CASE("ops index, shape, sorting and math ops agree with finite differences", "[ops2]") {
  using keras::testing::check_gradients;
  using keras::testing::random_tensor;
  const Tensor idx = Tensor::from_vector(std::vector<std::int64_t>{2, 0, 2}, {3});
  check_gradients([&](const Inputs& in) { return ops::take(in[0], idx, 1); }, {random_tensor({2, 3})});
  check_gradients([](const Inputs& in) { return ops::tile(in[0], {2, 2}); }, {random_tensor({2, 3})});
  check_gradients([](const Inputs& in) { return ops::stack(in, 1); }, {random_tensor({2, 3}), random_tensor({2, 3}, -1, 1, 3)});
  check_gradients([](const Inputs& in) { return ops::roll(ops::flip(in[0], {1}), 1, 0); }, {random_tensor({3, 2})});
  check_gradients([](const Inputs& in) { return ops::sort(in[0], 0); }, {random_tensor({4, 3})}, 1e-3f);
  check_gradients([](const Inputs& in) { return ops::top_k(in[0], 2).first; }, {random_tensor({3, 5})}, 1e-3f);
  check_gradients([](const Inputs& in) { return ops::cumsum(in[0], 1); }, {random_tensor({2, 4})});
  check_gradients([](const Inputs& in) { return ops::cumprod(in[0], 0); }, {random_tensor({4, 2}, 0.5f, 1.5f)});
  check_gradients([](const Inputs& in) { return ops::prod(in[0], {0}); }, {random_tensor({3, 2})});
  check_gradients([](const Inputs& in) { return ops::trace(in[0]); }, {random_tensor({3, 3})});
  check_gradients([](const Inputs& in) { return ops::where(ops::greater(in[0], Tensor::scalar(0.f)), in[0], in[1]); },
                  {random_tensor({2, 3}), random_tensor({3}, -1, 1, 5)});
  check_gradients([](const Inputs& in) { return ops::power(in[0], in[1]); },
                  {random_tensor({2, 3}, 0.5f, 2.f), random_tensor({2, 3}, -1, 1, 6)}, 1e-3f);
  check_gradients([](const Inputs& in) { return ops::mod(in[0], in[1]); },
                  {random_tensor({2, 3}, 0.1f, 0.9f), random_tensor({3}, 1.2f, 1.9f, 8)}, 1e-3f);
  check_gradients([](const Inputs& in) { return ops::softmax(in[0], 0); }, {random_tensor({3, 2, 2})});
  check_gradients([](const Inputs& in) { return ops::einsum("bij,jk,bk->bi", in); },
                  {random_tensor({2, 3, 4}), random_tensor({4, 2}, -1, 1, 9), random_tensor({2, 2}, -1, 1, 10)});
  check_gradients([](const Inputs& in) { return ops::scatter(Tensor::from_vector(std::vector<std::int32_t>{1, 1, 0}, {3, 1}), in[0], {2, 2}); },
                  {random_tensor({3, 2})});
}

// out[...] = sum over the other letters of x[...] * y[...], by visiting every assignment of the letters.
std::vector<double> einsum_by_loops(const std::string& xs, const std::string& ys, const std::string& outs,
                                    const std::map<char, std::int64_t>& size, const Tensor& x, const Tensor& y) {
  std::string letters;  // those of the equation
  for (char c : xs + ys)
    if (letters.find(c) == std::string::npos) letters += c;
  auto offset = [&](const std::string& spec, const std::map<char, std::int64_t>& at) {
    std::int64_t o = 0;
    for (char c : spec) o = o * size.at(c) + at.at(c);
    return o;
  };
  std::int64_t total = 1, out_size = 1;
  for (char c : letters) total *= size.at(c);
  for (char c : outs) out_size *= size.at(c);
  std::vector<double> out(static_cast<std::size_t>(out_size), 0.0);
  const float* xv = x.data<float>();
  const float* yv = y.data<float>();
  for (std::int64_t i = 0; i < total; ++i) {
    std::map<char, std::int64_t> at;
    for (std::int64_t rest = i, j = static_cast<std::int64_t>(letters.size()) - 1; j >= 0; --j) {
      at[letters[j]] = rest % size.at(letters[j]);
      rest /= size.at(letters[j]);
    }
    out[static_cast<std::size_t>(offset(outs, at))] += double(xv[offset(xs, at)]) * yv[offset(ys, at)];
  }
  return out;
}

TEST_CASE("einsum's batched products equal loops whatever the operands' order and layout", "[ops2]") {
  using keras::testing::check_gradients;
  using keras::testing::random_tensor;
  // The attention's scores and combination (batch a, heads c, times b and e, depth d), and products whose
  // operands run transposed, swapped, or both.
  const std::map<char, std::int64_t> size{{'a', 2}, {'b', 3}, {'c', 2}, {'d', 4}, {'e', 5}};
  for (const std::string eq : {"aecd,abcd->acbe", "acbe,aecd->abcd", "abd,aed->abe", "adb,aed->aeb", "adb,ade->abe",
                               "abd,ade->aeb", "cadb,caed->aeb"}) {
    const auto comma = eq.find(','), arrow = eq.find("->");
    const std::string xs = eq.substr(0, comma), ys = eq.substr(comma + 1, arrow - comma - 1), outs = eq.substr(arrow + 2);
    auto shape_of = [&](const std::string& spec) {
      Shape s;
      for (char c : spec) s.push_back(size.at(c));
      return s;
    };
    const Tensor x = random_tensor(shape_of(xs), -1, 1, 21), y = random_tensor(shape_of(ys), -1, 1, 22);
    const auto got = ops::einsum(eq, {x, y}).to_vector<float>();
    const auto want = einsum_by_loops(xs, ys, outs, size, x, y);
    INFO(eq);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == Approx(want[i]).margin(1e-5));
    check_gradients([&](const Inputs& in) { return ops::einsum(eq, in); }, {x, y}, 1e-2f, 1e-2f);
  }
}

TEST_CASE("transpose moves every element where its permutation says, in every order of four axes", "[ops2]") {
  // 33,855 elements: split over the threads at rows of 61 that the split does not align with.
  const Shape shape{3, 37, 5, 61};
  const Tensor x = keras::testing::random_tensor(shape, -1, 1, 23);
  const auto xv = x.to_vector<float>();
  std::vector<int> perm{0, 1, 2, 3};
  do {
    const auto y = ops::transpose(x, perm).to_vector<float>();
    std::int64_t o = 0;
    bool all_equal = true;
    for (std::int64_t i = 0; i < shape[perm[0]]; ++i)
      for (std::int64_t j = 0; j < shape[perm[1]]; ++j)
        for (std::int64_t k = 0; k < shape[perm[2]]; ++k)
          for (std::int64_t l = 0; l < shape[perm[3]]; ++l, ++o) {
            std::int64_t at[4];
            at[perm[0]] = i, at[perm[1]] = j, at[perm[2]] = k, at[perm[3]] = l;
            const std::int64_t in = ((at[0] * shape[1] + at[1]) * shape[2] + at[2]) * shape[3] + at[3];
            all_equal = all_equal && y[static_cast<std::size_t>(o)] == xv[static_cast<std::size_t>(in)];
          }
    INFO(perm[0] << perm[1] << perm[2] << perm[3]);
    CHECK(all_equal);
  } while (std::next_permutation(perm.begin(), perm.end()));
}

TEST_CASE("ops keep integer dtypes where Keras does", "[ops2]") {
  const Tensor i = Tensor::from_vector(std::vector<std::int32_t>{3, -1, 2, 5, 0, 4}, {2, 3});
  CHECK(ops::cumsum(i, 1).dtype() == DType::int32);
  CHECK(ops::cumsum(i, 1).to_vector<std::int32_t>() == std::vector<std::int32_t>{3, 2, 4, 5, 5, 9});
  CHECK(ops::prod(i, {1}).to_vector<std::int32_t>() == std::vector<std::int32_t>{-6, 0});
  CHECK(ops::sort(i, 1).to_vector<std::int32_t>() == std::vector<std::int32_t>{-1, 2, 3, 0, 4, 5});
  CHECK(ops::tile(i, {1, 2}).dtype() == DType::int32);
  CHECK(ops::flip(i).to_vector<std::int32_t>() == std::vector<std::int32_t>{4, 0, 5, 2, -1, 3});
  CHECK(ops::trace(Tensor::from_vector(std::vector<std::int64_t>{1, 2, 3, 4}, {2, 2})).dtype() == DType::int64);
  CHECK(ops::where(Tensor::from_vector(std::vector<std::uint8_t>{1, 0, 1}), i, Tensor::from_vector(std::vector<std::int64_t>{7})).dtype() == DType::int64);
  CHECK(ops::einsum("ij->j", {i}).dtype() == DType::int32);
  CHECK(ops::einsum("ij->j", {i}).to_vector<std::int32_t>() == std::vector<std::int32_t>{8, -1, 6});
  CHECK(ops::power(i, Tensor::from_vector(std::vector<std::int32_t>{2})).to_vector<std::int32_t>() ==
        std::vector<std::int32_t>{9, 1, 4, 25, 0, 16});
  CHECK(ops::arange(5).dtype() == DType::int32);
  CHECK(ops::arange(0, 1, 0.5).dtype() == DType::float32);
  CHECK(ops::mod(i, Tensor::from_vector(std::vector<float>{2.5f})).dtype() == DType::float32);
}

TEST_CASE("ops index and shape errors name the op, the shapes and the fix", "[ops2]") {
  const Tensor x = Tensor::zeros({2, 3});
  CHECK_THROWS_WITH(ops::take(x, Tensor::from_vector(std::vector<std::int64_t>{3}), 1), Catch::Contains("out of range"));
  CHECK_THROWS_WITH(ops::take(x, Tensor::from_vector(std::vector<std::int64_t>{0}), 2), Catch::Contains("axis 2"));
  CHECK_THROWS_WITH(ops::broadcast_to(x, {3, 3}), Catch::Contains("(2, 3)") && Catch::Contains("(3, 3)"));
  CHECK_THROWS_WITH(ops::split(x, 2, 1), Catch::Contains("equal sections"));
  CHECK_THROWS_WITH(ops::squeeze(x, {0}), Catch::Contains("size 2"));
  CHECK_THROWS_WITH(ops::stack({x, Tensor::zeros({3, 2})}), Catch::Contains("one shape"));
  CHECK_THROWS_WITH(ops::top_k(x, 4), Catch::Contains("k = 4"));
  CHECK_THROWS_WITH(ops::einsum("ij,jk->ik", {x, x}), Catch::Contains("size"));
  CHECK_THROWS_WITH(ops::einsum("ij->ik", {x}), Catch::Contains("'k'"));
  CHECK_THROWS_WITH(ops::scatter(Tensor::from_vector(std::vector<std::int64_t>{0, 1}, {2, 1}), Tensor::zeros({2, 2}), {3, 3}),
                    Catch::Contains("need shape (2, 3)"));
  CHECK_THROWS_WITH(ops::segment_sum(x, Tensor::from_vector(std::vector<std::int64_t>{0, 1, 1})), Catch::Contains("one id per row"));
  CHECK(ops::segment_sum(x, Tensor::from_vector(std::vector<std::int64_t>{0, -1})).shape() == Shape{1, 3});
}
