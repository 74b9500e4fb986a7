// pool.cpp — the kernels' fixed thread pool (pool.h): workers wait on a condition variable
// for the next job's generation, run their share of its tasks (t % threads == their index)
// and report back; the caller runs share 0 and waits until every worker of the job has left
// it, so nothing outlives the call's `task`. Workers are started when the count first asks
// for them and are never stopped: a smaller count leaves the extra ones waiting. (Under
// Emscripten a stopped pthread's Worker returns to the pool only through the calling thread's
// event loop, which a caller blocked in a job never reaches; so nothing is ever stopped.)
#include "kernels/pool.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace ew {
namespace {

struct Pool {
  std::mutex m;
  std::condition_variable wake, done;
  std::vector<std::thread> workers;  // started so far; workers[i] is thread index i + 1
  const std::function<void(int)>* task = nullptr;
  // nthreads: set_threads' count; job_threads: the count of the job `generation` names, the one
  // its workers were counted by. A worker that wakes late, after set_threads has raised the count,
  // must judge by the job's: by nthreads it would join a job that did not wait for it (its task
  // already cleared) and decrement the next job's count.
  int ntasks = 0, nthreads = 1, job_threads = 1, pending = 0;
  unsigned long generation = 0;
  std::mutex busy;  // held by the caller of a parallel job (and by set_threads)
};

Pool& pool() {
  static Pool* p = new Pool;  // never destroyed: its workers wait until the process ends
  return *p;
}

thread_local bool in_task = false;

void run_share(const std::function<void(int)>& task, int ntasks, int index, int nthreads) {
  in_task = true;
  for (int t = index; t < ntasks; t += nthreads) task(t);
  in_task = false;
}

// `seen`: the generation when the worker was started (a job begun since then includes it).
void worker_loop(int index, unsigned long seen) {
  Pool& p = pool();
  std::unique_lock<std::mutex> lock(p.m);
  for (;;) {
    p.wake.wait(lock, [&] { return p.generation != seen; });
    seen = p.generation;
    if (index >= p.job_threads) continue;  // not part of this job
    const std::function<void(int)>* task = p.task;
    const int ntasks = p.ntasks, nthreads = p.job_threads;
    lock.unlock();
    run_share(*task, ntasks, index, nthreads);
    lock.lock();
    if (--p.pending == 0) p.done.notify_one();
  }
}

}  // namespace

int max_threads() {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  return 1;
#elif defined(__EMSCRIPTEN__)
  return 4;  // the pthreads started with the module (-sPTHREAD_POOL_SIZE=3, cmake/wasm_kernels.cmake) + the caller
#else
  return kMaxThreads;
#endif
}

void set_threads(int n) {
  n = std::clamp(n, 1, max_threads());
  Pool& p = pool();
  std::lock_guard<std::mutex> busy(p.busy);
  std::lock_guard<std::mutex> lock(p.m);
  while (static_cast<int>(p.workers.size()) < n - 1) {
    p.workers.emplace_back(worker_loop, static_cast<int>(p.workers.size()) + 1, p.generation);
    p.workers.back().detach();
  }
  p.nthreads = n;
}

int threads() { return pool().nthreads; }

void parallel_for(int n, const std::function<void(int)>& task) {
  Pool& p = pool();
  std::unique_lock<std::mutex> busy(p.busy, std::try_to_lock);
  if (n <= 1 || in_task || !busy.owns_lock() || p.nthreads == 1) {
    if (busy.owns_lock()) busy.unlock();
    for (int t = 0; t < n; ++t) task(t);
    return;
  }
  const int nthreads = p.nthreads;
  {
    std::lock_guard<std::mutex> lock(p.m);
    p.task = &task;
    p.ntasks = n;
    p.job_threads = nthreads;
    p.pending = nthreads - 1;
    ++p.generation;
  }
  p.wake.notify_all();
  run_share(task, n, 0, nthreads);
  std::unique_lock<std::mutex> lock(p.m);
  p.done.wait(lock, [&] { return p.pending == 0; });
  p.task = nullptr;
}

}  // namespace ew
