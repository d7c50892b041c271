#include "optimizers/schedules/piecewise_constant_decay.hpp"

#include <algorithm>
#include <cmath>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "optimizers/schedules/schedule_config.hpp"

namespace keras::optimizers::schedules {
namespace {

const bool registered = register_class<LearningRateSchedule, PiecewiseConstantDecay>("PiecewiseConstantDecay");

template <class T>
std::vector<T> read_list(const json& c, const char* key) {
  if (!c.contains(key) || !c[key].is_array())
    throw ValueError(std::string("PiecewiseConstantDecay config: '") + key + "' must be a list of numbers, got " +
                     (c.contains(key) ? c[key].dump() : std::string("nothing")));
  std::vector<T> out;
  for (const auto& x : c[key]) {
    if (!x.is_number())
      throw ValueError(std::string("PiecewiseConstantDecay config: '") + key + "' must hold numbers, got " + x.dump());
    // Keras casts float boundaries to the (integer) step type, which truncates.
    out.push_back(static_cast<T>(x.get<double>()));
  }
  return out;
}

}  // namespace

PiecewiseConstantDecay::PiecewiseConstantDecay(std::vector<std::int64_t> boundaries, std::vector<double> values,
                                               PiecewiseConstantDecayOptions options)
    : boundaries_(std::move(boundaries)), values_(std::move(values)), options_(std::move(options)) {
  if (boundaries_.empty() || values_.size() != boundaries_.size() + 1)
    throw ValueError("PiecewiseConstantDecay: the length of boundaries should be 1 less than the length of values "
                     "(and at least 1). Received " + std::to_string(boundaries_.size()) + " boundaries and " +
                     std::to_string(values_.size()) + " values.");
  if (!std::is_sorted(boundaries_.begin(), boundaries_.end()))
    throw ValueError("PiecewiseConstantDecay: boundaries must be in increasing order");
}

double PiecewiseConstantDecay::operator()(std::int64_t step) const {
  // The first boundary b with step <= b selects values[index of b]; past the last one, the last value.
  const auto it = std::lower_bound(boundaries_.begin(), boundaries_.end(), step);
  return values_[static_cast<std::size_t>(it - boundaries_.begin())];
}

KERAS_FIELDS(PiecewiseConstantDecayOptions, name)

json PiecewiseConstantDecay::get_config() const {
  return schedule_config({{"boundaries", boundaries_}, {"values", values_}}, options_);
}

std::shared_ptr<LearningRateSchedule> PiecewiseConstantDecay::from_config(const json& c) {
  return std::make_shared<PiecewiseConstantDecay>(read_list<std::int64_t>(c, "boundaries"),
                                                  read_list<double>(c, "values"),
                                                  schedule_options<PiecewiseConstantDecayOptions>(c));
}

}  // namespace keras::optimizers::schedules
