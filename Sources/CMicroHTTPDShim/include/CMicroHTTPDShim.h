#ifndef KOTEN_MHD_SHIM_H
#define KOTEN_MHD_SHIM_H
// The variadic calls of libmicrohttpd (MHD_start_daemon's option list, MHD_get_connection_info,
// MHD_get_daemon_info), wrapped for Swift, which cannot call C variadics (as CVipsShim does for libvips).
#include "../../CMicroHTTPD/shim.h"

/// MHD_OPTION_URI_LOG_CALLBACK's function: called once per request with its request-target as the client sent it
/// (before MHD decodes it); what it returns is the request's `*con_cls`.
typedef void *(*koten_mhd_uri_logger)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Starts a daemon with its own polling thread (poll/epoll chosen by MHD), a thread pool of `threads`,
/// suspend/resume allowed, listening on `host` (IPv4 or IPv6 text address; an IPv6 socket takes IPv6 only) and
/// `port` (0: ephemeral). `handler`/`handler_context`: the access handler; `completed`/`completed_context`:
/// MHD_OPTION_NOTIFY_COMPLETED; `uri_logger`/`uri_logger_context`: MHD_OPTION_URI_LOG_CALLBACK.
/// Limits: total connections, connections per client address, idle timeout in seconds, per-connection memory.
/// Returns NULL when the address does not parse or MHD cannot start (errno tells why).
struct MHD_Daemon *koten_mhd_start(const char *host, uint16_t port, unsigned int threads,
                                   unsigned int connection_limit, unsigned int per_ip_limit,
                                   unsigned int timeout_seconds, size_t connection_memory,
                                   MHD_AccessHandlerCallback handler, void *handler_context,
                                   MHD_RequestCompletedCallback completed, void *completed_context,
                                   koten_mhd_uri_logger uri_logger, void *uri_logger_context);

/// The port the daemon listens on (the ephemeral one chosen for port 0), 0 when unknown.
uint16_t koten_mhd_bound_port(struct MHD_Daemon *daemon);

/// The connection's socket, -1 when unknown.
int koten_mhd_connection_fd(struct MHD_Connection *connection);

/// The client's address as text (IPv4 or IPv6), written into `out` (at least 64 bytes); "" when unknown.
void koten_mhd_client_address(struct MHD_Connection *connection, char *out, size_t size);

/// 1 when the peer of a suspended connection's socket has closed it (or it failed), 0 while it is open.
int koten_mhd_peer_closed(int fd);

#endif
