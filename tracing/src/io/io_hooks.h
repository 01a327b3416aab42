#pragma once
// Shared by the two halves of libparallax-io.so.

namespace parallax::tracing {

// Reads PXT_MALLOC and resolves the allocator (the I/O library's constructor calls it before
// tracing starts). Returns true when dynamic memory is recorded.
bool LoadMemoryHooks();

}  // namespace parallax::tracing
