#include <array>
#include <optional>

#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/keras.hpp"

using namespace keras;
using keras::testing::check_gradients;
using keras::testing::random_tensor;
using V = std::vector<Tensor>;

TEST_CASE("binary ops broadcast and match their gradients") {
  auto a = random_tensor({3, 4}, -1, 1, 1), b = random_tensor({4}, 0.5, 1.5, 2), c = random_tensor({3, 1}, 0.5, 2, 3);
  check_gradients([](const V& v) { return ops::add(v[0], v[1]); }, {a, b});
  check_gradients([](const V& v) { return ops::subtract(v[0], v[1]); }, {a, c});
  check_gradients([](const V& v) { return ops::multiply(v[0], v[1]); }, {a, c});
  check_gradients([](const V& v) { return ops::divide(v[0], v[1]); }, {a, b});
  check_gradients([](const V& v) { return ops::maximum(v[0], v[1]); }, {a, random_tensor({3, 4}, -1, 1, 9)}, 1e-3f);
  check_gradients([](const V& v) { return ops::minimum(v[0], v[1]); }, {a, random_tensor({3, 4}, -1, 1, 9)}, 1e-3f);
  Tensor s = ops::add(Tensor::from_vector<float>({1, 2, 3}, {3, 1}), Tensor::from_vector<float>({10, 20}, {1, 2}));
  CHECK(s.shape() == Shape{3, 2});
  CHECK(s.to_vector<float>() == std::vector<float>{11, 21, 12, 22, 13, 23});
  CHECK_THROWS_AS(ops::add(Tensor::zeros({2, 3}), Tensor::zeros({4})), ValueError);
}

TEST_CASE("binary ops broadcast over any axes, in pieces split over threads, as NumPy does") {
  // Each output element against the NumPy rule, index by index: an axis of length 1 repeats. The sizes
  // are large enough that the threads' pieces start in the middle of a run of the innermost axes.
  auto expect = [](const Tensor& a, const Tensor& b, const Shape& out, auto f) {
    const auto rank = out.size();
    auto offset = [&](const Shape& s, std::int64_t flat) {
      std::int64_t at = 0, stride = 1;
      for (std::size_t d = rank; d-- > 0;) {
        const std::int64_t i = flat % out[d];
        flat /= out[d];
        const std::size_t k = d + s.size() - rank;
        if (d + s.size() < rank) break;
        if (s[k] != 1) at += i * stride;
        stride *= s[k];
      }
      return at;
    };
    const std::vector<float> va = a.to_vector<float>(), vb = b.to_vector<float>();
    std::vector<float> r(static_cast<std::size_t>(shape_size(out)));
    for (std::size_t i = 0; i < r.size(); ++i)
      r[i] = f(va[offset(a.shape(), std::int64_t(i))], vb[offset(b.shape(), std::int64_t(i))]);
    return r;
  };
  const std::vector<std::array<Shape, 3>> cases = {
      {Shape{32, 1, 40}, Shape{32, 50, 40}, Shape{32, 50, 40}},  // the middle axis (a mean's gradient)
      {Shape{6, 1}, Shape{1, 7000}, Shape{6, 7000}},            // both repeat, on different axes
      {Shape{300, 200}, Shape{300, 1}, Shape{300, 200}},          // one value per row
      {Shape{150}, Shape{400, 150}, Shape{400, 150}},             // a row vector on the left
      {Shape{2, 3, 1, 5}, Shape{3, 4000, 1}, Shape{2, 3, 4000, 5}},
      {Shape{1}, Shape{5, 9000}, Shape{5, 9000}},
  };
  std::uint64_t seed = 20;
  for (const auto& [sa, sb, so] : cases) {
    const Tensor a = random_tensor(sa, -2, 2, seed++), b = random_tensor(sb, 0.5, 2, seed++);
    INFO(shape_str(sa) << " with " << shape_str(sb));
    CHECK(ops::add(a, b).shape() == so);
    CHECK(ops::add(a, b).to_vector<float>() == expect(a, b, so, [](float x, float y) { return x + y; }));
    CHECK(ops::multiply(b, a).to_vector<float>() == expect(b, a, so, [](float x, float y) { return x * y; }));
    CHECK(ops::divide(a, b).to_vector<float>() == expect(a, b, so, [](float x, float y) { return x / y; }));
    CHECK(ops::maximum(a, b).to_vector<float>() == expect(a, b, so, [](float x, float y) { return x >= y ? x : y; }));
  }
}

