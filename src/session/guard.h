#pragma once
// Keeps exceptions inside the library: every public entry point runs its body through Guarded,
// which turns std::bad_alloc and any other exception into an error Status naming the file.

#include <exception>
#include <new>
#include <string>

#include <fmt/format.h>

#include "include/parallax/functions.h"
#include "include/parallax/status.h"
#include "src/base/deadline.h"
#include "src/base/request_memory.h"
#include "src/store/compact_threads.h"

namespace parallax::session {

template <typename F>
auto Guarded(const std::string& file, F&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const FunctionError& e) {
    return Status::Error(e.what(), Location{file, 0, 0},
                         "the error comes from a user-defined function (a plug-in or a Python "
                         "callable): fix the function, or leave it out of the cfg");
  } catch (const std::bad_alloc&) {
    return Status::Limit("out of memory", Location{file, 0, 0},
                         "use a machine with more memory, or cut the trace to a time range or a "
                         "subset of threads first");
  } catch (const base::RequestMemoryExceeded& e) {
    return Status::Limit(e.what(), Location{file, 0, 0},
                         "ask for a shorter time range or fewer objects (or a server started with a "
                         "higher --request-memory-limit)");
  } catch (const base::DeadlineExceeded& e) {
    return Status::Limit(e.what(), Location{file, 0, 0},
                         "ask for a shorter time range, fewer objects or a simpler cfg");
  } catch (const store::DamagedRecords& e) {
    return Status::Error(e.what(), Location{file, 0, 0},
                         "the trace cache holding them is damaged: remove it (parallax cache clear "
                         "TRACE) and open the trace again");
  } catch (const std::exception& e) {
    return Status::Error(fmt::format("internal error: {}", e.what()), Location{file, 0, 0},
                         "please report this with the input that causes it");
  }
}

}  // namespace parallax::session
