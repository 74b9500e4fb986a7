// pool.h — a small fixed pool of worker threads for the kernels (std::thread; under
// Emscripten only the pthreads build may start any). One global thread count, 1 by
// default: then nothing is started and every kernel runs on the caller's thread exactly as
// without the pool. Work is handed out as `n` independent tasks; the kernels split by
// output tiles only, so each output element is computed by the same instruction sequence
// whatever the thread count (bit-identical results, tests/test_threads.cpp).
#pragma once
#include <functional>

namespace ew {

constexpr int kMaxThreads = 16;

// The most threads this build can run: kMaxThreads natively, 4 in the WebAssembly pthreads
// build (the workers it starts with), 1 in a WebAssembly build without pthreads.
int max_threads();

// Sets the number of threads the kernels may use (clamped to 1..max_threads()), counting the
// caller: n - 1 workers are kept waiting (started on first need, never stopped). Call it
// between runs, not from inside a task.
void set_threads(int n);
int threads();

// Runs task(t) for every t in [0, n) and returns when all are done. Task t runs on thread
// t % threads() (0 = the caller). Serial on the caller when threads() == 1, when n == 1, when
// called from inside a task, or while another thread is using the pool.
void parallel_for(int n, const std::function<void(int)>& task);

}  // namespace ew
