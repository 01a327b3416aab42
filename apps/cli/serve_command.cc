// `parallax serve [TRACE...] [--root DIR] [--port N] [--host ADDR] [--open]`: the browser UI.
// Serves the files under the root (default: the current directory) to whoever has the printed
// URL.

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "apps/server/server.h"

namespace parallax::cli {

namespace {

struct ServeArgs {
  std::vector<std::string> traces;
  server::ServerOptions options;
  bool open = false;
};

// $BROWSER, else xdg-open when there is a display to open a window on; empty: none to start.
std::string BrowserProgram() {
  const char* browser = std::getenv("BROWSER");
  if (browser != nullptr && *browser != '\0') return browser;
  for (const char* var : {"DISPLAY", "WAYLAND_DISPLAY"}) {
    const char* v = std::getenv(var);
    if (v != nullptr && *v != '\0') return "xdg-open";
  }
  return {};
}

// Starts the desktop's browser ($BROWSER, else xdg-open) on the URL. The URL goes through a
// private file that redirects to it, as notebook servers do, so that the token does not show
// in the process list of a shared machine. Returns false when no browser could be started.
bool OpenBrowser(const std::string& url) {
  std::string program = BrowserProgram();
  if (program.empty()) return false;  // before the page: no browser, no file
  const char* tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/parallax-open-XXXXXX.html";
  int fd = mkstemps(path.data(), 5);  // 0600
  if (fd < 0) return false;
  std::string page = "<!doctype html><meta http-equiv=\"refresh\" content=\"0;url=" + url + "\"><a href=\"" + url +
                     "\">Parallax</a>\n";
  bool written = write(fd, page.data(), page.size()) == static_cast<ssize_t>(page.size());
  close(fd);
  if (!written) {
    unlink(path.c_str());
    return false;
  }
  std::string file_url = "file://" + path;
  char* argv[] = {program.data(), file_url.data(), nullptr};
  // The browser's own chatter (xdg-open lists every method it tried) stays off the terminal,
  // which shows the URL.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  int spawned = posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    unlink(path.c_str());  // no browser will read it
    return false;
  }
  std::thread([pid] {  // reap it, whenever it ends
    int status = 0;
    waitpid(pid, &status, 0);
  }).detach();
  return true;
}

int Run(ServeArgs& a) {
  // Ctrl-C and SIGTERM stop the server cleanly: they are blocked in every thread (the server's
  // workers inherit the mask) and taken by one thread with sigwait.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  if (!LoadFunctionsOrReport(&a.options.functions)) return 1;
  ApplyCacheEnvironment(a.options.load);  // the trace cache and compact records, as for every command
  if (!ApplyMemoryLimitEnvironment(a.options.load)) return 1;
  std::string error;
  auto srv = server::Server::Create(a.options, &error);
  if (!srv) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return 1;
  }
  for (const auto& t : a.traces) {
    std::error_code ec;
    std::string abs = std::filesystem::absolute(t, ec).string();
    std::fprintf(stderr, "loading %s\n", t.c_str());
    if (!srv->Preload(abs, &error)) {
      std::fprintf(stderr, "error: %s: %s\n", t.c_str(), error.c_str());
      return 1;
    }
  }
  std::printf("Parallax is serving %s\nOpen %s\n(Ctrl-C stops it)\n", srv->root().c_str(), srv->Url().c_str());
  std::fflush(stdout);
  if (a.open && !OpenBrowser(srv->Url()))
    std::fprintf(stderr, "note: no browser was started (no display, or none found: set BROWSER); open the URL above\n");
  std::thread waiter([&srv, signals] {
    int sig = 0;
    sigwait(&signals, &sig);
    srv->Stop();
  });
  srv->Run();
  // Run() only returns after Stop(), which only the waiter calls: it has finished.
  waiter.join();
  return 0;
}

}  // namespace

Command AddServeCommand(CLI::App& app) {
  auto args = std::make_shared<ServeArgs>();
  CLI::App* sub = app.add_subcommand("serve", "serve the browser UI for the traces under a directory");
  sub->add_option("traces", args->traces, "traces to load before serving (must be under the root)");
  sub->add_option("--root", args->options.root, "directory whose traces and cfgs may be opened")
      ->default_val(".");
  sub->add_option("--port", args->options.port, "TCP port (default: any free port)")->default_val(0);
  sub->add_option("--host", args->options.host,
                  "address to listen on (default 127.0.0.1; reach it from elsewhere with an SSH tunnel)")
      ->default_val("127.0.0.1");
  sub->add_option("--request-time-limit", args->options.request_time_limit,
                  "seconds of computing one timeline, text or analyzer request may take before "
                  "it is answered 503 (0: no limit)")
      ->default_val(60)
      ->check(CLI::Range(0.0, 1e9));
  sub->add_option_function<uint64_t>(
         "--request-memory-limit",
         [args](uint64_t mib) { args->options.request_memory_limit = mib << 20; },
         "MiB one timeline, text or analyzer request may hold while it is computed before it is "
         "answered 503 (0: no limit)")
      ->default_str("2048")
      ->check(CLI::Range(uint64_t{0}, uint64_t{1} << 30));
  sub->add_flag("--open", args->open, "open the UI in this desktop's browser ($BROWSER, else xdg-open)");
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
