// System calls that Swift's Glibc module does not expose on Linux. Kept to plain declarations
// and tiny inline wrappers, in the manner of SwiftNIO's CNIOLinux. Elsewhere (Darwin) only the
// thread-naming call exists; the epoll backend that needs the rest is compiled on Linux only.
#ifndef CSYSTEM_H
#define CSYSTEM_H

/// Names the calling thread (at most 15 bytes), as `top -H` and /proc/PID/task/*/comm show it.
int csystem_set_thread_name(const char *name);

/// Lowers the calling thread's scheduling priority (Linux: its nice value, which applies to
/// one thread; Darwin: the utility QoS class), so render threads yield the CPU to event loops.
/// Returns 0 on success.
int csystem_lower_thread_priority(int nice_increment);

/// The CPUs this process may run on, from sched_getaffinity(2); 0 where it cannot be read.
int csystem_affinity_cpu_count(void);

/// Hands free heap memory back to the system (glibc's malloc_trim); a no-op elsewhere.
void csystem_release_free_memory(void);

/// Sets glibc's malloc tunables: blocks of at least `mmap_threshold` bytes are mapped on their
/// own and unmapped when freed, and at most `arena_max` arenas exist. A no-op elsewhere.
void csystem_configure_allocator(int mmap_threshold, int arena_max);

/// Asks the CPU to start loading the cache line at `address`, for a read a little later: a
/// hint, which never faults. (Swift has no prefetch of its own.)
static inline void csystem_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>

/// sendmsg(2) of `count` buffers with MSG_NOSIGNAL: the head and shared body of responses in one call.
long csystem_send_buffers(int fd, const struct iovec *buffers, int count);

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC, so accepted sockets never block; the peer's
/// address is written to `peer`.
int csystem_accept_nonblocking(int fd, struct sockaddr_storage *peer);

/// The epoll_event's user data as the file descriptor it was registered with.
static inline int csystem_epoll_event_fd(const struct epoll_event *event) { return event->data.fd; }

/// Builds an epoll_event for `fd` (the packed struct is awkward to fill from Swift).
static inline struct epoll_event csystem_epoll_event_make(unsigned int events, int fd) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = 0;
    event.data.fd = fd;
    return event;
}
#endif

#endif
