#pragma once
// tf.data.experimental.AutoShardPolicy: how a distribution strategy splits a Dataset among replicas
// (data/auto_shard.hpp does it). AUTO (the default): by file when the pipeline reads at least one file
// per replica, else by data. FILE: by file, or an error. DATA: by data. OFF: every replica reads all.
#include <string>

namespace keras::data {

enum class AutoShardPolicy { AUTO, FILE, DATA, OFF };

/// "AUTO", "FILE", "DATA", "OFF".
std::string auto_shard_policy_name(AutoShardPolicy policy);

}  // namespace keras::data
