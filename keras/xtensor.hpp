#pragma once
// xtensor interop, opt-in: t.xt<float>() views a Tensor's data as an xtensor expression (no copy),
// Tensor::from_xarray copies an xtensor array or expression in, t.to_xarray<float>() copies out.
// Kept out of keras/tensor.hpp because xtensor is most of what a file including it would parse.
#include <algorithm>
#include <cstddef>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>

#include "keras/tensor.hpp"

namespace keras {

template <class T>
auto Tensor::xt() const {
  std::vector<std::size_t> s(shape().begin(), shape().end());
  return xt::adapt(data<T>(), static_cast<std::size_t>(size()), xt::no_ownership(), s);
}

template <class T>
auto Tensor::to_xarray() const {
  return xt::xarray<T>(xt<T>());
}

template <class E>
Tensor Tensor::from_xarray(const E& array) {
  using T = typename E::value_type;
  const auto& shape = array.shape();
  Tensor t = empty(Shape(shape.begin(), shape.end()), dtype_of<T>());
  std::copy(array.begin(), array.end(), t.data<T>());  // row-major, xtensor's default traversal
  return t;
}

}  // namespace keras