TEST_CASE("binary ops on integer inputs convert them and leave them unchanged") {
  const Tensor pixels = Tensor::from_vector<std::uint8_t>({0, 51, 255, 102}, {2, 2});
  const Tensor scaled = pixels / 255.f;  // written over the float conversion, not over `pixels`
  CHECK(scaled.dtype() == DType::float32);
  CHECK(scaled.to_vector<float>() == std::vector<float>{0.f, 51 / 255.f, 1.f, 102 / 255.f});
  CHECK(pixels.to_vector<std::uint8_t>() == std::vector<std::uint8_t>{0, 51, 255, 102});
  const Tensor ids = Tensor::from_vector<std::int64_t>({1, 2}, {2});
  CHECK((ids + Tensor::from_vector<float>({0.5f, 0.25f}, {2})).to_vector<float>() == std::vector<float>{1.5f, 2.25f});
  CHECK((2.f - ids).to_vector<float>() == std::vector<float>{1.f, 0.f});
  // a row vector broadcast over an integer matrix: a new output, the conversion is too small
  CHECK((Tensor::from_vector<float>({1, 2}, {2}) * pixels).to_vector<float>() == std::vector<float>{0, 102, 255, 204});
  CHECK(ops::multiply(ids, Tensor::from_vector<float>({1, 2, 3, 4}, {2, 2})).to_vector<float>() ==
        std::vector<float>{1, 4, 3, 8});
}

TEST_CASE("unary ops match their gradients") {
  auto x = random_tensor({2, 5}, -2, 2, 4), pos = random_tensor({2, 5}, 0.5, 2, 5);
  check_gradients([](const V& v) { return ops::negative(v[0]); }, {x});
  check_gradients([](const V& v) { return ops::exp(v[0]); }, {x});
  check_gradients([](const V& v) { return ops::log(v[0]); }, {pos}, 1e-3f);
  check_gradients([](const V& v) { return ops::sqrt(v[0]); }, {pos}, 1e-3f);
  check_gradients([](const V& v) { return ops::square(v[0]); }, {x});
  check_gradients([](const V& v) { return ops::abs(v[0]); }, {x}, 1e-3f);
  check_gradients([](const V& v) { return ops::pow(v[0], 3.f); }, {pos}, 1e-3f);
  check_gradients([](const V& v) { return ops::clip(v[0], -1.f, 1.f); }, {x}, 1e-3f);
  check_gradients([](const V& v) { return ops::relu(v[0]); }, {x}, 1e-3f);
  check_gradients([](const V& v) { return ops::relu(v[0], 0.2f); }, {x}, 1e-3f);
  check_gradients([](const V& v) { return ops::sigmoid(v[0]); }, {x});
  check_gradients([](const V& v) { return ops::tanh(v[0]); }, {x});
  check_gradients([](const V& v) { return ops::softplus(v[0]); }, {x});
  check_gradients([](const V& v) { return ops::cast(v[0], DType::float32); }, {x});
}

