#pragma once
// Who sends how many bytes to whom in one collective, by algorithm: the rank x rank
// traffic behind collective_cost's bus volumes (the Communication tab's matrix).
//   ring              member i sends to i+1: 2(n-1)/n of the payload (all-reduce),
//                     (n-1)/n (reduce-scatter, all-gather), all of it (broadcast)
//   halving_doubling  Rabenseifner: reduce-scatter by recursive halving (step k: the
//                     partner n/2^k away, payload/2^k), all-gather by recursive doubling
//                     (the same pairs back); members past the largest power of two send
//                     nothing here (their extra exchange is not modelled)
//   tree              NCCL's double binary tree for all-reduce: two trees (heap order and
//                     its mirror) each carry half the payload, up to the parent (reduce)
//                     and down to the children (broadcast); other kinds as halving_doubling
//                     (the cost model's log-step shape)
//   hierarchical      HCCL's order when the group spans nodes with several members each:
//                     ring reduce-scatter inside the node, ring all-reduce of the 1/k shard
//                     between the members with the same place in each node, ring all-gather
//                     inside the node; on one node, a ring
//   all_to_all        every member sends payload/n to every other
// Members are given as global ranks; nodeOf places them (for hierarchical).

#include "engine/parallel/collective_cost.h"

#include <functional>
#include <vector>

namespace npu::engine {

struct PairTraffic {
    int src = 0, dst = 0;   // global ranks
    double bytes = 0;
};

// Pairs with the same src and dst are summed; no pair has src == dst.
std::vector<PairTraffic> collectiveTraffic(CollectiveKind kind, CollectiveAlgorithm algorithm, double bytes,
                                           const std::vector<int>& members, const std::function<int(int)>& nodeOf);

}  // namespace npu::engine
