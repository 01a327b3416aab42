#pragma once
// Temporary output files the process is writing (a trace, a table, a cache, each under a
// temporary name until it is whole), so that a signal that ends the process (SIGINT, SIGTERM,
// SIGHUP, SIGQUIT, SIGXCPU) leaves none behind.
//
// A deliberate exception to "no mutable globals": a signal handler can only reach process-wide
// state. The registry is a fixed table written without locks and read by the handler with
// async-signal-safe calls only (unlink, rmdir, raise; a folder's entries are listed by the
// getdents64 system call on a descriptor, not by readdir).

#include <string>

namespace parallax::base {

// While registered, `path` is removed if the process is ended by a signal (after
// InstallTempFileCleanup). At most kMaxTempFiles paths at once; more are not covered.
void RegisterTempFile(const std::string& path);
void UnregisterTempFile(const std::string& path);

// Installs the handlers (once; a front end's choice: a library never installs them itself).
// The first removes the registered files, then ends the process as the signal would have;
// from its start no thread creates a temporary file, and a second signal waits for the end.
void InstallTempFileCleanup();

inline constexpr int kMaxTempFiles = 64;

// Creates the temporary file that becomes `path` once whole: ".NAME.tmpXXXXXX" in the same
// folder (so the final rename stays on one file system), mode 0644, registered above. Returns
// the open descriptor and sets *tmp_path; -1 with errno set when it cannot be created.
int CreateTempBeside(const std::string& path, std::string* tmp_path);

// Creates `path` exclusively (mode 0644, read-write), registered above. Returns the open
// descriptor; -1 with errno set when it cannot be created (EEXIST when it exists).
int CreateTempFile(const std::string& path);

// Creates a temporary folder "<TMPDIR or /tmp>/PREFIX-XXXXXX" (mode 0700), registered like the
// files: a signal that ends the process removes the files directly in it, then the folder
// (one level: the folder must hold no sub-folder). Returns its path, "" with errno set when it
// cannot be created. RemoveTempDir removes it the same way and unregisters it.
std::string CreateTempDir(const std::string& prefix);
void RemoveTempDir(const std::string& path);

// All three leave no moment at which a signal could end the process between the creation and
// the registration, whichever thread the signal is delivered to.

}  // namespace parallax::base
