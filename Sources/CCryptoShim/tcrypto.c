// The shim over libcrypto's SHA-256; see tcrypto.h.
#include "tcrypto.h"

#include <openssl/evp.h>

int tcrypto_sha256(const void *data, size_t length, uint8_t *digest) {
    static const uint8_t empty[1] = {0};
    unsigned int written = 0;
    // EVP_Digest: one context, SHA-256 fetched from the default provider (OpenSSL 3's one-shot path).
    if (EVP_Digest(length == 0 ? empty : data, length, digest, &written, EVP_sha256(), NULL) != 1) return -1;
    return written == TCRYPTO_SHA256_LENGTH ? 0 : -1;
}
