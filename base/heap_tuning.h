#pragma once
// Keeps freed heap memory in the process instead of handing it back to the kernel.
//
// Why: work that allocates and frees the same few megabytes over and over on several
// threads (the strategy search: thousands of simulations, each building and dropping its
// graphs and timelines) makes glibc trim each thread's arena and unmap its larger blocks
// after every simulation, then fault the pages in again for the next one. On the 2-core
// CI machine that page-fault churn took 40% of the exhaustive search's time
// (tests/benchmarks/engine/search_report: 67 s -> 38 s with it), for 10 MiB more peak RSS.
//
// What: large blocks come from the heap (up to 512 MiB, not mmap) and an arena is trimmed
// only past 1 GiB of free top memory. Process-wide and lasting (glibc has no way to read
// the old settings back); a no-op off glibc. Idempotent.
namespace npu {

void keepFreedHeapMemory();

}  // namespace npu
