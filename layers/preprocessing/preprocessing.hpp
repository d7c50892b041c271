#pragma once
// The preprocessing layers.
#include "layers/preprocessing/image/center_crop.hpp"
#include "layers/preprocessing/image/random_brightness.hpp"
#include "layers/preprocessing/image/random_contrast.hpp"
#include "layers/preprocessing/image/random_crop.hpp"
#include "layers/preprocessing/image/random_flip.hpp"
#include "layers/preprocessing/image/random_rotation.hpp"
#include "layers/preprocessing/image/random_translation.hpp"
#include "layers/preprocessing/image/random_zoom.hpp"
#include "layers/preprocessing/image/rescaling.hpp"
#include "layers/preprocessing/image/resizing.hpp"
