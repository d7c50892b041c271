// Dataset::prefetch (a background producer thread) and Dataset::cache (memory or file).
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "data/unary_node.hpp"
#include "data/worker_threads.hpp"
#include "keras/json.hpp"

namespace keras::data {
namespace {

constexpr std::int64_t kAutotunePrefetch = 4;

// A producer thread fills a queue of up to `capacity` elements. save() pauses the producer between two
// input elements and records the queued elements with the input's position.
class PrefetchIterator : public IteratorBase {
 public:
  PrefetchIterator(IteratorPtr input, std::int64_t capacity)
      : input_(std::move(input)), capacity_(capacity), options_(detail::current_options()) {}
  ~PrefetchIterator() override { stop_thread(); }
  std::optional<Element> next() override {
    {
      std::lock_guard lock(mu_);
      if (!thread_.joinable() && !finished_) thread_ = std::thread([this] { produce(); });
    }
    std::unique_lock lock(mu_);
    ready_.wait(lock, [&] { return !queue_.empty() || finished_; });
    if (queue_.empty()) {
      if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
      return std::nullopt;
    }
    Element e = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    room_.notify_one();
    return e;
  }
  json save() const override {
    auto* self = const_cast<PrefetchIterator*>(this);
    std::unique_lock lock(self->mu_);
    self->paused_ = true;
    self->idle_.wait(lock, [&] { return !in_call_; });
    json state;
    try {
      if (error_) throw ValueError("Cannot save a prefetch iterator whose input failed; handle the error first");
      json queued = json::array();
      for (const auto& e : queue_) queued.push_back(element_to_json(e));
      state = {{"queue", queued}, {"finished", finished_}, {"input", input_->save()}};
    } catch (...) {
      self->paused_ = false;
      lock.unlock();
      self->room_.notify_all();
      throw;
    }
    self->paused_ = false;
    lock.unlock();
    self->room_.notify_all();
    return state;
  }
  void restore(const json& s) override {
    stop_thread();
    input_->restore(s.at("input"));
    std::lock_guard lock(mu_);
    queue_.clear();
    for (const auto& e : s.at("queue")) queue_.push_back(element_from_json(e));
    finished_ = s.at("finished");
    error_ = nullptr;
    stop_ = false;
  }

 protected:
  const char* kind() const override { return "prefetch"; }

 private:
  IteratorPtr input_;
  std::int64_t capacity_;
  std::mutex mu_;
  std::condition_variable ready_, room_, idle_;
  std::deque<Element> queue_;
  bool stop_ = false, finished_ = false, paused_ = false, in_call_ = false;
  std::exception_ptr error_;
  std::thread thread_;
  Options options_;

  void stop_thread() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    room_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  void produce() {
    detail::OptionsScope scope(options_);
    detail::enter_worker_thread();
    for (;;) {
      {
        std::unique_lock lock(mu_);
        room_.wait(lock, [&] { return stop_ || (!paused_ && static_cast<std::int64_t>(queue_.size()) < capacity_); });
        if (stop_) return;
        in_call_ = true;
      }
      std::optional<Element> e;
      std::exception_ptr err;
      try {
        e = input_->next();
      } catch (...) {
        err = std::current_exception();
      }
      std::lock_guard lock(mu_);
      in_call_ = false;
      idle_.notify_all();
      if (e) queue_.push_back(std::move(*e));
      else {
        error_ = err;
        finished_ = true;
        ready_.notify_all();
        return;
      }
      ready_.notify_one();
    }
  }
};

class PrefetchNode : public UnaryNode<PrefetchNode> {
 public:
  PrefetchNode(Dataset input, std::int64_t n) : UnaryNode(std::move(input)), n_(n == AUTOTUNE ? kAutotunePrefetch : n) {
    if (n_ < 0) throw ValueError("prefetch: buffer_size must be >= 0 or AUTOTUNE");
  }
  std::int64_t cardinality() const override { return input_.cardinality(); }
  IteratorPtr make_iterator() const override {
    if (n_ == 0) return input_.node()->make_iterator();
    return std::make_unique<PrefetchIterator>(input_.node()->make_iterator(), n_);
  }

 private:
  std::int64_t n_;
};

// Records: a little-endian uint64 length, then the element as CBOR of element_to_json.
void write_record(std::ofstream& out, const Element& e) {
  const auto bytes = json::to_cbor(element_to_json(e));
  const std::uint64_t n = bytes.size();
  out.write(reinterpret_cast<const char*>(&n), sizeof n);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(n));
}

std::optional<Element> read_record(std::ifstream& in, const std::string& path) {
  std::uint64_t n = 0;
  if (!in.read(reinterpret_cast<char*>(&n), sizeof n)) return std::nullopt;
  std::vector<std::uint8_t> bytes(n);
  if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(n)))
    throw IOError("Cache file '" + path + "' is truncated; delete it to rebuild the cache");
  return element_from_json(json::from_cbor(bytes));
}

