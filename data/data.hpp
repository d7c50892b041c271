#pragma once
// Everything of keras::data (tf.data) and keras::image.
#include "data/csv_dataset.hpp"
#include "data/dataset.hpp"
#include "data/example_parsing.hpp"
#include "data/image.hpp"
#include "data/options.hpp"
#include "data/sparse_tensor.hpp"
#include "data/text_line_dataset.hpp"
#include "data/tfrecord_dataset.hpp"
