#pragma once
// The callbacks a non-chief replica runs (as Keras's multi-worker training): nothing that writes files or
// prints (ModelCheckpoint, CSVLogger, TensorBoard, the progress bar are the chief's), and
// BackupAndRestore only restoring, from the chief's backup, so a relaunched job resumes on every rank.
#include <vector>

#include "callbacks/callback.hpp"

namespace keras {

/// The user's callbacks as a worker replica (not the chief) runs them.
std::vector<callbacks::CallbackRef> worker_callbacks(const std::vector<callbacks::CallbackRef>& user_callbacks);

}  // namespace keras
