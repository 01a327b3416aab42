#include "src/base/wire.h"

#include <algorithm>
#include <numeric>

namespace parallax::base {

std::vector<uint32_t> BalanceByCost(const std::vector<uint64_t>& cost, unsigned count) {
  std::vector<size_t> order(cost.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return cost[a] > cost[b]; });
  std::vector<uint64_t> load(std::max(count, 1u), 0);
  std::vector<uint32_t> owner(cost.size(), 0);
  for (size_t i : order) {
    const auto least = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    owner[i] = static_cast<uint32_t>(least);
    load[least] += cost[i] + 1;  // + 1: items of no cost are still spread
  }
  return owner;
}

}  // namespace parallax::base
