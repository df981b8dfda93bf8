#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <string.h>
#include <stdarg.h>
#include <stdint.h>
#include <microhttpd.h>

/* MHD_start_daemon is variadic, which Swift cannot call: this fixed-argument form starts a
   daemon with an epoll thread pool on the IPv4 address given (network byte order), a
   per-connection timeout, a connection limit and a completion callback. */
static inline struct MHD_Daemon *
responder_start_daemon(uint32_t address, uint16_t port, unsigned int threads, unsigned int timeout_s,
                       unsigned int connection_limit, MHD_AccessHandlerCallback handler, void *handler_cls,
                       MHD_RequestCompletedCallback completed, void *completed_cls)
{
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = address;
    return MHD_start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_TURBO,
                            port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_s,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_END);
}

/* The port the daemon listens on (useful after asking for port 0). */
static inline uint16_t responder_daemon_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}