TEST_CASE("reductions match their gradients") {
  auto x = random_tensor({2, 3, 4}, -1, 1, 6);
  check_gradients([](const V& v) { return ops::sum(v[0]); }, {x});
  check_gradients([](const V& v) { return ops::sum(v[0], {1}); }, {x});
  check_gradients([](const V& v) { return ops::mean(v[0], {0, 2}, true); }, {x});
  check_gradients([](const V& v) { return ops::max(v[0], {-1}); }, {x}, 1e-3f);
  Tensor m = ops::mean(Tensor::from_vector<float>({1, 2, 3, 4}, {2, 2}), {0});
  CHECK(m.to_vector<float>() == std::vector<float>{2, 3});
  Tensor am = ops::argmax(Tensor::from_vector<float>({1, 5, 3, 9, 2, 0}, {2, 3}));
  CHECK(am.to_vector<std::int64_t>() == std::vector<std::int64_t>{1, 0});
  CHECK_THROWS_AS(ops::sum(x, {3}), ValueError);
}

TEST_CASE("max shares its gradient equally between tied maxima, as TensorFlow's reduce_max") {
  // [2, 3, 2]: over axis 1, column (0, 0) has the maximum 5 twice, (1, 1) has 7 three times.
  const Tensor x = Tensor::from_vector<float>({1, 4, 5, 2, 5, 3, 0, 7, 6, 7, -1, 7}, {2, 3, 2});
  const Tensor g = Tensor::from_vector<float>({2, 3, 4, 6}, {2, 2});
  auto grad = [&](std::vector<int> axes, bool outer_tape) {
    Tensor v = x.clone();
    std::optional<GradientTape> outer;  // one that would differentiate the backward pass: the recorded ops
    if (outer_tape) outer.emplace().watch(v);
    GradientTape tape;
    tape.watch(v);
    const Tensor m = ops::max(v, axes);
    return tape.gradient(ops::sum(ops::multiply(m, g)), std::vector<Tensor>{v})[0].to_vector<float>();
  };
  const std::vector<float> want{0, 3, 1, 0, 1, 0, 0, 2, 4, 2, 0, 2};
  CHECK(grad({1}, false) == want);  // adjacent axes: one pass
  CHECK(grad({1}, true) == want);   // under an outer tape: the recorded ops
  CHECK(grad({-2}, false) == want);
  // [2, 2, 2] over axes 0 and 2 (not adjacent: the recorded ops): row 0's maximum 7 twice, row 1's 2 three times.
  const Tensor x2 = Tensor::from_vector<float>({7, 1, 2, 2, 0, 7, 2, -3}, {2, 2, 2});
  const Tensor g2 = Tensor::from_vector<float>({6, 3}, {2});
  Tensor v = x2.clone();
  GradientTape tape;
  tape.watch(v);
  const auto d = tape.gradient(ops::sum(ops::multiply(ops::max(v, {0, 2}), g2)), std::vector<Tensor>{v})[0].to_vector<float>();
  CHECK(d == std::vector<float>{3, 0, 1, 1, 0, 3, 1, 0});
}

TEST_CASE("dense, matmul and softmax ops match their gradients") {
  auto x = random_tensor({3, 4}, -1, 1, 10), w = random_tensor({4, 5}, -1, 1, 11), b = random_tensor({5}, -1, 1, 12);
  check_gradients([](const V& v) { return ops::matmul(v[0], v[1]); }, {x, w});
  check_gradients([](const V& v) { return ops::dense(v[0], v[1], v[2]); }, {x, w, b});
  check_gradients([](const V& v) { return ops::dense(v[0], v[1], v[2], kernels::Eltwise::relu); }, {x, w, b}, 1e-3f);
  check_gradients([](const V& v) { return ops::dense(v[0], v[1], v[2], kernels::Eltwise::logistic); }, {x, w, b});
  check_gradients([](const V& v) { return ops::dense(v[0], v[1], v[2], kernels::Eltwise::tanh); }, {x, w, b});
  check_gradients([](const V& v) { return ops::softmax(v[0]); }, {x});
  check_gradients([](const V& v) { return ops::log_softmax(v[0]); }, {x});
  Tensor labels = Tensor::from_vector<std::int32_t>({0, 3, 1});
  check_gradients([labels](const V& v) { return ops::sparse_softmax_cross_entropy(labels, v[0]); }, {x});
  Tensor onehot = ops::one_hot(labels, 4);
  check_gradients([onehot](const V& v) { return ops::softmax_cross_entropy(onehot, v[0]); }, {x});
  CHECK_THROWS_AS(ops::matmul(x, random_tensor({5, 2})), ValueError);
  CHECK_THROWS_AS(ops::sparse_softmax_cross_entropy(Tensor::from_vector<std::int32_t>({0, 4, 1}), x), ValueError);
}

