#pragma once
// The dimensions the strategy search (engine/planner/strategy_search) enumerates: device
// counts' divisors, a shape's micro-batch counts and its pipeline schedules.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace npu::engine {

// Every divisor of n, ascending (up to 2^20).
std::vector<int> divisorsOf(std::int64_t n);

// The micro-batch counts to try (the batch splits evenly), thinned to `most`: the fewest
// (largest micro-batch: the most efficient kernels), the most (least activation memory,
// smallest bubble), and between them by factors of two from the fewest. With pipeline
// stages a count below the stages is GPipe's only (1F1B and the interleaved schedule
// need one per stage at least): `least` is 1 when GPipe is searched, else the stages.
std::vector<int> microBatchChoices(std::int64_t perPipeline, int least, int most);

// A shape's schedules (engine/parallel/pipeline_schedule) as (parallel.schedule,
// virtual_stages): 1F1B with a micro-batch per stage at least, GPipe, and Megatron-LM's
// interleaved 1F1B with every chunk count v >= 2 that splits the stage's layers when the
// micro-batches are a multiple of the stages. Without stages there is no schedule to
// choose (1F1B stands for it). PPO's pipeline (NeMo-Aligner) has no interleaved schedule
// (engine/training/ppo_step refuses it).
std::vector<std::pair<std::string, int>> schedulesOf(int stages, int microBatches, std::int64_t layers, bool ppo);

}  // namespace npu::engine
