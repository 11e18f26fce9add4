#define _GNU_SOURCE
#include <stddef.h>
#include "CSystem.h"

#include <pthread.h>

int csystem_set_thread_name(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}

int csystem_accept_nonblocking(int fd) {
    return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
