// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104) for the baseline's same-work mode, which
// checks minted cart IDs as `cart serve` does. A key's two padded blocks are hashed once, so a
// signature costs two compressions, as the project's `SHA256.HMACKey` does.

#include "hmac_sha256.h"

#include <string.h>

static const uint32_t k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t initial[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static uint32_t rotr(uint32_t x, int n) { return x >> n | x << (32 - n); }

static void compress(uint32_t state[8], const uint8_t block[64]) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 | (uint32_t)block[4 * i + 2] << 8 |
               block[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4], f = state[5], g = state[6],
             h = state[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state[0] += a, state[1] += b, state[2] += c, state[3] += d;
    state[4] += e, state[5] += f, state[6] += g, state[7] += h;
}

/// Hashes `count` bytes of `message` after `earlier` bytes (a multiple of 64) that `state`
/// has absorbed, pads, and writes the digest to `digest`.
static void finish(uint32_t state[8], const uint8_t *message, size_t count, size_t earlier, uint8_t digest[32]) {
    size_t whole = count - count % 64;
    for (size_t i = 0; i < whole; i += 64) compress(state, message + i);
    uint8_t last[128] = {0};
    size_t rest = count - whole, length = rest < 56 ? 64 : 128;
    memcpy(last, message + whole, rest);
    last[rest] = 0x80;
    uint64_t bits = (uint64_t)(earlier + count) * 8;
    for (int i = 0; i < 8; i++) last[length - 1 - i] = (uint8_t)(bits >> (8 * i));
    for (size_t i = 0; i < length; i += 64) compress(state, last + i);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(state[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(state[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(state[i] >> 8);
        digest[4 * i + 3] = (uint8_t)state[i];
    }
}

void hmac_key_init(struct hmac_key *key, const uint8_t *bytes, size_t count) {
    uint8_t block[64] = {0};
    if (count > 64) {
        uint32_t state[8];
        memcpy(state, initial, sizeof state);
        finish(state, bytes, count, 0, block);
    } else {
        memcpy(block, bytes, count);
    }
    uint8_t padded[64];
    memcpy(key->inner, initial, sizeof key->inner);
    for (int i = 0; i < 64; i++) padded[i] = block[i] ^ 0x36;
    compress(key->inner, padded);
    memcpy(key->outer, initial, sizeof key->outer);
    for (int i = 0; i < 64; i++) padded[i] = block[i] ^ 0x5c;
    compress(key->outer, padded);
}

void hmac_sign(const struct hmac_key *key, const uint8_t *message, size_t count, uint8_t mac[32]) {
    uint32_t state[8];
    uint8_t inner[32];
    memcpy(state, key->inner, sizeof state);
    finish(state, message, count, 64, inner);
    memcpy(state, key->outer, sizeof state);
    finish(state, inner, sizeof inner, 64, mac);
}
