// make_csv_dataset's reader: the records of CSV files, repeated num_epochs times, shuffled with tf.data's
// buffer algorithm and batched, parsed straight into one column per batch. It yields element for element
// what CsvDataset(...).repeat(num_epochs).shuffle(buffer_size, seed).batch(batch_size) yields (the same
// buffer algorithm and random draws as Dataset::shuffle), without a scalar Element per field per record.
#include <atomic>
#include <random>

#include "data/auto_shard.hpp"
#include "data/csv_reader.hpp"
#include "keras/utils/random.hpp"

namespace keras::data::detail {
namespace {

class CsvBatchNode : public DatasetNode {
 public:
  CsvBatchNode(std::vector<std::string> files, std::vector<RecordDefault> defaults, CsvOptions o, CsvBatchOptions b)
      : files_(std::move(files)), defaults_(std::move(defaults)), o_(std::move(o)), b_(std::move(b)) {
    check_csv_arguments("CsvDataset", files_, defaults_, o_);
    if (b_.shuffle && b_.shuffle_buffer_size <= 0)
      throw ValueError("shuffle: buffer_size must be positive, got " + std::to_string(b_.shuffle_buffer_size));
    if (b_.batch_size <= 0) throw ValueError("batch_size must be positive, got " + std::to_string(b_.batch_size));
    if (b_.shuffle) seed_ = b_.shuffle_seed ? *b_.shuffle_seed : utils::random_generator()();
  }
  std::int64_t cardinality() const override {
    if (b_.num_epochs == 0) return 0;
    return b_.num_epochs < 0 ? INFINITE_CARDINALITY : UNKNOWN_CARDINALITY;
  }
  ElementSpec element_spec() const override { return ElementSpec::tuple(CsvColumns(defaults_, o_, 0).specs(true)); }
  IteratorPtr make_iterator() const override {
    auto it = std::make_unique<It>(this);
    if (b_.shuffle) {  // as Dataset::shuffle seeds each pass (reshuffle_each_iteration)
      const std::uint64_t pass = passes_++;
      std::seed_seq seq{static_cast<std::uint32_t>(seed_), static_cast<std::uint32_t>(seed_ >> 32), static_cast<std::uint32_t>(pass)};
      std::mt19937_64 mix(seq);
      it->rng.seed(mix());
    }
    return it;
  }

 private:
  std::vector<std::string> files_;
  std::vector<RecordDefault> defaults_;
  CsvOptions o_;
  CsvBatchOptions b_;
  std::uint64_t seed_ = 0;
  mutable std::atomic<std::uint64_t> passes_{0};

  struct It : IteratorBase {
    const CsvBatchNode* n;
    std::vector<std::string> files;  // this replica's (data/auto_shard.hpp)
    std::unique_ptr<CsvRecordReader> reader;
    std::size_t file = 0;
    std::int64_t epoch = 0, rows_this_epoch = 0;
    bool ended;
    CsvColumns out;
    // The shuffle buffer: rows [0, buffered) of `buffer`.
    CsvColumns buffer;
    std::size_t buffered = 0;
    std::mt19937_64 rng;

    explicit It(const CsvBatchNode* node)
        : n(node), files(files_of_this_replica(node->files_, "CsvDataset")), ended(node->b_.num_epochs == 0),
          out(node->defaults_, node->o_, 0), buffer(node->defaults_, node->o_, 0) {}
    const char* kind() const override { return "make_csv_dataset"; }

    // Parses the next record of the repeated files into row `row` of t (grown as needed up to `limit` rows);
    // false after the last epoch.
    bool read(CsvColumns& t, std::size_t row, std::size_t limit) {
      while (!ended) {
        if (!reader) {
          if (file == files.size()) {  // the end of an epoch
            ++epoch;
            // (an epoch without records ends it all, as repeat does: it would loop forever)
            if (rows_this_epoch == 0 || (n->b_.num_epochs > 0 && epoch >= n->b_.num_epochs)) {
              ended = true;
              break;
            }
            file = 0;
            rows_this_epoch = 0;
          }
          reader = std::make_unique<CsvRecordReader>(files[file++], n->o_);
        }
        std::string_view record;
        if (reader->next(record)) {
          t.make_room(row, limit);
          t.parse(record, row, *reader);
          ++rows_this_epoch;
          return true;
        }
        reader.reset();
      }
      return false;
    }

    // Dataset::shuffle's step: fill the buffer, move a uniformly chosen row out, refill its place.
    bool shuffled(std::size_t row) {
      const auto size = static_cast<std::size_t>(n->b_.shuffle_buffer_size);
      while (!ended && buffered < size && read(buffer, buffered, size)) ++buffered;
      if (buffered == 0) return false;
      std::uniform_int_distribution<std::size_t> pick(0, buffered - 1);
      const std::size_t i = pick(rng);
      out.make_room(row, static_cast<std::size_t>(n->b_.batch_size));
      buffer.move_row(i, out, row);
      if (!read(buffer, i, size)) {
        if (i != buffered - 1) buffer.move_row(buffered - 1, buffer, i);
        --buffered;
      }
      return true;
    }

    std::optional<Element> next() override {
      std::size_t rows = 0;
      const auto batch = static_cast<std::size_t>(n->b_.batch_size);
      while (rows < batch && (n->b_.shuffle ? shuffled(rows) : read(out, rows, batch))) ++rows;
      if (rows == 0) return std::nullopt;
      return Element::tuple(out.batch(rows));
    }
  };
};

}  // namespace

Dataset csv_batches(std::vector<std::string> files, std::vector<RecordDefault> defaults, CsvOptions options,
                    CsvBatchOptions batching) {
  return Dataset(std::make_shared<CsvBatchNode>(std::move(files), std::move(defaults), std::move(options), std::move(batching)));
}

}  // namespace keras::data::detail
