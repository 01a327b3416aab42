#pragma once
// Reader of Pajé traces (the format of pajeng, SimGrid, StarPU, Poti) into Paraver's model.
//
// Accepted input: `%EventDef NAME ID` blocks, each followed by `% FIELD TYPE` lines (tabs or
// spaces, any number) and `%EndEventDef`; then event lines `ID field...` whose fields are
// separated by blanks, a field with blanks being written in double quotes; `#` lines are
// comments. Fields are found by name; the names of Pajé's first format (ContainerType,
// EntityType, SourceContainer, DestContainer) are read as the new ones. Containers and types are
// referred to by alias or by name. Times (`date` fields) are seconds, stored as nanoseconds.
//
// Mapping (docs/formats.md): containers without child containers, and containers that hold
// states, events or variables or end links, are threads; a thread's parent container is its
// task (a container directly under the root is its own task); one application.
//   Set/Push/Pop/ResetState of the first state type a container uses -> its states (the top of
//     the stack, as `pj_dump --no-imbrication` prints), and for every state type an event of
//     type kPajeStateEventBase + n (value = the entity value's number at a change, 0 when the
//     stack empties); a state that ends when it begins is only that event (counted as
//     zero_duration_state);
//   NewEvent -> an event of type kPajeEventTypeBase + n, value = the entity value's number;
//   Set/Add/SubVariable -> an event of type kPajeVariableBase + n with the new value rounded;
//   StartLink/EndLink with the same container, type and key -> a communication (size from a
//     Size field); keys are scoped as pajeng scopes them, by the link's container and type.
// A container's destruction ends its open states and those of every container inside it;
// destroying the root container "0" ends them all (as pajeng does).

#include <cstdint>
#include <string>
#include <string_view>

#include "include/parallax/status.h"
#include "src/io/builder/trace_builder.h"

namespace parallax::io {

inline constexpr uint32_t kPajeEventTypeBase = 60001000;
inline constexpr uint32_t kPajeStateEventBase = 60002000;
inline constexpr uint32_t kPajeVariableBase = 60003000;

Result<ImportedTrace> ParsePajeTrace(std::string_view text, const std::string& file);
Result<ImportedTrace> ReadPajeTrace(const std::string& path);

}  // namespace parallax::io