TEST_CASE("dense's activation and bias gradients over many rows equal double sums, on 1 to 3 threads") {
  // One pass gives the activation's gradient dz and the bias's (dz's column sums), split over the threads by
  // columns: 300 rows, 129 columns (not a multiple of the vector width).
  const std::int64_t rows = 300, k = 7, cols = 129;
  const Tensor x = random_tensor({rows, k}, -1, 1, 16), w = random_tensor({k, cols}, -1, 1, 17),
               b = random_tensor({cols}, -1, 1, 18), g = random_tensor({rows, cols}, -1, 1, 19);
  using kernels::Eltwise;
  for (Eltwise act : {Eltwise::linear, Eltwise::relu, Eltwise::logistic, Eltwise::tanh})
    for (int threads : {1, 2, 3}) {
      utils::set_num_threads(threads);
      GradientTape tape;
      tape.watch(w);
      tape.watch(b);
      const Tensor y = ops::dense(x, w, b, act);
      const auto grads = tape.gradient(ops::sum(ops::multiply(y, g)), std::vector<Tensor>{w, b});
      utils::set_num_threads(2);
      const auto yv = y.to_vector<float>(), gv = g.to_vector<float>(), xv = x.to_vector<float>();
      const auto dw = grads[0].to_vector<float>(), db = grads[1].to_vector<float>();
      std::vector<double> dz(yv.size());
      for (std::size_t i = 0; i < dz.size(); ++i) {
        const double yi = yv[i];
        dz[i] = gv[i] * (act == Eltwise::linear ? 1.0 : act == Eltwise::relu ? (yi > 0 ? 1.0 : 0.0)
                         : act == Eltwise::logistic ? yi * (1 - yi) : 1 - yi * yi);
      }
      INFO("activation " << int(act) << ", " << threads << " threads");
      for (std::int64_t c = 0; c < cols; ++c) {
        double sum = 0;
        for (std::int64_t r = 0; r < rows; ++r) sum += dz[static_cast<std::size_t>(r * cols + c)];
        REQUIRE(db[static_cast<std::size_t>(c)] == Approx(sum).margin(1e-4));
        for (std::int64_t i = 0; i < k; ++i) {
          double dot = 0;
          for (std::int64_t r = 0; r < rows; ++r)
            dot += double(xv[static_cast<std::size_t>(r * k + i)]) * dz[static_cast<std::size_t>(r * cols + c)];
          REQUIRE(dw[static_cast<std::size_t>(i * cols + c)] == Approx(dot).margin(1e-4));
        }
      }
    }
}

TEST_CASE("softmax's gradient over many long rows equals y (dy - sum(dy y)) in double") {
  const std::int64_t rows = 300, cols = 129;  // split over the threads, a row not a multiple of the vector width
  const Tensor x = random_tensor({rows, cols}, -4, 4, 14), g = random_tensor({rows, cols}, -1, 1, 15);
  GradientTape tape;
  tape.watch(x);
  const Tensor y = ops::softmax(x);
  const auto dx = tape.gradient(ops::sum(ops::multiply(y, g)), std::vector<Tensor>{x})[0].to_vector<float>();
  const auto yv = y.to_vector<float>(), gv = g.to_vector<float>();
  for (std::int64_t r = 0; r < rows; ++r) {
    double dot = 0;
    for (std::int64_t c = 0; c < cols; ++c) dot += double(yv[r * cols + c]) * gv[r * cols + c];
    for (std::int64_t c = 0; c < cols; ++c) {
      const std::size_t i = static_cast<std::size_t>(r * cols + c);
      REQUIRE(dx[i] == Approx(yv[i] * (gv[i] - dot)).margin(1e-7));
    }
  }
}

