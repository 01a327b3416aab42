#include "apps/server/connection.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace parallax::server {

namespace {

using Clock = std::chrono::steady_clock;

class DeadlineStream;

// Set while a worker serves a request (GrantBodyTime, CloseAfterResponse), and while the
// accepting thread refuses a connection because the queue is full.
thread_local DeadlineStream* t_current = nullptr;
thread_local bool t_refuse = false;

// Waits until `fd` is ready for `events` or `deadline` passes; wakes up every 100 ms to notice a
// stopped server. Returns true when ready.
bool WaitFor(int fd, short events, Clock::time_point deadline,
             const std::atomic<socket_t>& listening) {
  for (;;) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0 || listening == INVALID_SOCKET) return false;
    pollfd p{fd, events, 0};
    int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 100)));
    if (r > 0) return true;
    if (r < 0 && errno != EINTR) return false;
  }
}

// A socket stream whose reads and writes end at deadlines rather than after a timeout per call
// (so a client sending one byte at a time cannot keep a worker), and whose reads stop after
// max_request_bytes per request.
class DeadlineStream final : public httplib::Stream {
 public:
  DeadlineStream(socket_t sock, const ConnectionLimits& limits,
                 const std::atomic<socket_t>& listening)
      : sock_(sock), limits_(limits), listening_(listening) {}

  // Waits for the first byte of the next request (idle_timeout_ms); false when none comes.
  bool WaitForRequest() {
    if (begin_ < end_) return true;
    return WaitFor(sock_, POLLIN, Clock::now() + std::chrono::milliseconds(limits_.idle_timeout_ms),
                   listening_);
  }

  void BeginRequest() {
    read_deadline_ = Clock::now() + std::chrono::milliseconds(limits_.header_timeout_ms);
    write_deadline_ = Clock::time_point::max();
    request_bytes_ = 0;
    writing_ = false;
  }
  void GrantBodyTime() {
    read_deadline_ = Clock::now() + std::chrono::milliseconds(limits_.body_timeout_ms);
  }
  void CloseAfterResponse() { close_ = true; }
  bool close_requested() const { return close_; }

  // Reads and discards what the client still sends (at most `max_bytes`, for at most `ms`), after
  // the answer to a request whose body was not read: closing with unread data would reset the
  // connection, and the client could lose the answer.
  void Drain(size_t max_bytes, int ms) {
    ::shutdown(sock_, SHUT_WR);
    auto deadline = Clock::now() + std::chrono::milliseconds(ms);
    size_t drained = 0;
    while (drained < max_bytes && WaitFor(sock_, POLLIN, deadline, listening_)) {
      ssize_t n = ::recv(sock_, buffer_, sizeof buffer_, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      drained += static_cast<size_t>(n);
    }
  }

  bool is_readable() const override {
    return begin_ < end_ || WaitFor(sock_, POLLIN, read_deadline_, listening_);
  }
  bool is_writable() const override { return WaitFor(sock_, POLLOUT, WriteDeadline(), listening_); }

  ssize_t read(char* ptr, size_t size) override {
    if (request_bytes_ >= limits_.max_request_bytes) {
      close_ = true;
      return -1;
    }
    size = std::min(size, limits_.max_request_bytes - request_bytes_);
    if (begin_ == end_) {
      if (!WaitFor(sock_, POLLIN, read_deadline_, listening_)) return -1;
      ssize_t n;
      do n = ::recv(sock_, buffer_, sizeof buffer_, 0);
      while (n < 0 && errno == EINTR);
      if (n <= 0) return n;
      begin_ = 0;
      end_ = static_cast<size_t>(n);
    }
    size_t n = std::min(size, end_ - begin_);
    std::memcpy(ptr, buffer_ + begin_, n);
    begin_ += n;
    request_bytes_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (!WaitFor(sock_, POLLOUT, WriteDeadline(), listening_)) return -1;
    ssize_t n;
    do n = ::send(sock_, ptr, size, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    return n;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    if (::getpeername(sock_, reinterpret_cast<sockaddr*>(&a), &len) == 0) Name(a, len, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    if (::getsockname(sock_, reinterpret_cast<sockaddr*>(&a), &len) == 0) Name(a, len, ip, port);
  }
  socket_t socket() const override { return sock_; }

 private:
  // The response's deadline starts with its first write.
  Clock::time_point WriteDeadline() const {
    if (!writing_) {
      writing_ = true;
      write_deadline_ = Clock::now() + std::chrono::milliseconds(limits_.write_timeout_ms);
    }
    return write_deadline_;
  }

  static void Name(const sockaddr_storage& a, socklen_t len, std::string& ip, int& port) {
    char host[NI_MAXHOST] = {}, serv[NI_MAXSERV] = {};
    if (::getnameinfo(reinterpret_cast<const sockaddr*>(&a), len, host, sizeof host, serv,
                      sizeof serv, NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
      ip = host;
      port = std::atoi(serv);
    }
  }

  socket_t sock_;
  const ConnectionLimits& limits_;
  const std::atomic<socket_t>& listening_;
  char buffer_[4096];
  size_t begin_ = 0, end_ = 0;
  size_t request_bytes_ = 0;
  Clock::time_point read_deadline_ = Clock::time_point::max();
  mutable Clock::time_point write_deadline_ = Clock::time_point::max();
  mutable bool writing_ = false;
  bool close_ = false;
};

// A fixed set of workers over a bounded queue of connections. When every worker is busy and the
// queue is full, the connection is refused on the accepting thread: its task runs there with
// t_refuse set, which answers 429 without reading anything.
class BoundedPool final : public httplib::TaskQueue {
 public:
  BoundedPool(size_t workers, size_t capacity) : capacity_(capacity) {
    for (size_t i = 0; i < workers; ++i) threads_.emplace_back([this] { Work(); });
  }

  void enqueue(std::function<void()> fn) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (jobs_.size() < capacity_) {
        jobs_.push_back(std::move(fn));
        cond_.notify_one();
        return;
      }
    }
    t_refuse = true;
    fn();
    t_refuse = false;
  }

  void shutdown() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    cond_.notify_all();
    for (auto& t : threads_) t.join();
  }

 private:
  void Work() {
    for (;;) {
      std::function<void()> fn;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        cond_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return;  // stopping, nothing left
        fn = std::move(jobs_.front());
        jobs_.pop_front();
      }
      fn();  // process_and_close_socket: catches everything
    }
  }