class CacheNode : public UnaryNode<CacheNode> {
 public:
  CacheNode(Dataset input, std::string file) : UnaryNode(std::move(input)), file_(std::move(file)) {}
  std::int64_t cardinality() const override { return input_.cardinality(); }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      const CacheNode* n;
      IteratorPtr input;                                    // while filling the cache
      std::shared_ptr<const std::vector<Element>> memory;  // when reading from memory
      std::size_t pos = 0;
      std::vector<Element> recorded;
      std::ifstream in;
      std::ofstream out;
      bool reading_file = false, done = false;
      const char* kind() const override { return "cache"; }
      std::optional<Element> next() override {
        if (memory) return pos < memory->size() ? std::optional<Element>((*memory)[pos++]) : std::nullopt;
        if (reading_file) {
          auto e = read_record(in, n->file_);
          if (e) ++pos;
          return e;
        }
        if (!n->file_.empty() && !out.is_open()) {
          out.open(n->file_ + ".tmp", std::ios::binary | std::ios::trunc);
          if (!out) throw IOError("Cannot write cache file '" + n->file_ + ".tmp'; check that the folder exists");
        }
        auto e = input->next();
        if (e) {
          if (n->file_.empty()) recorded.push_back(*e);
          else write_record(out, *e);
          return e;
        }
        n->commit(std::move(recorded), out);  // a complete pass: later passes read the cache
        input.reset();
        memory = std::make_shared<std::vector<Element>>();
        done = true;
        return std::nullopt;
      }
      // Reading: the position (and, for a memory cache, its elements, which a new process lacks).
      // Filling: what was recorded (memory) or the cache file's length so far (file), and the input's position.
      json save() const override {
        auto all = [](const std::vector<Element>& v) {
          json a = json::array();
          for (const auto& e : v) a.push_back(element_to_json(e));
          return a;
        };
        if (done) return {{"mode", "done"}};
        if (memory) return {{"mode", "memory"}, {"pos", pos}, {"elements", all(*memory)}};
        if (reading_file) return {{"mode", "file"}, {"pos", pos}};
        if (n->file_.empty()) return {{"mode", "filling"}, {"recorded", all(recorded)}, {"input", input->save()}};
        auto& o = const_cast<std::ofstream&>(out);
        std::int64_t offset = 0;
        if (o.is_open()) {
          o.flush();
          offset = static_cast<std::int64_t>(o.tellp());
        }
        return {{"mode", "writing"}, {"offset", offset}, {"input", input->save()}};
      }
      void restore(const json& s) override {
        const std::string mode = s.at("mode");
        memory.reset();
        reading_file = done = false;
        pos = 0;
        if (mode == "done") {
          input.reset();
          memory = std::make_shared<std::vector<Element>>();
          done = true;
        } else if (mode == "memory") {
          auto v = std::make_shared<std::vector<Element>>();
          for (const auto& e : s.at("elements")) v->push_back(element_from_json(e));
          memory = v;
          pos = s.at("pos");
          input.reset();
        } else if (mode == "file") {
          if (out.is_open()) out.close();
          in.close();
          in.clear();
          in.open(n->file_, std::ios::binary);
          if (!in) throw IOError("Cannot restore a cache iterator: cache file '" + n->file_ + "' is gone");
          reading_file = true;
          input.reset();
          for (std::size_t k = s.at("pos"); pos < k; ++pos)
            if (!read_record(in, n->file_)) throw IOError("Cache file '" + n->file_ + "' is shorter than the saved position");
        } else if (mode == "filling") {
          if (!input) input = n->input_.node()->make_iterator();
          recorded.clear();
          for (const auto& e : s.at("recorded")) recorded.push_back(element_from_json(e));
          input->restore(s.at("input"));
        } else if (mode == "writing") {
          if (!input) input = n->input_.node()->make_iterator();
          const std::string tmp = n->file_ + ".tmp";
          if (out.is_open()) out.close();
          const auto offset = s.at("offset").get<std::uintmax_t>();
          if (offset == 0) std::ofstream(tmp, std::ios::binary | std::ios::trunc);
          if (!std::filesystem::exists(tmp)) throw IOError("Cannot restore a cache iterator: '" + tmp + "' is gone");
          std::filesystem::resize_file(tmp, offset);
          out.open(tmp, std::ios::binary | std::ios::in | std::ios::out);
          out.seekp(0, std::ios::end);
          input->restore(s.at("input"));
        } else {
          throw ValueError("Cannot restore a cache iterator from a state of mode '" + mode + "'");
        }
      }
    };
    auto it = std::make_unique<It>();
    it->n = this;
    std::lock_guard lock(mu_);
    if (file_.empty() && memory_) {
      it->memory = memory_;
    } else if (!file_.empty() && std::filesystem::exists(file_)) {
      it->in.open(file_, std::ios::binary);
      if (!it->in) throw IOError("Cannot open cache file '" + file_ + "'");
      it->reading_file = true;
    } else {
      if (!file_.empty()) {  // checked now, written from the first next() (a restore must not truncate it)
        std::ofstream probe(file_ + ".tmp", std::ios::binary | std::ios::app);
        if (!probe) throw IOError("Cannot write cache file '" + file_ + ".tmp'; check that the folder exists");
      }
      it->input = input_.node()->make_iterator();
    }
    return it;
  }

 private:
  std::string file_;
  mutable std::mutex mu_;
  mutable std::shared_ptr<const std::vector<Element>> memory_;

  void commit(std::vector<Element> recorded, std::ofstream& out) const {
    std::lock_guard lock(mu_);
    if (file_.empty()) {
      if (!memory_) memory_ = std::make_shared<const std::vector<Element>>(std::move(recorded));
      return;
    }
    out.close();
    std::filesystem::rename(file_ + ".tmp", file_);
  }
};

}  // namespace

Dataset Dataset::prefetch(std::int64_t buffer_size) const {
  return Dataset(std::make_shared<PrefetchNode>(*this, buffer_size));
}
Dataset Dataset::cache(const std::string& filename) const {
  return Dataset(std::make_shared<CacheNode>(*this, filename));
}

}  // namespace keras::data
