/* SHA-256 (FIPS 180-4) of ps_sha256.h, in plain C. */
#include "ps_sha256.h"

#include <string.h>

/* The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
static const uint32_t ps_sha256_k[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u,
    0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u,
    0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu,
    0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u,
    0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u,
    0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u,
    0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u,
    0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u,
    0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

static uint32_t ps_rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

/* Mixes one 64-byte block into the state. */
static void ps_sha256_block(uint32_t state[8], const unsigned char *block) {
  uint32_t w[64];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
           (uint32_t)block[4 * i + 2] << 8 | (uint32_t)block[4 * i + 3];
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = ps_rotr(w[i - 15], 7) ^ ps_rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = ps_rotr(w[i - 2], 17) ^ ps_rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (int i = 0; i < 64; i++) {
    uint32_t t1 = h + (ps_rotr(e, 6) ^ ps_rotr(e, 11) ^ ps_rotr(e, 25)) + ((e & f) ^ (~e & g)) +
                  ps_sha256_k[i] + w[i];
    uint32_t t2 = (ps_rotr(a, 2) ^ ps_rotr(a, 13) ^ ps_rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

void ps_sha256_start(ps_sha256 *context) {
  /* the first 32 bits of the fractional parts of the square roots of the first 8 primes */
  static const uint32_t initial[8] = {
      0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
      0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u,
  };
  memcpy(context->state, initial, sizeof initial);
  context->length = 0;
  context->used = 0;
}

void ps_sha256_add(ps_sha256 *context, const unsigned char *data, size_t length) {
  context->length += length;
  while (length > 0) {
    if (context->used == 0 && length >= 64) {
      ps_sha256_block(context->state, data);
      data += 64;
      length -= 64;
      continue;
    }
    size_t take = 64 - context->used;
    if (take > length) take = length;
    memcpy(context->buffer + context->used, data, take);
    context->used += take;
    data += take;
    length -= take;
    if (context->used == 64) {
      ps_sha256_block(context->state, context->buffer);
      context->used = 0;
    }
  }
}

void ps_sha256_finish(ps_sha256 *context, unsigned char *digest) {
  uint64_t bits = context->length * 8;
  unsigned char pad[72] = {0x80};
  size_t pad_length = (context->used < 56 ? 56 : 120) - context->used;
  for (int i = 0; i < 8; i++) pad[pad_length + i] = (unsigned char)(bits >> (56 - 8 * i));
  uint64_t length = context->length;
  ps_sha256_add(context, pad, pad_length + 8);
  context->length = length;
  for (int i = 0; i < 8; i++) {
    digest[4 * i] = (unsigned char)(context->state[i] >> 24);
    digest[4 * i + 1] = (unsigned char)(context->state[i] >> 16);
    digest[4 * i + 2] = (unsigned char)(context->state[i] >> 8);
    digest[4 * i + 3] = (unsigned char)context->state[i];
  }
}
