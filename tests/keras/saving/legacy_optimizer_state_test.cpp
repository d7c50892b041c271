// Keras 2.0-2.3 optimizer state (names like training/Adam/Variable_10:0 or m_3:0, ordered by the
// weight_names attribute) is restored from real files, so fit resumes where their authors stopped.
// Which array belongs to which slot follows Keras 2's optimizers: weights = [iterations] + one group per
// slot kind (Adam: m, v, vhat), each group with one array per trainable weight in the model's order.
#include <cmath>
#include <string>

#include <catch2/catch.hpp>

#include "keras/hdf5/file.hpp"
#include "keras/keras.hpp"
#include "keras/saving/hdf5_format.hpp"
#include "test_paths.hpp"

using namespace keras;

namespace {

std::string fixture(const std::string& name) {
  return std::string(keras_test::golden_dir) + "/../keras/saving/legacy_optimizer/" + name;
}

/// A weight's name as Keras 2.0-2.3 wrote it: without the cell ("lstm_1/lstm_cell/kernel:0" → "lstm_1/kernel:0").
std::string keras2_name(const std::string& name) {
  const auto first = name.find('/'), last = name.rfind('/');
  return first == last ? name : name.substr(0, first) + name.substr(last);
}

/// The slot `kind` of the model weight named `weight` ("dense_2/bias:0").
std::shared_ptr<Variable> slot_of(Model& model, const std::string& weight, const std::string& kind) {
  for (const auto& layer : model.layers())
    for (const auto& [name, var] : saving::named_weights(*layer))
      if (keras2_name(name) == weight)
        for (const auto& [sname, slot] : model.optimizer().slots_of(*var))
          if (sname == kind) return slot;
  FAIL("no slot " << kind << " of " << weight);
  return nullptr;
}

Tensor file_array(const std::string& path, const std::string& name) {
  return hdf5::File::open(path).root().open_group("optimizer_weights").read_dataset(name).astype(DType::float32);
}

struct Expected {
  std::string weight, kind, array;
};

}  // namespace

TEST_CASE("Keras 2.2 and 2.3 Adam, and 2.2 RMSprop, state is restored slot by slot") {
  struct Case {
    std::string file, optimizer;
    std::int64_t iterations;
    std::vector<Expected> slots;
  };
  const std::vector<Case> cases = {
      {"keras2.2.2_adam_mlp.h5", "Adam", 14000,
       {{"dense_1/kernel:0", "m", "training/Adam/Variable:0"},
        {"dense_2/bias:0", "m", "training/Adam/Variable_3:0"},
        {"dense_1/kernel:0", "v", "training/Adam/Variable_6:0"},
        {"dense_2/bias:0", "v", "training/Adam/Variable_9:0"},
        {"dense_3/bias:0", "v", "training/Adam/Variable_11:0"}}},
      {"keras2.3.1_adam_lstm.h5", "Adam", 12780,
       {{"lstm_1/kernel:0", "m", "m_0:0"},
        {"lstm_1/bias:0", "v", "v_2:0"},
        {"dense_1/kernel:0", "m", "m_3:0"}}},
      {"keras2.2.5_rmsprop_seq2seq.h5", "RMSprop", 0,
       {{"lstm_1/kernel:0", "velocity", "training/RMSprop/Variable:0"},
        {"lstm_2/recurrent_kernel:0", "velocity", "training/RMSprop/Variable_4:0"},
        {"dense_1/bias:0", "velocity", "training/RMSprop/Variable_7:0"}}},
  };
  for (const auto& c : cases) {
    SECTION(c.file) {
      const std::string path = fixture(c.file);
      auto model = models::load_model(path);
      REQUIRE(model->compiled());
      CHECK(model->optimizer().class_name() == c.optimizer);
      CHECK(model->optimizer().iterations() == c.iterations);
      for (const auto& e : c.slots) {
        INFO(e.weight << " " << e.kind << " <- " << e.array);
        auto slot = slot_of(*model, e.weight, e.kind);
        const Tensor want = file_array(path, e.array);
        REQUIRE(slot->shape() == want.shape());
        CHECK(slot->value().to_vector<float>() == want.to_vector<float>());
        // Restored, not the zeros of a fresh optimizer.
        CHECK(std::abs(want.to_vector<float>().at(0)) + std::abs(want.to_vector<float>().back()) > 0);
      }
    }
  }
}

// One more Adam step from the restored state: the step count continues from the file's, and the new
// moments follow from the file's ones, m' = b1 m + (1 - b1) g and v' = b2 v + (1 - b2) g^2 for the same g
// (from a fresh optimizer, v' would be (1 - b2) g^2 and miss b2 v by far).
TEST_CASE("fit resumes a Keras 2.2 Adam run from the saved moments and step count") {
  const std::string path = fixture("keras2.2.2_adam_mlp.h5");
  auto model = models::load_model(path);
  Tensor x = Tensor::empty({8, 6});
  for (int i = 0; i < 48; ++i) x.data<float>()[i] = std::sin(0.7f * float(i));
  Tensor y = Tensor::zeros({8, 3});
  for (int i = 0; i < 8; ++i) y.data<float>()[i * 3 + i % 3] = 1.f;
  const Tensor m_old = file_array(path, "training/Adam/Variable_3:0");  // dense_2/bias m
  const Tensor v_old = file_array(path, "training/Adam/Variable_9:0");  // dense_2/bias v
  model->fit(x, y, {.batch_size = 8, .epochs = 1, .verbose = 0, .shuffle = false});
  CHECK(model->optimizer().iterations() == 14001);
  const auto m_new = slot_of(*model, "dense_2/bias:0", "m")->value().to_vector<float>();
  const auto v_new = slot_of(*model, "dense_2/bias:0", "v")->value().to_vector<float>();
  const auto m0 = m_old.to_vector<float>(), v0 = v_old.to_vector<float>();
  const double b1 = 0.9, b2 = 0.999;
  int informative = 0;
  for (std::size_t i = 0; i < m0.size(); ++i) {
    const double g = (double(m_new[i]) - b1 * m0[i]) / (1 - b1);
    const double want = b2 * v0[i] + (1 - b2) * g * g;
    INFO("element " << i << ": v_old " << v0[i] << " v_new " << v_new[i] << " predicted " << want);
    CHECK(std::abs(v_new[i] - want) <= 1e-4 * std::abs(want) + 1e-12);
    if (v0[i] > 1e-9) ++informative;
  }
  CHECK(informative > 0);
}
