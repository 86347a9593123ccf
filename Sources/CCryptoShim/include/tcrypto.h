// CCryptoShim: SHA-256 from Debian's OpenSSL libcrypto (libssl-dev), for the fonts' content ids and the
// fixed answers' entity tags.
//
// Why it exists: hashing is on the request path (every uploaded font is hashed as sent), so it comes
// from a maintained, optimised library rather than hand-written Swift; OpenSSL's headers stay out of
// Swift's sight. Every public symbol is prefixed `tcrypto_`.
#ifndef TCRYPTO_H
#define TCRYPTO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The length of a SHA-256 digest in bytes.
#define TCRYPTO_SHA256_LENGTH 32

/// SHA-256 (FIPS 180-4) of `length` bytes at `data` (NULL when `length` is 0) into `digest`, which has room for
/// TCRYPTO_SHA256_LENGTH bytes. Returns 0, or -1 when libcrypto could not (memory ran out).
int tcrypto_sha256(const void *data, size_t length, uint8_t *digest);

#ifdef __cplusplus
}
#endif

#endif
