#pragma once
// The seed's convolutional network for 28x28 grey images and 10 classes (logits), shared by
// fashion_mnist_cnn and distributed_fashion_mnist; `front` layers (preprocessing) go right after the input.
#include <vector>

#include <keras/keras.hpp>

inline keras::Sequential seed_cnn(const std::vector<keras::LayerRef>& front = {}) {
  namespace k = keras;
  std::vector<k::LayerRef> layers = {k::layers::Input({28, 28, 1})};
  layers.insert(layers.end(), front.begin(), front.end());
  layers.insert(layers.end(), {
      k::layers::Conv2D(32, {5, 5}, {.activation = "relu"}),
      k::layers::MaxPooling2D({2, 2}),
      k::layers::Conv2D(64, {3, 3}, {.activation = "relu"}),
      k::layers::MaxPooling2D({2, 2}),
      k::layers::Flatten(),
      k::layers::Dense(1024, {.activation = "relu"}),
      k::layers::Dropout(0.5),
      k::layers::Dense(10),
  });
  return k::Sequential(layers);
}