  size_t capacity_;
  std::mutex mutex_;
  std::condition_variable cond_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

void Refuse(socket_t sock) {
  static const std::string kBusy = [] {
    std::string body =
        "{\"error\":\"the server is busy: too many connections\",\"status\":429,\"hint\":\"retry "
        "in a moment\"}";
    return "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\nRetry-After: 1\r\nConnection: close\r\n\r\n" + body;
  }();
  (void)::send(sock, kBusy.data(), kBusy.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  ::shutdown(sock, SHUT_WR);
  // Whatever the client already sent is discarded without waiting, so that closing does not
  // reset the connection before the answer is read.
  char sink[4096];
  while (::recv(sock, sink, sizeof sink, MSG_DONTWAIT) > 0) {
  }
  ::close(sock);
}

}  // namespace

GuardedHttpServer::GuardedHttpServer(const ConnectionLimits& limits) : limits_(limits) {
  new_task_queue = [this] { return new BoundedPool(limits_.workers, limits_.queue); };
}

void GuardedHttpServer::GrantBodyTime() {
  if (t_current != nullptr) t_current->GrantBodyTime();
}

void GuardedHttpServer::CloseAfterResponse() {
  if (t_current != nullptr) t_current->CloseAfterResponse();
}

bool GuardedHttpServer::process_and_close_socket(socket_t sock) {
  if (t_refuse) {
    Refuse(sock);
    return false;
  }
  bool ok = false;
  {
    DeadlineStream stream(sock, limits_, svr_sock_);
    for (size_t n = 0; n < limits_.max_requests_per_connection; ++n) {
      if (!stream.WaitForRequest()) break;
      stream.BeginRequest();
      t_current = &stream;
      bool closed = false;
      try {
        ok = process_request(stream, n + 1 == limits_.max_requests_per_connection, closed, nullptr);
      } catch (...) {  // the routes catch everything; this keeps a worker alive if httplib throws
        ok = false;
      }
      t_current = nullptr;
      if (!ok || closed || stream.close_requested()) break;
    }
    if (stream.close_requested()) stream.Drain(2 * limits_.max_request_bytes, 2000);
  }
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return ok;
}

}  // namespace parallax::server
