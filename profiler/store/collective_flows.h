#pragma once
// Flows linking one collective across its ranks (the cluster timeline's "a collective
// linked across its ranks"), written when a run with several rank devices is committed
// (profile_db_writer): the i-th instance of a communication slice on one rank is linked
// to the i-th instance of the same slice on the next rank of its group, so selecting it
// on any rank leads through the whole group (FLOW kind "collective").
//   communication slices  device tracks' slices of category "comm" (simulated) or named
//                         nccl* / hccl* / hcom* (Kineto, Ascend)
//   groups                simulated runs (META cluster_report): a TP collective's tensor-
//                         parallel group, a DP one's data-parallel group (Megatron rank
//                         order). Pipeline sends ("PP send" stream) are linked to their
//                         receives ("PP recv") on the neighbour stage's rank of the same
//                         data/tensor-parallel coordinates instead (FLOW kind "p2p"):
//                         activations forward, gradients backward.
//                         Imports: the NCCL "Process Group Name" of the slice's args, else
//                         every rank running that kernel name
//   ranks                 from the device names (rank_device_name.h); a rank's devices
//                         are taken together

#include "base/expected.h"

#include <cstdint>

struct sqlite3;

namespace npu::profiler {

// Inside the writer's transaction, after the tasks and their indexes; returns the flows added.
Expected<std::int64_t> linkCollectivesAcrossRanks(sqlite3* db);

}  // namespace npu::profiler
