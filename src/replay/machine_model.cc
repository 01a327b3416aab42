#include "src/replay/machine_model.h"

namespace parallax::replay {

bool MachineModel::Ideal() const {
  auto free = [](const LinkModel& l) { return l.latency_s == 0 && l.bandwidth_Bps == 0; };
  return free(inter_node) && free(intra_node);
}

MachineModel IdealMachine() { return MachineModel{}; }

const char* StageModelName(StageModel m) {
  switch (m) {
    case StageModel::kNone:
      return "0";
    case StageModel::kConstant:
      return "CTE";
    case StageModel::kLinear:
      return "LIN";
    case StageModel::kLogarithmic:
      return "LOG";
  }
  return "";
}

const char* SizeModelName(SizeModel m) {
  switch (m) {
    case SizeModel::kMin:
      return "MIN";
    case SizeModel::kMax:
      return "MAX";
    case SizeModel::kMean:
      return "MEAN";
    case SizeModel::kTwiceMax:
      return "2MAX";
    case SizeModel::kSendPlusRecv:
      return "S+R";
  }
  return "";
}

}  // namespace parallax::replay
