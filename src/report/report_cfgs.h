#pragma once
// The cfgs of the report's timelines (report_cfgs.cc): useful duration (load balance), MPI call
// (communication) and useful IPC (computation, when the trace has PAPI_TOT_INS and PAPI_TOT_CYC).

namespace parallax::report {

const char* UsefulDurationCfg();
const char* MpiCallCfg();
const char* UsefulIpcCfg();

}  // namespace parallax::report
