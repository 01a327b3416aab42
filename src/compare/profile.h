#pragma once
// A run's time by MPI call and by rank, from its call table (docs/compare.md): per rank, the
// time in each MPI call (by name) and in computation (between the end of MPI_Init, else the
// first call, and the start of MPI_Finalize, else the end of the last call, what no call
// holds).

#include <map>
#include <string>
#include <vector>

#include "src/calls/call_table.h"
#include "src/model/pcf_catalog.h"

namespace parallax::compare {

struct CallProfile {
  std::map<std::string, std::vector<model::Time>> by_call;  // name -> time per rank
  std::vector<model::Time> computation;                       // per rank
  std::vector<model::Time> mpi;                               // per rank, MPI_Init and _Finalize excluded
};

CallProfile ProfileCalls(const calls::CallTable& table, const model::PcfCatalog* pcf);

}  // namespace parallax::compare
