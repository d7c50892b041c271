// Dataset::map, sequential or on a pool of worker threads (num_parallel_calls), in input order or not.
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

#include "data/unary_node.hpp"
#include "data/worker_threads.hpp"
#include "keras/json.hpp"

namespace keras::data {
namespace {

class MapIterator : public IteratorBase {
 public:
  MapIterator(IteratorPtr input, const MapFn* fn) : input_(std::move(input)), fn_(fn) {}
  std::optional<Element> next() override {
    auto e = input_->next();
    if (!e) return std::nullopt;
    return (*fn_)(*e);
  }
  json save() const override { return input_->save(); }
  void restore(const json& s) override { input_->restore(s); }

 private:
  IteratorPtr input_;
  const MapFn* fn_;
};

// Workers pull input elements one at a time (in order, numbered), apply fn, and file the result under
// its number; next() hands results out in number order (deterministic) or as they come.
class ParallelMapIterator : public IteratorBase {
 public:
  ParallelMapIterator(IteratorPtr input, const MapFn* fn, std::int64_t threads, bool deterministic)
      : input_(std::move(input)), fn_(fn), threads_(threads), capacity_(2 * threads), deterministic_(deterministic),
        options_(detail::current_options()) {}
  ~ParallelMapIterator() override { stop_workers(); }

  std::optional<Element> next() override {
    if (workers_.empty())
      for (std::int64_t i = 0; i < threads_; ++i) workers_.emplace_back([this] { work(); });
    std::unique_lock lock(mu_);
    Result r;
    if (deterministic_) {
      ready_.wait(lock, [&] { return done_.count(next_out_) || next_out_ >= end_seq_; });
      if (next_out_ >= end_seq_) return std::nullopt;
      auto it = done_.find(next_out_++);
      r = std::move(it->second);
      done_.erase(it);
    } else {
      ready_.wait(lock, [&] { return !done_.empty() || (input_ended_ && in_flight_ == 0); });
      if (done_.empty()) return std::nullopt;
      r = std::move(done_.begin()->second);
      done_.erase(done_.begin());
    }
    lock.unlock();
    room_.notify_one();
    if (r.error) std::rethrow_exception(r.error);
    return std::move(r.value);
  }

  // The workers pause between elements; the state is the input's position and the results computed
  // but not yet handed out, in input order.
  json save() const override {
    auto* self = const_cast<ParallelMapIterator*>(this);
    std::unique_lock lock(self->mu_);
    self->paused_ = true;
    self->ready_.wait(lock, [&] { return in_flight_ == 0; });
    auto resume = [&] {
      self->paused_ = false;
      lock.unlock();
      self->room_.notify_all();
    };
    json results = json::array();
    for (const auto& [seq, r] : done_) {
      if (r.error || !r.value) {
        resume();
        throw ValueError("Cannot save a parallel map iterator while a failed element waits to be handed out; call "
                         "get_next() past the error first");
      }
      results.push_back(element_to_json(*r.value));
    }
    json state;
    try {
      state = {{"input", input_->save()}, {"results", results}, {"input_ended", input_ended_}};
    } catch (...) {
      resume();
      throw;
    }
    resume();
    return state;
  }
  void restore(const json& s) override {
    stop_workers();
    input_->restore(s.at("input"));
    std::lock_guard lock(mu_);
    done_.clear();
    next_out_ = 0;
    next_in_ = 0;
    for (const auto& e : s.at("results")) done_[next_in_++].value = element_from_json(e);
    input_ended_ = s.at("input_ended");
    end_seq_ = input_ended_ ? next_in_ : INT64_MAX;
    in_flight_ = 0;
    stop_ = paused_ = false;
  }

 protected:
  const char* kind() const override { return "a parallel map"; }

 private:
  struct Result {
    std::optional<Element> value;
    std::exception_ptr error;
  };
  IteratorPtr input_;
  const MapFn* fn_;
  std::int64_t threads_, capacity_;
  bool deterministic_;
  std::mutex mu_, input_mu_;
  std::condition_variable ready_, room_;
  std::map<std::int64_t, Result> done_;
  std::int64_t next_in_ = 0, next_out_ = 0, end_seq_ = INT64_MAX, in_flight_ = 0;
  bool input_ended_ = false, stop_ = false, paused_ = false;
  std::vector<std::thread> workers_;
  Options options_;  // the pipeline's, installed in the workers

  void stop_workers() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    room_.notify_all();
    for (auto& t : workers_) t.join();
    workers_.clear();
  }

  void work() {
    detail::OptionsScope scope(options_);
    detail::enter_worker_thread();
    for (;;) {
      {
        std::unique_lock lock(mu_);
        room_.wait(lock, [&] {
          return stop_ || input_ended_ || (!paused_ && static_cast<std::int64_t>(done_.size()) + in_flight_ < capacity_);
        });
        if (stop_ || input_ended_) return;
        ++in_flight_;
      }
      Result r;
      std::int64_t seq;
      std::optional<Element> in;
      {
        std::lock_guard lock(input_mu_);
        seq = next_in_++;
        try {
          in = input_->next();
        } catch (...) {
          r.error = std::current_exception();
        }
      }
      if (!in && !r.error) {
        {
          std::lock_guard lock(mu_);
          input_ended_ = true;
          end_seq_ = std::min(end_seq_, seq);
          --in_flight_;
        }
        ready_.notify_all();
        room_.notify_all();
        return;
      }
      if (in) try {
          r.value = (*fn_)(*in);
        } catch (...) {
          r.error = std::current_exception();
        }
      {
        std::lock_guard lock(mu_);
        done_[seq] = std::move(r);
        --in_flight_;
      }
      ready_.notify_all();
    }
  }
};

class MapNode : public UnaryNode<MapNode> {
 public:
  MapNode(Dataset input, MapFn fn, MapOptions o) : UnaryNode(std::move(input)), fn_(std::move(fn)), o_(o) {
    if (!fn_) throw ValueError("map needs a function");
    (void)detail::parallel_calls(o_.num_parallel_calls, "map");
  }
  std::int64_t cardinality() const override { return input_.cardinality(); }
  // tf.data traces the function; here it runs once on the first element.
  ElementSpec element_spec() const override {
    auto it = input_.node()->make_iterator();
    auto e = it->next();
    if (!e) throw ValueError("map: element_spec of an empty dataset's map is unknown");
    return spec_of(fn_(*e));
  }
  IteratorPtr make_iterator() const override {
    const std::int64_t n = detail::parallel_calls(o_.num_parallel_calls, "map");
    if (n <= 1) return std::make_unique<MapIterator>(input_.node()->make_iterator(), &fn_);
    return detail::make_parallel_map_iterator(input_.node()->make_iterator(), &fn_, n, o_.deterministic);
  }

 private:
  MapFn fn_;
  MapOptions o_;
};

}  // namespace

IteratorPtr detail::make_parallel_map_iterator(IteratorPtr input, const MapFn* fn, std::int64_t threads,
                                              std::optional<bool> deterministic) {
  return std::make_unique<ParallelMapIterator>(std::move(input), fn, detail::capped_threads(threads),
                                               detail::resolve_deterministic(deterministic));
}

Dataset Dataset::map(MapFn fn, MapOptions options) const {
  return Dataset(std::make_shared<MapNode>(*this, std::move(fn), options));
}

}  // namespace keras::data
