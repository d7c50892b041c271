#pragma once
// Intersection-over-union metrics (keras.metrics.IoU, MeanIoU, BinaryIoU, OneHotIoU, OneHotMeanIoU):
// a weighted confusion matrix of class ids, and per class tp / (tp + fp + fn).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "metrics/metric.hpp"

namespace keras::metrics {

struct IoUOptions {
  std::string name = "io_u";
  /// Targets equal to this id are left out (e.g. a "void" class of 255 in segmentation maps).
  std::optional<int> ignore_class = std::nullopt;
  /// Whether targets / predictions are class ids; when false the argmax along `axis` is taken.
  bool sparse_y_true = true;
  bool sparse_y_pred = true;
  int axis = -1;
};

struct MeanIoUOptions {
  std::string name = "mean_io_u";
  std::optional<int> ignore_class = std::nullopt;
  bool sparse_y_true = true;
  bool sparse_y_pred = true;
  int axis = -1;
};

struct BinaryIoUOptions {
  std::vector<int> target_class_ids = {0, 1};
  /// Predictions >= threshold are class 1, the others class 0.
  double threshold = 0.5;
  std::string name = "binary_io_u";
};

struct OneHotIoUOptions {
  std::string name = "one_hot_io_u";
  std::optional<int> ignore_class = std::nullopt;
  bool sparse_y_pred = false;
  int axis = -1;
};

struct OneHotMeanIoUOptions {
  std::string name = "one_hot_mean_io_u";
  std::optional<int> ignore_class = std::nullopt;
  bool sparse_y_pred = false;
  int axis = -1;
};

/// The IoU of each target class from the accumulated confusion matrix, averaged over the target classes
/// that have occurred (a class whose tp + fp + fn is 0 is left out of the mean). Class ids are
/// truncated to integers and must lie in [0, num_classes). sample_weight weighs each target.
class IoU : public Metric {
 public:
  IoU(int num_classes, std::vector<int> target_class_ids, IoUOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) override;
  double result() const override;
  void reset_state() override;
  std::vector<double> state() const override { return cm_; }
  void set_state(const std::vector<double>& state) override;
  std::string class_name() const override { return "IoU"; }
  /// {"name", "dtype", "num_classes", "target_class_ids", "ignore_class", "sparse_y_true",
  /// "sparse_y_pred", "axis"}.
  json get_config() const override;
  static std::shared_ptr<Metric> from_config(const json& config);

  int num_classes() const { return num_classes_; }
  const std::vector<int>& target_class_ids() const { return target_class_ids_; }
  /// The accumulated matrix, [true class][predicted class], row-major.
  const std::vector<double>& confusion_matrix() const { return cm_; }

 protected:
  /// Class ids of y_pred before they are counted (BinaryIoU thresholds here).
  virtual Tensor predicted_ids(const Tensor& y_pred) const { return y_pred; }
  int num_classes_;
  std::vector<int> target_class_ids_;
  IoUOptions options_;

 private:
  std::vector<double> cm_;
};

/// The mean IoU over all classes.
class MeanIoU : public IoU {
 public:
  explicit MeanIoU(int num_classes, MeanIoUOptions options = {});
  std::string class_name() const override { return "MeanIoU"; }
  /// {"name", "dtype", "num_classes", "ignore_class", "sparse_y_true", "sparse_y_pred", "axis"}.
  json get_config() const override;
  static std::shared_ptr<Metric> from_config(const json& config);
};

/// IoU of thresholded binary predictions, for classes 0 and/or 1.
class BinaryIoU : public IoU {
 public:
  explicit BinaryIoU(BinaryIoUOptions options = {});
  std::string class_name() const override { return "BinaryIoU"; }
  /// {"name", "dtype", "target_class_ids", "threshold"}.
  json get_config() const override;
  static std::shared_ptr<Metric> from_config(const json& config);
  double threshold() const { return threshold_; }

 protected:
  Tensor predicted_ids(const Tensor& y_pred) const override;

 private:
  double threshold_;
};

/// IoU with one-hot targets (and, unless sparse_y_pred, score vectors as predictions).
class OneHotIoU : public IoU {
 public:
  OneHotIoU(int num_classes, std::vector<int> target_class_ids, OneHotIoUOptions options = {});
  std::string class_name() const override { return "OneHotIoU"; }
  /// {"name", "dtype", "num_classes", "target_class_ids", "ignore_class", "sparse_y_pred", "axis"}.
  json get_config() const override;
  static std::shared_ptr<Metric> from_config(const json& config);
};

/// Mean IoU over all classes with one-hot targets.
class OneHotMeanIoU : public IoU {
 public:
  explicit OneHotMeanIoU(int num_classes, OneHotMeanIoUOptions options = {});
  std::string class_name() const override { return "OneHotMeanIoU"; }
  /// {"name", "dtype", "num_classes", "ignore_class", "sparse_y_pred", "axis"}.
  json get_config() const override;
  static std::shared_ptr<Metric> from_config(const json& config);
};

}  // namespace keras::metrics
