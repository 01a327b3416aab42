#include "src/base/deadline.h"

#include <fmt/format.h>

namespace parallax::base {

DeadlineExceeded::DeadlineExceeded(double seconds)
    : std::runtime_error(fmt::format("the request took more than its limit of {:g} s", seconds)),
      seconds_(seconds) {}

Deadline::Deadline(double seconds) {
  if (!(seconds > 0)) return;
  limited_ = true;
  seconds_ = seconds;
  // Beyond about 290 years the clock would overflow: treat it as no limit.
  if (seconds > 9e9) {
    limited_ = false;
    return;
  }
  at_ = std::chrono::steady_clock::now() +
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(seconds));
}

}  // namespace parallax::base
