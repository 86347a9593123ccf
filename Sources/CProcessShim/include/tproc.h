// CProcessShim: starts a helper program (the font sanitizer) with posix_spawn, with what Swift's Glibc module
// does not import.
//
// Why it exists: a child must not inherit the server's descriptors (sockets, font files), signal mask or
// ignored signals, and closing every descriptor past stderr takes glibc's posix_spawn_file_actions_addclosefrom_np,
// a GNU extension Swift cannot see. Every public symbol is prefixed `tproc_`.
#ifndef TPROC_H
#define TPROC_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Starts `path` (an absolute path: no PATH search, no shell) with `argv` and `envp` (NULL-terminated): its
/// stdin reads /dev/null, its stdout and stderr are the descriptors given, every other descriptor is closed,
/// its signal mask is empty and every signal has its default action. Stores the child's id in `pid`. Returns
/// 0, or the error number posix_spawn gave.
int tproc_spawn(const char *path, char *const argv[], char *const envp[], int stdout_fd, int stderr_fd, pid_t *pid);

#ifdef __cplusplus
}
#endif

#endif
