#pragma once
// Helpers shared by the callbacks that watch one log value (EarlyStopping, ModelCheckpoint,
// ReduceLROnPlateau): the mode check and the lookup of the monitored value.
#include <optional>
#include <string>

#include "keras/utils/logs.hpp"

namespace keras::callbacks {

/// "auto", "min" or "max"; any other mode prints Keras's warning and falls back to "auto".
std::string checked_mode(const std::string& mode, const std::string& owner);

/// The monitored value, or nullopt after printing Keras's warning that lists the available keys.
std::optional<double> monitored_value(const Logs& logs, const std::string& monitor, const std::string& owner);

/// Python's repr of a float ("0.1", "100.0", "1e-05", "nan"), as Keras prints and CSVLogger writes values.
std::string python_float(double value);

}  // namespace keras::callbacks
