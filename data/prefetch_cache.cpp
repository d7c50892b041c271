// Dataset::prefetch (a background producer thread) and Dataset::cache (memory or file).
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "data/dataset.hpp"
#include "data/worker_threads.hpp"
#include "keras/json.hpp"

namespace keras::data {
namespace {

constexpr std::int64_t kAutotunePrefetch = 4;

class PrefetchIterator : public IteratorBase {
 public:
  PrefetchIterator(IteratorPtr input, std::int64_t capacity) : input_(std::move(input)), capacity_(capacity) {}
  ~PrefetchIterator() override {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    room_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  std::optional<Element> next() override {
    if (!thread_.joinable() && !finished_) thread_ = std::thread([this] { produce(); });
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

 protected:
  const char* kind() const override { return "prefetch"; }

 private:
  IteratorPtr input_;
  std::int64_t capacity_;
  std::mutex mu_;
  std::condition_variable ready_, room_;
  std::deque<Element> queue_;
  bool stop_ = false, finished_ = false;
  std::exception_ptr error_;
  std::thread thread_;

  void produce() {
    detail::enter_worker_thread();
    for (;;) {
      {
        std::unique_lock lock(mu_);
        room_.wait(lock, [&] { return stop_ || static_cast<std::int64_t>(queue_.size()) < capacity_; });
        if (stop_) break;
      }
      std::optional<Element> e;
      std::exception_ptr err;
      try {
        e = input_->next();
      } catch (...) {
        err = std::current_exception();
      }
      std::lock_guard lock(mu_);
      if (e) queue_.push_back(std::move(*e));
      else {
        error_ = err;
        break;
      }
      ready_.notify_one();
    }
    std::lock_guard lock(mu_);
    finished_ = true;
    ready_.notify_all();
  }
};

class PrefetchNode : public DatasetNode {
 public:
  PrefetchNode(Dataset input, std::int64_t n) : input_(std::move(input)), n_(n == AUTOTUNE ? kAutotunePrefetch : n) {
    if (n_ < 0) throw ValueError("prefetch: buffer_size must be >= 0 or AUTOTUNE");
  }
  std::int64_t cardinality() const override { return input_.cardinality(); }
  ElementSpec element_spec() const override { return input_.element_spec(); }
  IteratorPtr make_iterator() const override {
    if (n_ == 0) return input_.node()->make_iterator();
    return std::make_unique<PrefetchIterator>(input_.node()->make_iterator(), n_);
  }

 private:
  Dataset input_;
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

class CacheNode : public DatasetNode {
 public:
  CacheNode(Dataset input, std::string file) : input_(std::move(input)), file_(std::move(file)) {}
  std::int64_t cardinality() const override { return input_.cardinality(); }
  ElementSpec element_spec() const override { return input_.element_spec(); }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      const CacheNode* n;
      IteratorPtr input;                                    // while filling the cache
      std::shared_ptr<const std::vector<Element>> memory;  // when reading from memory
      std::size_t pos = 0;
      std::vector<Element> recorded;
      std::ifstream in;
      std::ofstream out;
      bool reading_file = false;
      const char* kind() const override { return "cache"; }
      std::optional<Element> next() override {
        if (memory) return pos < memory->size() ? std::optional<Element>((*memory)[pos++]) : std::nullopt;
        if (reading_file) return read_record(in, n->file_);
        auto e = input->next();
        if (e) {
          if (n->file_.empty()) recorded.push_back(*e);
          else write_record(out, *e);
          return e;
        }
        n->commit(std::move(recorded), out);  // a complete pass: later passes read the cache
        input.reset();
        memory = std::make_shared<std::vector<Element>>();
        return std::nullopt;
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
      if (!file_.empty()) {
        it->out.open(file_ + ".tmp", std::ios::binary | std::ios::trunc);
        if (!it->out) throw IOError("Cannot write cache file '" + file_ + ".tmp'; check that the folder exists");
      }
      it->input = input_.node()->make_iterator();
    }
    return it;
  }

 private:
  Dataset input_;
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
