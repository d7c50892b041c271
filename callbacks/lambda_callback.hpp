#pragma once
// LambdaCallback: a callback made of callables, one per hook (keras.callbacks.LambdaCallback).
#include <functional>

#include "callbacks/callback.hpp"

namespace keras::callbacks {

/// Any hook left empty does nothing. Keras's names: on_batch_begin/end are the train batch hooks.
struct LambdaCallbackOptions {
  std::function<void(int, Logs&)> on_epoch_begin{};
  std::function<void(int, Logs&)> on_epoch_end{};
  std::function<void(std::int64_t, Logs&)> on_batch_begin{};
  std::function<void(std::int64_t, Logs&)> on_batch_end{};
  std::function<void(Logs&)> on_train_begin{};
  std::function<void(Logs&)> on_train_end{};
  std::function<void(Logs&)> on_test_begin{};
  std::function<void(Logs&)> on_test_end{};
  std::function<void(std::int64_t, Logs&)> on_test_batch_begin{};
  std::function<void(std::int64_t, Logs&)> on_test_batch_end{};
  std::function<void(Logs&)> on_predict_begin{};
  std::function<void(Logs&)> on_predict_end{};
  std::function<void(std::int64_t, Logs&)> on_predict_batch_begin{};
  std::function<void(std::int64_t, Logs&)> on_predict_batch_end{};
};

class LambdaCallback : public Callback {
 public:
  explicit LambdaCallback(LambdaCallbackOptions options) : f_(std::move(options)) {}

  void on_epoch_begin(int e, Logs& l) override { call(f_.on_epoch_begin, e, l); }
  void on_epoch_end(int e, Logs& l) override { call(f_.on_epoch_end, e, l); }
  void on_train_batch_begin(std::int64_t b, Logs& l) override { call(f_.on_batch_begin, b, l); }
  void on_train_batch_end(std::int64_t b, Logs& l) override { call(f_.on_batch_end, b, l); }
  void on_train_begin(Logs& l) override { call(f_.on_train_begin, l); }
  void on_train_end(Logs& l) override { call(f_.on_train_end, l); }
  void on_test_begin(Logs& l) override { call(f_.on_test_begin, l); }
  void on_test_end(Logs& l) override { call(f_.on_test_end, l); }
  void on_test_batch_begin(std::int64_t b, Logs& l) override { call(f_.on_test_batch_begin, b, l); }
  void on_test_batch_end(std::int64_t b, Logs& l) override { call(f_.on_test_batch_end, b, l); }
  void on_predict_begin(Logs& l) override { call(f_.on_predict_begin, l); }
  void on_predict_end(Logs& l) override { call(f_.on_predict_end, l); }
  void on_predict_batch_begin(std::int64_t b, Logs& l) override { call(f_.on_predict_batch_begin, b, l); }
  void on_predict_batch_end(std::int64_t b, Logs& l) override { call(f_.on_predict_batch_end, b, l); }

 private:
  template <class F, class... A>
  static void call(const F& f, A&&... args) {
    if (f) f(std::forward<A>(args)...);
  }
  LambdaCallbackOptions f_;
};

}  // namespace keras::callbacks
