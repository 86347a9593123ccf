// posix_spawn for helper programs; see tproc.h.
#define _GNU_SOURCE
#include "tproc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>

int tproc_spawn(const char *path, char *const argv[], char *const envp[], int stdout_fd, int stderr_fd, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) return status;
    status = posix_spawnattr_init(&attributes);
    if (status != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return status;
    }
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    // The server blocks SIGINT and SIGTERM in every thread and ignores SIGPIPE: the child gets neither.
    if ((status = posix_spawnattr_setsigmask(&attributes, &none)) == 0 &&
        (status = posix_spawnattr_setsigdefault(&attributes, &all)) == 0 &&
        (status = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)) == 0 &&
        (status = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)) == 0 &&
        (status = posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1)) == 0 &&
        (status = posix_spawn_file_actions_adddup2(&actions, stderr_fd, 2)) == 0 &&
        (status = posix_spawn_file_actions_addclosefrom_np(&actions, 3)) == 0) {
        status = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    }
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return status;
}
