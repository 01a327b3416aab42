#include "apps/server/cells.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <map>
#include <utility>

namespace parallax::server {
namespace {

// The textual view of one object over [from, to) through `base`'s window and limits;
// `records`: with its events and communications.
Result<TextView> ObjectText(const Trace& trace, const TextRequest& base, uint32_t object, uint64_t from,
                            uint64_t to, bool records) {
  TextRequest r = base;
  r.object.clear();
  r.object_index = object;
  r.from = from;
  r.to = to;
  r.records = records;
  return trace.Text(r);
}

}  // namespace

Result<CellSummary> SummarizeCells(const Trace& trace, const TextRequest& base, uint32_t first, uint32_t last,
                                   uint64_t from, uint64_t to, std::optional<uint64_t> at) {
  CellSummary s;
  s.from = from;
  s.to = to;
  std::map<std::pair<double, std::string>, CellValue> by_value;
  for (uint32_t object = first; object <= last; ++object) {
    // The events and communications only for a pixel (its provenance).
    auto view = ObjectText(trace, base, object, from, to, at.has_value());
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

namespace parallax::server {

namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool Contains(const std::string& label, const std::string& lower_text) {
  return !lower_text.empty() && Lower(label).find(lower_text) != std::string::npos;
}

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

// The match in `view` (of object `object`) within [from, to), closest to the search's start.
void Scan(const TextView& view, uint32_t object, uint64_t from, uint64_t to, const FindQuery& q,
          std::optional<FindMatch>* best) {
  auto better = [&](uint64_t t) {
    return !*best || (q.forward ? t < (*best)->time : t > (*best)->time);
  };
  if (q.events) {
    for (const TextEvent& e : view.events) {
      if (e.time < from || e.time >= to || !better(e.time)) continue;
      bool match = q.type ? e.type == *q.type && (!q.event_value || e.value == *q.event_value)
                          : Contains(e.type_label, q.text) || Contains(e.value_label, q.text);
      if (!match) continue;
      std::string label = !e.value_label.empty() ? e.value_label : e.type_label;
      *best = FindMatch{e.time, e.time, object, view.object,
                        (label.empty() ? "" : label + " ") + "(" + std::to_string(e.type) + ":" +
                            std::to_string(e.value) + ")"};
    }
    return;
  }
  for (const TextInterval& i : view.intervals) {
    if (i.begin < from || i.begin >= to || !better(i.begin)) continue;
    bool match = q.value ? i.value == *q.value : Contains(i.label, q.text);
    if (!match) continue;
    *best = FindMatch{i.begin, i.end, object, view.object,
                      (i.label.empty() ? "" : i.label + " ") + "(" + Number(i.value) + ")"};
  }
}

}  // namespace

Result<std::optional<FindMatch>> FindNext(const Trace& trace, const TextRequest& base, uint32_t first, uint32_t last,
                                          uint64_t time, uint64_t span, const FindQuery& query, double seconds) {
  const auto start = std::chrono::steady_clock::now();
  auto whole = TraceRange(trace, std::nullopt, std::nullopt);  // O(1), unlike Info()
  if (!whole.ok()) return whole.status();
  const uint64_t end = whole->to;
  if (query.forward && time >= end) return std::optional<FindMatch>();  // nothing after the end
  span = std::max<uint64_t>(span, 1);
  // Searched so far: (time, cursor) forward, [cursor, time) backward.
  uint64_t cursor = query.forward ? time + 1 : time;
  while (query.forward ? cursor < end : cursor > 0) {
    const uint64_t lo = query.forward ? cursor : (cursor > span ? cursor - span : 0);
    const uint64_t hi = query.forward ? (end - cursor > span ? cursor + span : end) : cursor;
    std::optional<FindMatch> best;
    for (uint32_t object = first; object <= last; ++object) {
      auto view = ObjectText(trace, base, object, lo, hi, query.events);  // values are the intervals' own
      if (!view.ok()) return view.status();
      Scan(view.value(), object, lo, hi, query, &best);
    }
    if (best) return std::optional<FindMatch>(std::move(best));
    if (seconds > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds)
      return Status::Limit("the search passed its time limit before finding a match", {},
                           "search a shorter part of the trace, or fewer rows");
    cursor = query.forward ? hi : lo;
    if (span < (uint64_t{1} << 62)) span *= 2;
  }
  return std::optional<FindMatch>();
}

Result<SourceEvents> FindSourceEvents(const Trace& trace, const TextRequest& base, uint32_t first, uint32_t last,
                                      uint64_t from, uint64_t to, uint32_t type, const SourceLocation& at,
                                      size_t max) {
  SourceEvents out;
  std::map<std::string, bool> same;  // value label → whether it is `at` (labels repeat)
  for (uint32_t object = first; object <= last; ++object) {
    auto view = ObjectText(trace, base, object, from, to, true);
    if (!view.ok()) return view.status();
    for (const TextEvent& e : view->events) {
      if (e.type != type || e.time < from || e.time >= to) continue;
      auto known = same.find(e.value_label);
      if (known == same.end()) {
        std::optional<SourceLocation> loc = ParseSourceLabel(e.value_label);
        known = same.emplace(e.value_label, loc && loc->line == at.line && loc->file == at.file).first;
      }
      if (!known->second) continue;
      ++out.count;
      if (out.marks.size() < max) out.marks.push_back(FindMatch{e.time, e.time, object, view->object, e.value_label});
    }
  }
  return out;
}

}  // namespace parallax::server
