#pragma once
// The machine a trace is replayed on (docs/replay.md): network latency and bandwidth between
// and within nodes, links per node, the eager/rendezvous threshold, the CPU speed ratio, how
// many tasks share a node, and the cost model of each collective operation, as Dimemas'
// configuration and collectives files describe them. A plain value; the defaults are the ideal
// machine of modelfactors' dimemas_ideal.cfg.

#include <cstdint>
#include <map>
#include <string>

namespace parallax::replay {

// How the number of stages of a collective phase grows with the number of tasks P:
// none (the phase costs nothing), constant (1), linear (P), logarithmic (ceil(log2 P)).
enum class StageModel : uint8_t { kNone, kConstant, kLinear, kLogarithmic };

// Which message size one stage carries: the smallest, largest or mean size the participants
// send or receive, twice the largest, or the largest send + receive total.
enum class SizeModel : uint8_t { kMin, kMax, kMean, kTwiceMax, kSendPlusRecv };

struct PhaseModel {
  StageModel stages = StageModel::kNone;
  SizeModel size = SizeModel::kMax;
};

// A collective operation: a fan-in phase then a fan-out phase (Dimemas' "globalop" lines).
struct CollectiveModel {
  PhaseModel fan_in{StageModel::kLogarithmic, SizeModel::kMax};
  PhaseModel fan_out{StageModel::kNone, SizeModel::kMax};
};

// One communication channel: a message of n bytes costs latency + n / bandwidth.
struct LinkModel {
  double latency_s = 0;      // seconds
  double bandwidth_Bps = 0;  // bytes per second; 0 = infinite (instantaneous transfer)
  uint32_t links = 0;        // input and output links per node; 0 = no contention
};

struct MachineModel {
  LinkModel inter_node;         // between tasks on different nodes
  LinkModel intra_node;         // between tasks of one node
  int64_t eager_limit = 32768;  // bytes: larger point-to-point messages use rendezvous
  double cpu_ratio = 1.0;       // bursts last (original duration / cpu_ratio)
  uint32_t tasks_per_node = 1;  // consecutive tasks share a node
  // Models by collective id (docs/replay.md "Collective ids"); an id not listed uses
  // `default_collective`.
  std::map<uint32_t, CollectiveModel> collectives;
  CollectiveModel default_collective;
  bool add_init_barrier = true;  // MPI_Init synchronises every task (as prv2dim's trace does)

  // True when every transfer is instantaneous and free.
  bool Ideal() const;
};

// The ideal machine: no latency, infinite bandwidth, no contention, 32 KB eager limit.
MachineModel IdealMachine();

// More links per node than this is refused: so many links are the same as no contention (0).
inline constexpr uint32_t kMaxLinks = 4096;

// Dimemas' MB: 2^20 bytes.
inline constexpr double kBytesPerMB = 1048576.0;

const char* StageModelName(StageModel m);
const char* SizeModelName(SizeModel m);

}  // namespace parallax::replay
