/* net.c — UDP sockets on 127.0.0.1 that drop a share of the datagrams they send, on purpose, to
 * stand in for a lossy network. Plain POSIX sockets: nothing here knows about netschema. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "arena.h"

bool net_open(net_socket *s, unsigned loss_percent, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->loss = loss_percent;
    s->rng.s = seed;
    s->fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (s->fd < 0) return false;
    s->addr.sin_family = AF_INET;
    s->addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    s->addr.sin_port = 0; /* any free port */
    socklen_t len = sizeof s->addr;
    if (bind(s->fd, (struct sockaddr *)&s->addr, sizeof s->addr) != 0 ||
        getsockname(s->fd, (struct sockaddr *)&s->addr, &len) != 0 ||
        fcntl(s->fd, F_SETFL, O_NONBLOCK) != 0) {
        net_close(s);
        return false;
    }
    return true;
}

void net_close(net_socket *s)
{
    if (s->fd >= 0) close(s->fd);
    s->fd = -1;
}

void net_send(net_socket *s, const struct sockaddr_in *to, const void *data, size_t len)
{
    s->stats.sent++;
    s->stats.bytes += len;
    if (len > s->stats.max_bytes) s->stats.max_bytes = len;
    if (rng_below(&s->rng, 100) < s->loss) {
        s->stats.dropped++;
        return;
    }
    if (sendto(s->fd, data, len, 0, (const struct sockaddr *)to, sizeof *to) != (ssize_t)len) s->stats.errors++;
}

long net_recv(net_socket *s, void *buf, size_t cap, struct sockaddr_in *from, int wait_ms)
{
    if (wait_ms > 0) {
        struct pollfd p = {s->fd, POLLIN, 0};
        if (poll(&p, 1, wait_ms) <= 0) return -1;
    }
    socklen_t len = sizeof *from;
    ssize_t got = recvfrom(s->fd, buf, cap, 0, (struct sockaddr *)from, &len);
    if (got < 0) return -1;
    s->stats.received++;
    return (long)got;
}
