#include "apps/server/cells.h"

#include <algorithm>
#include <map>
#include <utility>

namespace parallax::server {

Result<CellSummary> SummarizeCells(const Trace& trace, const TextRequest& base, uint32_t first, uint32_t last,
                                   uint64_t from, uint64_t to, std::optional<uint64_t> at) {
  CellSummary s;
  s.from = from;
  s.to = to;
  std::map<std::pair<double, std::string>, CellValue> by_value;
  for (uint32_t object = first; object <= last; ++object) {
    TextRequest r = base;
    r.object.clear();
    r.object_index = object;
    r.from = from;
    r.to = to;
    auto view = trace.Text(r);
    if (!view.ok()) return view.status();
    s.window = view->window;
    s.time_unit = view->time_unit;
    s.objects.push_back(view->object);
    for (const TextInterval& i : view->intervals) {
      // The view starts at the interval holding `from` and may end past `to`: only the part
      // inside the range counts, and an interval wholly outside it is not one of the cells.
      const uint64_t b = std::max(i.begin, from), e = std::min(i.end, to);
      if (i.end < from || i.begin >= to || (b == e && i.begin != i.end)) continue;
      CellValue& v = by_value[{i.value, i.label}];
      v.value = i.value;
      v.label = i.label;
      v.time += e - b;
      v.intervals += 1;
      s.intervals += 1;
      if (at && object == first && !s.at && i.begin <= *at && *at < std::max(i.end, i.begin + 1)) s.at = i;
    }
    for (const TextEvent& e : view->events) s.events += e.time >= from && e.time < to;
    s.comms += view->comms.size();
  }
  for (auto& [key, v] : by_value) s.values.push_back(std::move(v));
  std::stable_sort(s.values.begin(), s.values.end(),
                   [](const CellValue& a, const CellValue& b) { return a.time > b.time; });
  return s;
}

}  // namespace parallax::server
