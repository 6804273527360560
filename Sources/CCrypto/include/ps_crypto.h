/* The few cryptographic operations PushScript needs (ps_crypto.c): SHA-256 and HMAC-SHA-256 in
 * plain C, the AEAD ciphers and Ed25519 through OpenSSL's libcrypto opened at run time, so that
 * a process that never decrypts, signs or verifies never loads it. Names no OpenSSL type, so
 * nothing can call libcrypto past these. Linux only. */
#ifndef PS_CRYPTO_H
#define PS_CRYPTO_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How an operation went. */
enum {
  PS_CRYPTO_OK = 0,
  PS_CRYPTO_FAILED = 1,           /* the library refused or could not be loaded */
  PS_CRYPTO_UNAUTHENTICATED = 2,  /* an AEAD tag or a signature did not match */
};

/* The AEAD ciphers. */
enum {
  PS_CRYPTO_AES128_GCM = 0,
  PS_CRYPTO_AES256_GCM = 1,
  PS_CRYPTO_CHACHA20_POLY1305 = 2,
};

/* Why libcrypto could not be loaded, as one line that says what to install; NULL when it is
 * loaded (it is opened by the first call that needs it). */
const char *ps_crypto_load_error(void);

/* SHA-256 of `length` bytes into `digest` (32 bytes). */
int ps_crypto_sha256(const unsigned char *data, size_t length, unsigned char *digest);
/* HMAC-SHA-256 of `length` bytes under `key` into `mac` (32 bytes). */
int ps_crypto_hmac_sha256(const unsigned char *key, size_t key_length, const unsigned char *data,
                          size_t length, unsigned char *mac);

/* Decrypts `ciphertext` with its 16-byte `tag` into `plaintext` (room for `ciphertext_length`
 * bytes), whose length goes to `plaintext_length`; PS_CRYPTO_UNAUTHENTICATED when the tag does
 * not match (`plaintext` is then zeroed). */
int ps_crypto_aead_open(int cipher, const unsigned char *key, size_t key_length,
                        const unsigned char *nonce, size_t nonce_length, const unsigned char *aad,
                        size_t aad_length, const unsigned char *ciphertext, size_t ciphertext_length,
                        const unsigned char *tag, size_t tag_length, unsigned char *plaintext,
                        size_t *plaintext_length);
/* Encrypts `plaintext` into `ciphertext` (room for `plaintext_length` bytes) and its `tag`
 * (16 bytes); the ciphertext's length goes to `ciphertext_length`. */
int ps_crypto_aead_seal(int cipher, const unsigned char *key, size_t key_length,
                        const unsigned char *nonce, size_t nonce_length, const unsigned char *aad,
                        size_t aad_length, const unsigned char *plaintext, size_t plaintext_length,
                        unsigned char *ciphertext, size_t *ciphertext_length, unsigned char *tag);

/* The Ed25519 public key (32 bytes) of a private key's 32-byte seed. */
int ps_crypto_ed25519_public_key(const unsigned char *seed, unsigned char *public_key);
/* The Ed25519 signature (64 bytes) of `length` bytes under a private key's seed. */
int ps_crypto_ed25519_sign(const unsigned char *seed, const unsigned char *message, size_t length,
                           unsigned char *signature);
/* Whether `signature` (64 bytes) is `public_key`'s (32 bytes) of the message: PS_CRYPTO_OK
 * when it is, PS_CRYPTO_UNAUTHENTICATED when not, PS_CRYPTO_FAILED when it could not be told. */
int ps_crypto_ed25519_verify(const unsigned char *public_key, const unsigned char *message,
                             size_t length, const unsigned char *signature);

#ifdef __cplusplus
}
#endif
#endif
