#pragma once
// How `parallax serve` handles connections: cpp-httplib's request parsing and routing, with our
// own worker pool and socket stream, so that idle, slow or oversized clients cannot hold the
// server. A fixed number of workers serve connections from a bounded queue; a connection that
// finds the queue full is answered 429 at once. Each request has a deadline for its request line
// and headers (short: the token has not been checked yet), a longer one for its body (granted
// once the token is checked) and one for writing its response; a connection serves a bounded
// number of requests and is closed when idle. Bytes read per request are capped, whatever the
// framing (Content-Length, chunked or none).

#include <httplib.h>

#include <cstddef>

namespace parallax::server {

struct ConnectionLimits {
  size_t workers = 16;           // connections served at once
  size_t queue = 64;             // connections waiting for a worker; 429 beyond
  int idle_timeout_ms = 5000;    // waiting for a connection's next request
  int header_timeout_ms = 5000;  // request line and headers, from their first byte
  int body_timeout_ms = 60000;   // the body, once the token is checked
  int write_timeout_ms = 60000;  // writing one response
  size_t max_requests_per_connection = 100;
  size_t max_request_bytes = (1 << 20) + (64 << 10);  // headers + body of one request, as read
};

// httplib::Server with the limits above. Connection state the routes act on (see
// GrantBodyTime, CloseAfterResponse) belongs to the worker thread serving the request.
class GuardedHttpServer final : public httplib::Server {
 public:
  explicit GuardedHttpServer(const ConnectionLimits& limits);

  // The request being served on this thread may take body_timeout_ms to send its body (called
  // once its token is checked).
  static void GrantBodyTime();
  // The connection serving this thread's request is closed after the response (its body was
  // refused unread, so the stream cannot be trusted for another request).
  static void CloseAfterResponse();

 private:
  bool process_and_close_socket(socket_t sock) override;

  ConnectionLimits limits_;
};

}  // namespace parallax::server
