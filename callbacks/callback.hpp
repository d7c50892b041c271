#pragma once
// Callback base with every Keras hook, and CallbackList, which dispatches them in order.
#include <memory>
#include <vector>

#include "keras/registry.hpp"
#include "keras/utils/logs.hpp"

namespace keras {
class Model;
}

namespace keras::callbacks {

/// What fit/evaluate/predict tell their callbacks (Keras's callback.params).
struct Params {
  int epochs = 1;
  std::int64_t steps = 0;  // batches per epoch (or per evaluate/predict run)
  int verbose = 1;
  std::int64_t samples = 0;     // training samples per epoch (0 when unknown), for count_mode "samples"
  std::int64_t batch_size = 0;  // samples per batch (0 when unknown)
};

class Callback {
 public:
  virtual ~Callback() = default;

  virtual void on_train_begin(Logs& /*logs*/) {}
  virtual void on_train_end(Logs& /*logs*/) {}
  virtual void on_epoch_begin(int /*epoch*/, Logs& /*logs*/) {}
  virtual void on_epoch_end(int /*epoch*/, Logs& /*logs*/) {}
  virtual void on_train_batch_begin(std::int64_t /*batch*/, Logs& /*logs*/) {}
  virtual void on_train_batch_end(std::int64_t /*batch*/, Logs& /*logs*/) {}
  virtual void on_test_begin(Logs& /*logs*/) {}
  virtual void on_test_end(Logs& /*logs*/) {}
  virtual void on_test_batch_begin(std::int64_t /*batch*/, Logs& /*logs*/) {}
  virtual void on_test_batch_end(std::int64_t /*batch*/, Logs& /*logs*/) {}
  virtual void on_predict_begin(Logs& /*logs*/) {}
  virtual void on_predict_end(Logs& /*logs*/) {}
  virtual void on_predict_batch_begin(std::int64_t /*batch*/, Logs& /*logs*/) {}
  virtual void on_predict_batch_end(std::int64_t /*batch*/, Logs& /*logs*/) {}

  /// The model being trained (set before on_train_begin).
  Model& model() const;
  const Params& params() const { return params_; }
  void set_model(Model* model) { model_ = model; }
  void set_params(const Params& params) { params_ = params; }

 private:
  Model* model_ = nullptr;
  Params params_;
};

/// A callback given to fit(): an object (copied in) or a shared pointer you keep to read it later.
using CallbackRef = Ref<Callback>;

class CallbackList {
 public:
  CallbackList() = default;
  explicit CallbackList(const std::vector<CallbackRef>& callbacks);
  /// The user's callbacks plus Keras's defaults (its add_progbar / add_history): a ProgbarLogger first
  /// when `verbose`, `history` (when given) last.
  static CallbackList with_defaults(const std::vector<CallbackRef>& callbacks, int verbose,
                                    std::shared_ptr<Callback> history);
  void add(std::shared_ptr<Callback> callback) { callbacks_.push_back(std::move(callback)); }
  void add_front(std::shared_ptr<Callback> callback) { callbacks_.insert(callbacks_.begin(), std::move(callback)); }
  void set_model(Model* model);
  void set_params(const Params& params);
  const std::vector<std::shared_ptr<Callback>>& callbacks() const { return callbacks_; }

  void on_train_begin(Logs& logs);
  void on_train_end(Logs& logs);
  void on_epoch_begin(int epoch, Logs& logs);
  void on_epoch_end(int epoch, Logs& logs);
  void on_train_batch_begin(std::int64_t batch, Logs& logs);
  void on_train_batch_end(std::int64_t batch, Logs& logs);
  void on_test_begin(Logs& logs);
  void on_test_end(Logs& logs);
  void on_test_batch_begin(std::int64_t batch, Logs& logs);
  void on_test_batch_end(std::int64_t batch, Logs& logs);
  void on_predict_begin(Logs& logs);
  void on_predict_end(Logs& logs);
  void on_predict_batch_begin(std::int64_t batch, Logs& logs);
  void on_predict_batch_end(std::int64_t batch, Logs& logs);

 private:
  std::vector<std::shared_ptr<Callback>> callbacks_;
};

}  // namespace keras::callbacks