TEST_CASE("x w and its kernel's gradient x^T dy equal double loops, rows of 512 floats included") {
  // (inputs, units, rows): on AVX2 the first copies A of x^T dy (x's rows, 512 floats) with longer rows
  // before oneDNN multiplies; the second B of both x w and x^T dy (rows of w and dy, 512 floats); the last
  // runs as it is
  for (auto [k, n, rows] : {std::array<std::int64_t, 3>{512, 32, 2048}, {64, 512, 256}, {40, 24, 90}}) {
    const Tensor x = random_tensor({rows, k}, -1, 1, 16), w = random_tensor({k, n}, -1, 1, 17);
    const Tensor g = random_tensor({rows, n}, -1, 1, 18);
    GradientTape tape;
    tape.watch(w);
    const Tensor y = ops::matmul(x, w);
    const auto dw = tape.gradient(ops::sum(ops::multiply(y, g)), std::vector<Tensor>{w})[0].to_vector<float>();
    const auto xv = x.to_vector<float>(), wv = w.to_vector<float>(), gv = g.to_vector<float>();
    const auto yv = y.to_vector<float>();
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t j = 0; j < n; ++j) {
        double want = 0;
        for (std::int64_t i = 0; i < k; ++i) want += double(xv[r * k + i]) * wv[i * n + j];
        REQUIRE(yv[r * n + j] == Approx(want).margin(1e-3));
      }
    for (std::int64_t i = 0; i < k; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        double want = 0;
        for (std::int64_t r = 0; r < rows; ++r) want += double(xv[r * k + i]) * gv[r * n + j];
        REQUIRE(dw[i * n + j] == Approx(want).margin(1e-3));
      }
  }
}

TEST_CASE("shape ops match their gradients") {
  auto x = random_tensor({4, 3}, -1, 1, 13);
  check_gradients([](const V& v) { return ops::reshape(v[0], {2, -1}); }, {x});
  check_gradients([](const V& v) { return ops::take_rows(v[0], std::vector<std::int64_t>{3, 0, 3}); }, {x});
  CHECK_THROWS_AS(ops::reshape(x, {5, -1}), ValueError);
}

TEST_CASE("softmax cross-entropy is stable for logits of +-100") {
  Tensor logits = Tensor::from_vector<float>({100, -100, 0, -100, 100, 0}, {2, 3});
  Tensor loss = ops::sparse_softmax_cross_entropy(Tensor::from_vector<std::int32_t>({0, 0}), logits);
  auto v = loss.to_vector<float>();
  CHECK(v[0] == Approx(0.f).margin(1e-4));
  CHECK(v[1] == Approx(200.f));
}

TEST_CASE("tape: persistent, watch, no dependence, nested use") {
  Tensor x = Tensor::from_vector<float>({1, 2, 3});
  GradientTape tape(true);
  tape.watch(x);
  Tensor y = ops::sum(ops::multiply(x, x));
  Tensor unrelated = Tensor::ones({3});
  auto g = tape.gradient(y, {x, unrelated});
  CHECK(g[0].to_vector<float>() == std::vector<float>{2, 4, 6});
  CHECK_FALSE(g[1].defined());
  Tensor g2 = tape.gradient(y, x);  // one source in, one gradient out
  CHECK(g2.to_vector<float>() == std::vector<float>{2, 4, 6});


  GradientTape once;
  once.watch(x);
  Tensor z = ops::sum(x);
  once.gradient(z, {x});
  CHECK_THROWS_AS(once.gradient(z, {x}), ValueError);
  Variable v("v", Tensor::from_vector<float>({3}), true);
  GradientTape auto_watch;
  Tensor loss = ops::multiply(v.value(), v.value());
  CHECK(auto_watch.gradient(loss, v.value()).item() == Approx(6.0));
}
