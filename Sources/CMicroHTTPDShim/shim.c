#define _GNU_SOURCE
#include "CMicroHTTPDShim.h"
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>

struct MHD_Daemon *koten_mhd_start(const char *host, uint16_t port, unsigned int threads,
                                   unsigned int connection_limit, unsigned int per_ip_limit,
                                   unsigned int timeout_seconds, size_t connection_memory,
                                   MHD_AccessHandlerCallback handler, void *handler_context,
                                   MHD_RequestCompletedCallback completed, void *completed_context,
                                   koten_mhd_uri_logger uri_logger, void *uri_logger_context) {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    const struct sockaddr *address;
    unsigned int flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
    if (inet_pton(AF_INET, host, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        address = (const struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, host, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        address = (const struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        errno = EINVAL;
        return NULL;
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_logger, uri_logger_context,
                            MHD_OPTION_END);
}

uint16_t koten_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

int koten_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

void koten_mhd_client_address(struct MHD_Connection *connection, char *out, size_t size) {
    out[0] = '\0';
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *sa = info->client_addr;
    if (sa->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out, (socklen_t)size);
    } else if (sa->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, out, (socklen_t)size);
    }
}

int koten_mhd_peer_closed(int fd) {
    if (fd < 0) return 1;
    struct pollfd p = { .fd = fd, .events = POLLIN | POLLRDHUP, .revents = 0 };
    int n = poll(&p, 1, 0);
    if (n <= 0) return 0;
    if (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) return 1;
    char byte;
    ssize_t got = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return got == 0 ? 1 : 0;
}
