#include "data/text_line_dataset.hpp"

#include "data/auto_shard.hpp"
#include "data/file_stream.hpp"
#include "keras/json.hpp"

namespace keras::data {
namespace {

class TextLineNode : public DatasetNode {
 public:
  TextLineNode(std::vector<std::string> files, TextLineOptions o) : files_(std::move(files)), o_(std::move(o)) {
    detail::check_compression_type(o_.compression_type);
    if (files_.empty()) throw ValueError("TextLineDataset needs at least one file name");
  }
  ElementSpec element_spec() const override { return TensorSpec{{}, "string"}; }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      std::vector<std::string> files;  // this replica's (data/auto_shard.hpp)
      const TextLineNode* n;
      std::size_t file = 0;
      std::int64_t line_no = 0;
      std::unique_ptr<detail::FileStream> in;
      std::optional<Element> next() override {
        std::string line;
        while (file < files.size()) {
          if (!in) {
            in = std::make_unique<detail::FileStream>(files[file], n->o_.compression_type);
            line_no = 0;
          }
          if (in->getline(line)) {
            ++line_no;
            return Element(Component(std::move(line)));
          }
          in.reset();
          ++file;
        }
        return std::nullopt;
      }
      json save() const override { return {{"file", file}, {"line", line_no}}; }
      void restore(const json& s) override {
        file = s.at("file");
        const std::int64_t lines = s.at("line");
        in.reset();
        if (file >= files.size()) return;
        in = std::make_unique<detail::FileStream>(files[file], n->o_.compression_type);
        std::string skip;
        for (line_no = 0; line_no < lines && in->getline(skip);) ++line_no;
      }
    };
    auto it = std::make_unique<It>();
    it->n = this;
    it->files = files_of_this_replica(files_, "TextLineDataset");
    return it;
  }

 private:
  std::vector<std::string> files_;
  TextLineOptions o_;
};

}  // namespace

TextLineDataset::TextLineDataset(std::vector<std::string> filenames, TextLineOptions options)
    : Dataset(std::make_shared<TextLineNode>(std::move(filenames), std::move(options))) {}

}  // namespace keras::data
