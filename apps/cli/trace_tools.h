#pragma once
// Running the trace-processing tools (cut, filter, software counters) from the command line:
// one step or a chain of steps, each writing the trace the next one reads, with progress on a
// terminal and the errors printed once.

#include <string>
#include <vector>

#include "include/parallax/tools.h"

namespace parallax::cli {

// The name paramedir gives the output of a tool: "DIR/NAME.chop1.prv" for "DIR/NAME.prv" (or
// .prv.gz), with the first number not taken by an existing file (chop, filter1, sc).
std::string DefaultToolOutput(const std::string& input, ToolStep::Kind kind);

// Runs `steps` in order on `input`. The last step writes `output` (when empty: the default
// name of the last step); earlier steps write temporary traces in the output's folder, removed
// at the end. `prog` prefixes messages. Returns the exit status; *written gets the final trace.
// `paramedir_output`: the final trace follows paramedir's rule (any name, plain text).
int RunToolChain(const std::string& prog, const std::string& input,
                 const std::vector<ToolStep>& steps, const std::string& output, bool force,
                 std::string* written, bool paramedir_output = false);

}  // namespace parallax::cli

namespace parallax::cli {

// paramedir's trace-processing modes: `args` are paramedir's positional arguments (the trace
// .prv/.prv.gz, the .xml parameter file, cfgs and their output names, in any order); `order`
// are the tools asked for by -c/-f/-s/-t/-tt/-ta in command-line order. Runs the chain and returns
// in *remaining the arguments for the cfg part ([TRACE CFG [OUT]...] with TRACE the processed
// trace), empty when there is no cfg. Shift steps (-t/-tt/-ta) come filled in `order`; the
// others only give their kind and take their options from the .xml. Returns the exit status.
int RunParamedirTools(const std::vector<std::string>& args, const std::vector<ToolStep>& order,
                      const std::string& output_name, bool force,
                      std::vector<std::string>* remaining);

}  // namespace parallax::cli
