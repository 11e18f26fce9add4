#define _GNU_SOURCE
#include <stddef.h>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef __linux__
#include <malloc.h>
#include <sched.h>
#include <sys/syscall.h>
#endif
#ifdef __APPLE__
#include <pthread/qos.h>
#endif
#include "CSystem.h"

int csystem_set_thread_name(const char *name) {
#ifdef __APPLE__
    return pthread_setname_np(name);  // Darwin names only the calling thread
#else
    return pthread_setname_np(pthread_self(), name);
#endif
}

#ifdef __linux__
int csystem_accept_nonblocking(int fd, struct sockaddr_storage *peer) {
    socklen_t length = sizeof(*peer);
    return accept4(fd, (struct sockaddr *)peer, &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
#endif

int csystem_lower_thread_priority(int nice_increment) {
#ifdef __linux__
    // On Linux the nice value belongs to the thread named by the id, not the whole process.
    pid_t tid = (pid_t)syscall(SYS_gettid);
    int current = getpriority(PRIO_PROCESS, (id_t)tid);
    return setpriority(PRIO_PROCESS, (id_t)tid, current + nice_increment);
#elif defined(__APPLE__)
    (void)nice_increment;
    return pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0);
#else
    (void)nice_increment;
    return -1;
#endif
}

int csystem_affinity_cpu_count(void) {
#ifdef __linux__
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return 0;
    return CPU_COUNT(&set);
#else
    return 0;
#endif
}

void csystem_release_free_memory(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

void csystem_configure_allocator(int mmap_threshold, int arena_max) {
#ifdef __GLIBC__
    if (mmap_threshold > 0) mallopt(M_MMAP_THRESHOLD, mmap_threshold);
    if (arena_max > 0) mallopt(M_ARENA_MAX, arena_max);
#else
    (void)mmap_threshold;
    (void)arena_max;
#endif
}

#ifdef __linux__
long csystem_send_buffers(int fd, const struct iovec *buffers, int count) {
    struct msghdr message = {0};
    message.msg_iov = (struct iovec *)buffers;
    message.msg_iovlen = (size_t)count;
    return sendmsg(fd, &message, MSG_NOSIGNAL);
}
#endif
