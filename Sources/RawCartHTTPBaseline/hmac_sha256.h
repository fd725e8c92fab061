// HMAC-SHA256 with a prepared key, for the baseline's same-work mode.

#ifndef HMAC_SHA256_H
#define HMAC_SHA256_H

#include <stddef.h>
#include <stdint.h>

/// A key with its inner and outer padded blocks already hashed.
struct hmac_key {
    uint32_t inner[8], outer[8];
};

/// Prepares the key of `count` bytes at `bytes` (hashed first when longer than 64).
void hmac_key_init(struct hmac_key *key, const uint8_t *bytes, size_t count);

/// Writes the 32-byte HMAC of `count` bytes at `message` to `mac`.
void hmac_sign(const struct hmac_key *key, const uint8_t *message, size_t count, uint8_t mac[32]);

#endif
