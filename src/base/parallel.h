#pragma once
// Runs independent tasks on a fixed number of worker threads. No global pool: each call owns
// its threads, so there is no hidden shared state between callers.

#include <cstddef>
#include <functional>

namespace parallax::base {

// Number of worker threads to use by default (the hardware concurrency, at least 1).
unsigned DefaultThreads();

// Calls fn(i) for every i in [0, count) using up to `threads` threads; returns when all calls
// are done. `poll`, when given, is called on the calling thread about every 100 ms meanwhile.
//
// Exceptions: the first exception thrown by a call of fn (on any thread) or by poll stops the
// loop (calls not yet started are skipped, running ones finish), every worker is joined, and
// the exception is rethrown on the calling thread. Nothing escapes a worker thread, so a
// failure never reaches std::terminate. If a worker thread cannot be started, the calls run
// on the threads that could.
void ParallelFor(size_t count, unsigned threads, const std::function<void(size_t)>& fn,
                 const std::function<void()>& poll = {});

}  // namespace parallax::base
