/* SHA-256 (FIPS 180-4) in plain C (ps_sha256.c): the digest every script's identity takes,
 * without loading libcrypto. */
#ifndef PS_SHA256_H
#define PS_SHA256_H
#include <stddef.h>
#include <stdint.h>

/* A digest being taken. */
typedef struct ps_sha256 {
  uint32_t state[8];
  uint64_t length;           /* bytes added so far */
  unsigned char buffer[64];  /* the block being filled */
  size_t used;
} ps_sha256;

/* Starts a digest. */
void ps_sha256_start(ps_sha256 *context);
/* Adds `length` bytes. */
void ps_sha256_add(ps_sha256 *context, const unsigned char *data, size_t length);
/* Writes the 32-byte digest of what was added. */
void ps_sha256_finish(ps_sha256 *context, unsigned char *digest);

#endif
