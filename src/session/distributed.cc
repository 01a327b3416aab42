#include "src/session/distributed.h"

#include <fmt/format.h>

#include "src/base/wire.h"

namespace parallax::session {

namespace {

// What a process sends: a kind byte, then for 'H' its rows: row index u32, cell count u32, the
// cells (column u32, plane u32, the statistics as doubles).
constexpr char kRows = 'H';
constexpr char kFailed = 'F';
constexpr char kNothing = 'N';

using base::WirePut;

std::string Pack(const analysis::HistogramResult& r, unsigned rank, unsigned ranks) {
  std::string out(1, kRows);
  for (size_t i = 0; i < r.cells.size(); ++i) {
    if (r.OwnerOf(i, ranks) != rank) continue;
    WirePut(out, static_cast<uint32_t>(i));
    WirePut(out, static_cast<uint32_t>(r.cells[i].size()));
    for (const analysis::Cell& c : r.cells[i]) {
      WirePut(out, c.column);
      WirePut(out, c.plane);
      WirePut(out, c.stats);
    }
  }
  return out;
}

// Fills the rows of process `from`; false when its bytes are not a share of this histogram.
bool Unpack(const std::string& in, unsigned from, unsigned ranks, analysis::HistogramResult& r) {
  base::WireReader in_bytes(in, 1);
  while (!in_bytes.done()) {
    uint32_t row = 0, n = 0;
    if (!in_bytes.Get(&row) || !in_bytes.Get(&n)) return false;
    if (row >= r.cells.size() || r.OwnerOf(row, ranks) != from) return false;
    if (n > in_bytes.left() / (2 * sizeof(uint32_t) + sizeof(analysis::CellStats))) return false;
    auto& cells = r.cells[row];
    cells.resize(n);
    for (auto& c : cells)
      if (!in_bytes.Get(&c.column) || !in_bytes.Get(&c.plane) || !in_bytes.Get(&c.stats)) return false;
  }
  return true;
}

}  // namespace

Result<std::vector<std::string>> DistributedCall::Call(const std::string& mine, bool last) {
  std::vector<std::string> all = d_.allgather(mine);
  all.resize(d_.ranks);
  if (last) done_ = true;
  for (unsigned p = 0; p < d_.ranks; ++p) {
    if (p == d_.rank || all[p].empty() || all[p][0] != kFailed) continue;
    done_ = true;  // the failed process makes no more calls: neither do we
    return Status::Error(fmt::format("process {} of {} failed; this one stops too", p, d_.ranks), {},
                         "see that process' message");
  }
  return all;
}

Result<std::vector<std::string>> DistributedCall::Share(const std::string& mine, bool last) {
  auto all = Call(std::string(1, kRows) + mine, last);
  if (!all.ok()) return all;
  for (unsigned p = 0; p < d_.ranks; ++p) {
    std::string& part = all.value()[p];
    if (part.empty() || part[0] != kRows) {
      done_ = true;  // out of step: stop exchanging in this call
      return Status::Error(fmt::format("process {} of {} is out of step with this one", p, d_.ranks), {},
                           "all processes must run the same Parallax on the same trace and cfgs");
    }
    part.erase(0, 1);
  }
  return all;
}

Status DistributedCall::Exchange(analysis::HistogramResult& result) {
  const unsigned ranks = d_.ranks;
  auto all = Call(Pack(result, d_.rank, ranks), true);
  if (!all.ok()) return all.status();
  for (unsigned p = 0; p < ranks; ++p) {
    if (p == d_.rank) continue;
    const std::string& part = all.value()[p];
    if (part.empty() || part[0] != kRows)
      return Status::Error(fmt::format("process {} of {} did not compute its share of the histogram", p, ranks),
                           {}, "all processes must run the same Parallax on the same trace and cfg");
    if (!Unpack(part, p, ranks, result))
      return Status::Error(fmt::format("process {} of {} sent a damaged share of the histogram", p, ranks), {},
                           "all processes must run the same Parallax on the same trace and cfg");
  }
  result.shared = false;
  return Status::Ok();
}

void DealRows(analysis::HistogramInput& in, DistributedCall& call) {
  in.threads = call.threads();
  in.share_index = call.rank();
  in.share_count = call.ranks();
  in.exchange = [&call](const std::string& mine) { return call.Share(mine); };
}

void DistributedCall::Finish(bool failed) {
  if (done_) return;
  // A failure after an intermediate exchange still owes the others one call; so does any
  // call that had nothing to exchange.
  (void)Call(std::string(1, failed ? kFailed : kNothing), true);
}

}  // namespace parallax::session
