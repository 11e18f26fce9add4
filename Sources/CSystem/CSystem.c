#define _GNU_SOURCE
#include <stddef.h>
#include "CSystem.h"

int csystem_accept_nonblocking(int fd) {
    return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
