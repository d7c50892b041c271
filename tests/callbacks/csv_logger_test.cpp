#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "callback_helpers.hpp"
#include "callbacks/monitor.hpp"

using namespace keras;
using callbacks::CSVLogger;

namespace {
std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("CSVLogger writes epoch then the sorted keys, one row per epoch", "[csv_logger]") {
  const auto dir = cbtest::temp_dir("csv");
  const auto path = dir / "log.csv";
  auto m = cbtest::tiny_model();
  CSVLogger csv(path.string());
  cbtest::run_epochs(csv, m, "val_loss", {0.5, 0.25});
  CHECK(read_file(path) == "epoch,loss,val_loss\r\n0,1.0,0.5\r\n1,1.0,0.25\r\n");

  // append: no second header; a fresh logger without append truncates
  CSVLogger more(path.string(), {.separator = ";", .append = true});
  cbtest::run_epochs(more, m, "val_loss", {0.125});
  CHECK(read_file(path) == "epoch,loss,val_loss\r\n0,1.0,0.5\r\n1,1.0,0.25\r\n0;1.0;0.125\r\n");
  CSVLogger fresh(path.string(), {.separator = "\t"});
  cbtest::run_epochs(fresh, m, "val_loss", {1e-5});
  CHECK(read_file(path) == "epoch\tloss\tval_loss\r\n0\t1.0\t1e-05\r\n");

  // append to a missing or empty file writes the header
  CSVLogger empty((dir / "new.csv").string(), {.append = true});
  cbtest::run_epochs(empty, m, "val_loss", {2.0});
  CHECK(read_file(dir / "new.csv") == "epoch,loss,val_loss\r\n0,1.0,2.0\r\n");
  std::filesystem::remove_all(dir);
}

TEST_CASE("CSVLogger logs a real fit with History's values and NA for missing keys", "[csv_logger]") {
  const auto dir = cbtest::temp_dir("csv_fit");
  auto m = cbtest::tiny_model();
  auto h = m.fit(Tensor::ones({6, 2}), Tensor::zeros({6, 1}),
                 {.batch_size = 2, .epochs = 2, .verbose = 0, .callbacks = {CSVLogger((dir / "fit.csv").string())},
                  .validation_split = 0.34});
  std::istringstream lines(read_file(dir / "fit.csv"));
  std::string header, row0, row1;
  std::getline(lines, header);
  std::getline(lines, row0);
  std::getline(lines, row1);
  CHECK(header == "epoch,loss,val_loss\r");
  CHECK(row1.rfind("1," + callbacks::python_float(h.history.at("loss")[1]) + "," +
                       callbacks::python_float(h.history.at("val_loss")[1]), 0) == 0);

  auto unwritable = CSVLogger((dir / "missing_dir_is_created/x.csv").string());
  CHECK_NOTHROW(cbtest::run_epochs(unwritable, m, "val_loss", {1.0}));
  CSVLogger na((dir / "na.csv").string());
  na.set_model(&m);
  Logs l;
  na.on_train_begin(l);
  Logs e0{{"a", 1.0}, {"b", 2.0}}, e1{{"a", 3.0}};
  na.on_epoch_end(0, e0);
  na.on_epoch_end(1, e1);
  na.on_train_end(l);
  CHECK(read_file(dir / "na.csv") == "epoch,a,b\r\n0,1.0,2.0\r\n1,3.0,NA\r\n");
  std::filesystem::remove_all(dir);
}
