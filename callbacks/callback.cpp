#include "callbacks/callback.hpp"

#include "callbacks/progbar_logger.hpp"

namespace keras::callbacks {

Model& Callback::model() const {
  if (!model_) throw ValueError("Callback::model() was called before the callback was attached to a model");
  return *model_;
}

CallbackList::CallbackList(const std::vector<CallbackRef>& callbacks) {
  for (const auto& c : callbacks) callbacks_.push_back(c.ptr());
}

CallbackList CallbackList::with_defaults(const std::vector<CallbackRef>& callbacks, int verbose,
                                         std::shared_ptr<Callback> history) {
  CallbackList list(callbacks);
  if (verbose) list.add_front(std::make_shared<ProgbarLogger>());
  if (history) list.add(std::move(history));
  return list;
}

void CallbackList::set_model(Model* model) {
  for (auto& c : callbacks_) c->set_model(model);
}

void CallbackList::set_params(const Params& params) {
  for (auto& c : callbacks_) c->set_params(params);
}

// Each hook forwards to every callback in order; a callback may add entries to logs for the next.
void CallbackList::on_train_begin(Logs& l) { for (auto& c : callbacks_) c->on_train_begin(l); }
void CallbackList::on_train_end(Logs& l) { for (auto& c : callbacks_) c->on_train_end(l); }
void CallbackList::on_epoch_begin(int e, Logs& l) { for (auto& c : callbacks_) c->on_epoch_begin(e, l); }
void CallbackList::on_epoch_end(int e, Logs& l) { for (auto& c : callbacks_) c->on_epoch_end(e, l); }
void CallbackList::on_train_batch_begin(std::int64_t b, Logs& l) { for (auto& c : callbacks_) c->on_train_batch_begin(b, l); }
void CallbackList::on_train_batch_end(std::int64_t b, Logs& l) { for (auto& c : callbacks_) c->on_train_batch_end(b, l); }
void CallbackList::on_test_begin(Logs& l) { for (auto& c : callbacks_) c->on_test_begin(l); }
void CallbackList::on_test_end(Logs& l) { for (auto& c : callbacks_) c->on_test_end(l); }
void CallbackList::on_test_batch_begin(std::int64_t b, Logs& l) { for (auto& c : callbacks_) c->on_test_batch_begin(b, l); }
void CallbackList::on_test_batch_end(std::int64_t b, Logs& l) { for (auto& c : callbacks_) c->on_test_batch_end(b, l); }
void CallbackList::on_predict_begin(Logs& l) { for (auto& c : callbacks_) c->on_predict_begin(l); }
void CallbackList::on_predict_end(Logs& l) { for (auto& c : callbacks_) c->on_predict_end(l); }
void CallbackList::on_predict_batch_begin(std::int64_t b, Logs& l) { for (auto& c : callbacks_) c->on_predict_batch_begin(b, l); }
void CallbackList::on_predict_batch_end(std::int64_t b, Logs& l) { for (auto& c : callbacks_) c->on_predict_batch_end(b, l); }

}  // namespace keras::callbacks
