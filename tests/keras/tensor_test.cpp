#include <catch2/catch.hpp>

#include "keras/keras.hpp"
#include "keras/xtensor.hpp"

using namespace keras;

TEST_CASE("Tensor holds shape, dtype and values, and converts between dtypes") {
  Tensor t = Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  CHECK(t.shape() == Shape{2, 3});
  CHECK(t.ndim() == 2);
  CHECK(t.size() == 6);
  CHECK(t.dim(-1) == 3);
  CHECK(t.dtype() == DType::float32);
  CHECK(t.astype(DType::int64).to_vector<std::int64_t>() == std::vector<std::int64_t>{1, 2, 3, 4, 5, 6});
  CHECK(Tensor::full({2}, 7, DType::uint8).to_vector<std::uint8_t>() == std::vector<std::uint8_t>{7, 7});
  CHECK(Tensor::zeros({3}, DType::int32).to_vector<std::int32_t>() == std::vector<std::int32_t>{0, 0, 0});
  CHECK_THROWS_AS(t.data<std::int32_t>(), ValueError);
  CHECK_THROWS_AS(t.dim(2), ValueError);
  CHECK_THROWS_AS(Tensor::from_vector<float>({1, 2}, {3}), ValueError);
  CHECK_THROWS_AS(Tensor().shape(), ValueError);
  CHECK(shape_str({-1, 28}) == "(None, 28)");
  CHECK(shape_str({5}) == "(5,)");
}

TEST_CASE("copies share storage - slices along the batch axis are views") {
  Tensor t = Tensor::from_vector<float>({0, 1, 2, 3, 4, 5, 6, 7}, {4, 2});
  Tensor copy = t;
  Tensor rows = t.slice(1, 3);
  CHECK(rows.shape() == Shape{2, 2});
  CHECK(rows.to_vector<float>() == std::vector<float>{2, 3, 4, 5});
  rows.data<float>()[0] = 20;
  CHECK(t.to_vector<float>()[2] == 20);
  CHECK(copy.id() == t.id());
  CHECK(rows.id() != t.id());
  Tensor deep = t.clone();
  deep.data<float>()[0] = -1;
  CHECK(t.to_vector<float>()[0] == 0);
  CHECK_THROWS_AS(t.slice(3, 5), ValueError);
  CHECK(t.reshape({2, -1}).shape() == Shape{2, 4});
  CHECK_THROWS_AS(t.reshape({3, -1}), ValueError);
}

TEST_CASE("Tensor interoperates with xtensor") {
  xt::xarray<float> a = {{1.f, 2.f}, {3.f, 4.f}};
  Tensor t = Tensor::from_xarray(a);
  CHECK(t.shape() == Shape{2, 2});
  auto view = t.xt<float>();
  view(1, 0) = 30.f;
  CHECK(t.to_vector<float>()[2] == 30.f);
  xt::xarray<float> back = t.to_xarray<float>();
  CHECK(back(1, 1) == 4.f);
}

TEST_CASE("arithmetic operators broadcast and convert integer tensors") {
  Tensor pixels = Tensor::from_vector<std::uint8_t>({0, 51, 255});
  Tensor scaled = pixels / 255.f;
  CHECK(scaled.dtype() == DType::float32);
  CHECK(scaled.to_vector<float>()[1] == Approx(0.2f));
  Tensor a = Tensor::from_vector<float>({1, 2, 3, 4}, {2, 2});
  CHECK((a * 2.f + 1.f).to_vector<float>() == std::vector<float>{3, 5, 7, 9});
  CHECK((1.f - a).to_vector<float>() == std::vector<float>{0, -1, -2, -3});
  CHECK((-a).to_vector<float>() == std::vector<float>{-1, -2, -3, -4});
  CHECK((a / Tensor::from_vector<float>({1, 2})).to_vector<float>() == std::vector<float>{1, 1, 3, 2});
}

TEST_CASE("storage returns freed buffers to a pool for reuse") {
  storage_pool_clear();
  const void* first;
  {
    Tensor t = Tensor::empty({1000});
    first = t.raw_data();
  }
  CHECK(storage_pool_bytes() >= 4000);
  Tensor again = Tensor::empty({1000});
  CHECK(again.raw_data() == first);
}

TEST_CASE("storage parks a buffer over 16 MiB only once its size recurs") {
  storage_pool_clear();
  const std::int64_t big = (std::int64_t(17) << 20) / 4 + 123;  // floats: just over 17 MiB, an odd size
  { Tensor once = Tensor::empty({big}); }
  CHECK(storage_pool_bytes() == 0);  // made once (a data set): back to the system
  { Tensor twice = Tensor::empty({big}); }
  CHECK(storage_pool_bytes() >= std::size_t(big) * 4);  // asked for again (a per-step buffer): kept
  Tensor third = Tensor::empty({big});
  CHECK(storage_pool_bytes() == 0);  // and reused
}

TEST_CASE("bool, float64 and string tensors") {
  auto d = Tensor::from_vector<double>({0.5, -2.0, 0.0}, {3});
  CHECK(d.dtype() == DType::float64);
  CHECK(dtype_name(d.dtype()) == "float64");
  auto b = d.astype(DType::bool_);
  CHECK(dtype_name(b.dtype()) == "bool");
  CHECK(b.nbytes() == 3);
  CHECK(b.data<bool>()[0]);
  CHECK(b.data<bool>()[1]);
  CHECK_FALSE(b.data<bool>()[2]);
  CHECK(b.astype(DType::float32).to_vector<float>() == std::vector<float>{1, 1, 0});
  CHECK(Tensor::full({1}, 3.0, DType::float64).item() == 3.0);
  CHECK(dtype_from_name("bool") == DType::bool_);

  auto s = Tensor::from_vector<std::string>({"a", "bé", "", "long string beyond small-string size"}, {2, 2});
  CHECK(s.dtype() == DType::string);
  CHECK(dtype_from_name("string") == DType::string);
  CHECK(s.slice(1, 2).to_vector<std::string>() == std::vector<std::string>{"", "long string beyond small-string size"});
  auto c = s.clone();
  c.data<std::string>()[0] = "changed";
  CHECK(s.data<std::string>()[0] == "a");
  CHECK(Tensor::zeros({2}, DType::string).to_vector<std::string>() == std::vector<std::string>{"", ""});
  CHECK(s.reshape({4}).to_vector<std::string>()[1] == "bé");
  auto dst = Tensor::empty({2, 2}, DType::string);
  dst.assign(s);
  CHECK(dst.to_vector<std::string>()[3] == "long string beyond small-string size");
  CHECK_THROWS_AS(s.astype(DType::float32), ValueError);
  CHECK_THROWS_AS(d.astype(DType::string), ValueError);
  CHECK_THROWS_AS(s.slice(0, 1).item(), ValueError);
  CHECK_THROWS_AS(s.data<float>(), ValueError);
}
