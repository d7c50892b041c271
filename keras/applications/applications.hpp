#pragma once
// keras.applications: the image classification models Keras ships, built layer for layer as Keras builds them
// (names, order and weights), so Keras's published .h5 weight files load into them.
#include "keras/applications/densenet.hpp"
#include "keras/applications/efficientnet.hpp"
#include "keras/applications/imagenet_utils.hpp"
#include "keras/applications/inception_v3.hpp"
#include "keras/applications/mobilenet.hpp"
#include "keras/applications/resnet.hpp"
#include "keras/applications/vgg16.hpp"
#include "keras/applications/xception.hpp"
