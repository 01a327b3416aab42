#pragma once
// A plain TCP client for the server tests that send what no HTTP library would: partial
// headers, endless bodies, foreign Host headers. Blocking, with a generous bound on every wait.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <utility>

namespace parallax::server {
namespace {

struct RawResponse {
  int status = 0;  // 0: no response (the connection closed or timed out first)
  std::string head, body;
};

class RawClient {
 public:
  explicit RawClient(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) Close();
  }
  RawClient(RawClient&& o) noexcept : fd_(std::exchange(o.fd_, -1)), in_(std::move(o.in_)) {}
  RawClient& operator=(RawClient&& o) noexcept {
    Close();
    fd_ = std::exchange(o.fd_, -1);
    in_ = std::move(o.in_);
    return *this;
  }
  ~RawClient() { Close(); }

  // False once the server has closed (or reset) the connection.
  bool Send(const std::string& bytes) {
    size_t sent = 0;
    while (fd_ >= 0 && sent < bytes.size()) {
      pollfd p{fd_, POLLOUT, 0};
      if (::poll(&p, 1, 30000) <= 0) return false;
      ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return false;
      sent += static_cast<size_t>(n);
    }
    return fd_ >= 0;
  }

  void ShutdownWrite() {
    if (fd_ >= 0) ::shutdown(fd_, SHUT_WR);
  }

  // Reads one response (waiting at most 60 s); status 0 when the connection ends first.
  RawResponse Receive() {
    RawResponse r;
    for (int i = 0; i < 600 && !Parse(&r); ++i)
      if (!ReadSome(100)) break;
    Parse(&r);
    return r;
  }

  // Without waiting: true when a response arrived or the connection ended (r->status 0).
  bool Poll(RawResponse* r) {
    bool open = ReadSome(0);
    if (Parse(r)) return true;
    return !open;
  }

 private:
  // Reads what arrives within `ms`; false when the connection has ended.
  bool ReadSome(int ms) {
    if (fd_ < 0) return false;
    pollfd p{fd_, POLLIN, 0};
    int ready = ::poll(&p, 1, ms);
    if (ready <= 0) return ready == 0;
    char buf[65536];
    ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n <= 0) {
      Close();
      return false;
    }
    in_.append(buf, static_cast<size_t>(n));
    return true;
  }

  // A complete response in in_ (by Content-Length, or up to the end of the connection).
  bool Parse(RawResponse* r) const {
    size_t end = in_.find("\r\n\r\n");
    if (end == std::string::npos || in_.compare(0, 9, "HTTP/1.1 ") != 0) return false;
    std::string head = in_.substr(0, end + 2);
    size_t length = std::string::npos;
    size_t at = head.find("Content-Length: ");
    if (at != std::string::npos) length = std::strtoul(head.c_str() + at + 16, nullptr, 10);
    size_t have = in_.size() - end - 4;
    if (length == std::string::npos ? fd_ >= 0 : have < length) return false;
    r->status = std::atoi(in_.c_str() + 9);
    r->head = head;
    r->body = in_.substr(end + 4, length);
    return true;
  }

  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  int fd_ = -1;
  std::string in_;
};

}  // namespace
}  // namespace parallax::server
