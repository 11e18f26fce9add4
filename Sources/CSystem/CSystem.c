#define _GNU_SOURCE
#include <stddef.h>
#include <pthread.h>
#include "CSystem.h"

int csystem_set_thread_name(const char *name) {
#ifdef __APPLE__
    return pthread_setname_np(name);  // Darwin names only the calling thread
#else
    return pthread_setname_np(pthread_self(), name);
#endif
}

#ifdef __linux__
int csystem_accept_nonblocking(int fd) {
    return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
#endif
