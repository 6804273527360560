/* The operations of ps_crypto.h: SHA-256 and its HMAC here (ps_sha256.c), the AEAD ciphers and
 * Ed25519 over libcrypto.so.3, opened with dlopen on first use and never closed. OpenSSL's headers give the types only; nothing links libcrypto. Linux only:
 * elsewhere CryptoKit does this, and the file compiles to nothing. */
#ifdef __linux__
#include "ps_crypto.h"

#include <dlfcn.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ps_sha256.h"

/* The library's functions this file calls. */
typedef struct ps_crypto_api {
  __typeof__(&EVP_CIPHER_CTX_new) cipher_ctx_new;
  __typeof__(&EVP_CIPHER_CTX_free) cipher_ctx_free;
  __typeof__(&EVP_CIPHER_CTX_ctrl) cipher_ctx_ctrl;
  __typeof__(&EVP_CipherInit_ex) cipher_init;
  __typeof__(&EVP_CipherUpdate) cipher_update;
  __typeof__(&EVP_CipherFinal_ex) cipher_final;
  __typeof__(&EVP_aes_128_gcm) aes_128_gcm;
  __typeof__(&EVP_aes_256_gcm) aes_256_gcm;
  __typeof__(&EVP_chacha20_poly1305) chacha20_poly1305;
  __typeof__(&EVP_PKEY_new_raw_private_key) pkey_new_private;
  __typeof__(&EVP_PKEY_new_raw_public_key) pkey_new_public;
  __typeof__(&EVP_PKEY_get_raw_public_key) pkey_get_public;
  __typeof__(&EVP_PKEY_free) pkey_free;
  __typeof__(&EVP_MD_CTX_new) md_ctx_new;
  __typeof__(&EVP_MD_CTX_free) md_ctx_free;
  __typeof__(&EVP_DigestSignInit) digest_sign_init;
  __typeof__(&EVP_DigestSign) digest_sign;
  __typeof__(&EVP_DigestVerifyInit) digest_verify_init;
  __typeof__(&EVP_DigestVerify) digest_verify;
} ps_crypto_api;

static pthread_once_t ps_crypto_once = PTHREAD_ONCE_INIT;
static ps_crypto_api ps_crypto;
static int ps_crypto_loaded;
static char ps_crypto_error[256];

static void ps_crypto_open(void) {
  const char *name = "libcrypto.so.3";
  void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    snprintf(ps_crypto_error, sizeof ps_crypto_error,
             "%s could not be loaded (%s): install libssl3 (scripts/setup)", name, why ? why : "no reason given");
    return;
  }
  const char *missing = NULL;
#define PS_CRYPTO_RESOLVE(field, symbol) \
  if (!missing && !(ps_crypto.field = (__typeof__(ps_crypto.field))dlsym(handle, #symbol))) missing = #symbol;
  PS_CRYPTO_RESOLVE(cipher_ctx_new, EVP_CIPHER_CTX_new)
  PS_CRYPTO_RESOLVE(cipher_ctx_free, EVP_CIPHER_CTX_free)
  PS_CRYPTO_RESOLVE(cipher_ctx_ctrl, EVP_CIPHER_CTX_ctrl)
  PS_CRYPTO_RESOLVE(cipher_init, EVP_CipherInit_ex)
  PS_CRYPTO_RESOLVE(cipher_update, EVP_CipherUpdate)
  PS_CRYPTO_RESOLVE(cipher_final, EVP_CipherFinal_ex)
  PS_CRYPTO_RESOLVE(aes_128_gcm, EVP_aes_128_gcm)
  PS_CRYPTO_RESOLVE(aes_256_gcm, EVP_aes_256_gcm)
  PS_CRYPTO_RESOLVE(chacha20_poly1305, EVP_chacha20_poly1305)
  PS_CRYPTO_RESOLVE(pkey_new_private, EVP_PKEY_new_raw_private_key)
  PS_CRYPTO_RESOLVE(pkey_new_public, EVP_PKEY_new_raw_public_key)
  PS_CRYPTO_RESOLVE(pkey_get_public, EVP_PKEY_get_raw_public_key)
  PS_CRYPTO_RESOLVE(pkey_free, EVP_PKEY_free)
  PS_CRYPTO_RESOLVE(md_ctx_new, EVP_MD_CTX_new)
  PS_CRYPTO_RESOLVE(md_ctx_free, EVP_MD_CTX_free)
  PS_CRYPTO_RESOLVE(digest_sign_init, EVP_DigestSignInit)
  PS_CRYPTO_RESOLVE(digest_sign, EVP_DigestSign)
  PS_CRYPTO_RESOLVE(digest_verify_init, EVP_DigestVerifyInit)
  PS_CRYPTO_RESOLVE(digest_verify, EVP_DigestVerify)
#undef PS_CRYPTO_RESOLVE
  if (missing) {
    snprintf(ps_crypto_error, sizeof ps_crypto_error,
             "%s has no %s: install libssl3 (OpenSSL 3, scripts/setup)", name, missing);
    return;
  }
  ps_crypto_loaded = 1;
}

/* Whether the library is there, opened on the first call. */
static int ps_crypto_ready(void) {
  pthread_once(&ps_crypto_once, ps_crypto_open);
  return ps_crypto_loaded;
}

const char *ps_crypto_load_error(void) { return ps_crypto_ready() ? NULL : ps_crypto_error; }

/* A pointer that is never NULL, for no bytes too (some OpenSSL releases refuse NULL). */
static const unsigned char *ps_crypto_bytes(const unsigned char *bytes) {
  static const unsigned char none[1] = {0};
  return bytes ? bytes : none;
}

/* SHA-256 and its HMAC are ps_sha256.c's: every script's identity takes a digest, and it
 * need not load libcrypto for that. */
int ps_crypto_sha256(const unsigned char *data, size_t length, unsigned char *digest) {
  ps_sha256 context;
  ps_sha256_start(&context);
  ps_sha256_add(&context, data, length);
  ps_sha256_finish(&context, digest);
  return PS_CRYPTO_OK;
}

int ps_crypto_hmac_sha256(const unsigned char *key, size_t key_length, const unsigned char *data,
                          size_t length, unsigned char *mac) {
  /* RFC 2104: the key padded to a block (digested first when longer), xored with 0x36 for the
   * inner digest and 0x5c for the outer one */
  unsigned char block[64] = {0}, inner[32];
  if (key_length > sizeof block) ps_crypto_sha256(key, key_length, block);
  else if (key_length > 0) memcpy(block, key, key_length);
  ps_sha256 context;
  for (size_t i = 0; i < sizeof block; i++) block[i] ^= 0x36;
  ps_sha256_start(&context);
  ps_sha256_add(&context, block, sizeof block);
  ps_sha256_add(&context, data, length);
  ps_sha256_finish(&context, inner);
  for (size_t i = 0; i < sizeof block; i++) block[i] ^= 0x36 ^ 0x5c;
  ps_sha256_start(&context);
  ps_sha256_add(&context, block, sizeof block);
  ps_sha256_add(&context, inner, sizeof inner);
  ps_sha256_finish(&context, mac);
  memset(block, 0, sizeof block);
  return PS_CRYPTO_OK;
}

static const EVP_CIPHER *ps_crypto_cipher(int cipher) {
  switch (cipher) {
    case PS_CRYPTO_AES128_GCM: return ps_crypto.aes_128_gcm();
    case PS_CRYPTO_AES256_GCM: return ps_crypto.aes_256_gcm();
    case PS_CRYPTO_CHACHA20_POLY1305: return ps_crypto.chacha20_poly1305();
    default: return NULL;
  }
}

/* Feeds `length` bytes (none: nothing), as associated data when `out` is NULL; adds what was
 * written to `*written`. */
static int ps_crypto_update(EVP_CIPHER_CTX *context, unsigned char *out, const unsigned char *in,
                            size_t length, size_t *written) {
  if (length == 0) return 1;
  if (length > 0x7fffffff) return 0;
  int n = 0;
  if (ps_crypto.cipher_update(context, out, &n, in, (int)length) != 1) return 0;
  if (written) *written += (size_t)n;
  return 1;
}

/* Encrypts (`encrypt` 1) or decrypts `length` bytes of `in` into `out`, the tag read from or
 * written to `tag`. */
static int ps_crypto_aead(int encrypt, int cipher, const unsigned char *key, size_t key_length,
                          const unsigned char *nonce, size_t nonce_length, const unsigned char *aad,
                          size_t aad_length, const unsigned char *in, size_t length, unsigned char *out,
                          size_t *out_length, unsigned char *tag, size_t tag_length) {
  if (!ps_crypto_ready()) return PS_CRYPTO_FAILED;
  const EVP_CIPHER *algorithm = ps_crypto_cipher(cipher);
  if (!algorithm || nonce_length > 0x7fffffff || tag_length > 0x7fffffff) return PS_CRYPTO_FAILED;
  (void)key_length;  /* the caller checked it against the cipher */
  EVP_CIPHER_CTX *context = ps_crypto.cipher_ctx_new();
  if (!context) return PS_CRYPTO_FAILED;
  size_t written = 0;
  int ok = ps_crypto.cipher_init(context, algorithm, NULL, NULL, NULL, encrypt) == 1 &&
           ps_crypto.cipher_ctx_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, (int)nonce_length, NULL) == 1 &&
           ps_crypto.cipher_init(context, NULL, NULL, key, nonce, encrypt) == 1 &&
           ps_crypto_update(context, NULL, aad, aad_length, NULL) &&
           ps_crypto_update(context, out, in, length, &written);
  int result = ok ? PS_CRYPTO_OK : PS_CRYPTO_FAILED;
  if (ok && !encrypt)
    ok = ps_crypto.cipher_ctx_ctrl(context, EVP_CTRL_AEAD_SET_TAG, (int)tag_length, tag) == 1;
  if (ok) {
    int last = 0;
    if (ps_crypto.cipher_final(context, out + written, &last) == 1) {
      written += (size_t)last;
    } else {
      ok = 0;
      result = encrypt ? PS_CRYPTO_FAILED : PS_CRYPTO_UNAUTHENTICATED;
    }
  } else {
    result = PS_CRYPTO_FAILED;
  }
  if (ok && encrypt && ps_crypto.cipher_ctx_ctrl(context, EVP_CTRL_AEAD_GET_TAG, (int)tag_length, tag) != 1) {
    ok = 0;
    result = PS_CRYPTO_FAILED;
  }
  ps_crypto.cipher_ctx_free(context);
  if (!ok) {
    if (!encrypt && length) memset(out, 0, length);  /* no unauthenticated plaintext is kept */
    return result;
  }
  *out_length = written;
  return PS_CRYPTO_OK;
}

int ps_crypto_aead_open(int cipher, const unsigned char *key, size_t key_length,
                        const unsigned char *nonce, size_t nonce_length, const unsigned char *aad,
                        size_t aad_length, const unsigned char *ciphertext, size_t ciphertext_length,
                        const unsigned char *tag, size_t tag_length, unsigned char *plaintext,
                        size_t *plaintext_length) {
  unsigned char copy[EVP_MAX_MD_SIZE];
  if (tag_length > sizeof copy) return PS_CRYPTO_FAILED;
  memcpy(copy, tag, tag_length);
  return ps_crypto_aead(0, cipher, key, key_length, nonce, nonce_length, aad, aad_length, ciphertext,
                        ciphertext_length, plaintext, plaintext_length, copy, tag_length);
}

int ps_crypto_aead_seal(int cipher, const unsigned char *key, size_t key_length,
                        const unsigned char *nonce, size_t nonce_length, const unsigned char *aad,
                        size_t aad_length, const unsigned char *plaintext, size_t plaintext_length,
                        unsigned char *ciphertext, size_t *ciphertext_length, unsigned char *tag) {
  return ps_crypto_aead(1, cipher, key, key_length, nonce, nonce_length, aad, aad_length, plaintext,
                        plaintext_length, ciphertext, ciphertext_length, tag, 16);
}

int ps_crypto_ed25519_public_key(const unsigned char *seed, unsigned char *public_key) {
  if (!ps_crypto_ready()) return PS_CRYPTO_FAILED;
  EVP_PKEY *key = ps_crypto.pkey_new_private(EVP_PKEY_ED25519, NULL, seed, 32);
  if (!key) return PS_CRYPTO_FAILED;
  size_t length = 32;
  int ok = ps_crypto.pkey_get_public(key, public_key, &length) == 1 && length == 32;
  ps_crypto.pkey_free(key);
  return ok ? PS_CRYPTO_OK : PS_CRYPTO_FAILED;
}

int ps_crypto_ed25519_sign(const unsigned char *seed, const unsigned char *message, size_t length,
                           unsigned char *signature) {
  if (!ps_crypto_ready()) return PS_CRYPTO_FAILED;
  EVP_PKEY *key = ps_crypto.pkey_new_private(EVP_PKEY_ED25519, NULL, seed, 32);
  if (!key) return PS_CRYPTO_FAILED;
  EVP_MD_CTX *context = ps_crypto.md_ctx_new();
  size_t written = 64;
  int ok = context && ps_crypto.digest_sign_init(context, NULL, NULL, NULL, key) == 1 &&
           ps_crypto.digest_sign(context, signature, &written, ps_crypto_bytes(message), length) == 1 &&
           written == 64;
  if (context) ps_crypto.md_ctx_free(context);
  ps_crypto.pkey_free(key);
  return ok ? PS_CRYPTO_OK : PS_CRYPTO_FAILED;
}

int ps_crypto_ed25519_verify(const unsigned char *public_key, const unsigned char *message,
                             size_t length, const unsigned char *signature) {
  if (!ps_crypto_ready()) return PS_CRYPTO_FAILED;
  EVP_PKEY *key = ps_crypto.pkey_new_public(EVP_PKEY_ED25519, NULL, public_key, 32);
  if (!key) return PS_CRYPTO_FAILED;
  EVP_MD_CTX *context = ps_crypto.md_ctx_new();
  int result = PS_CRYPTO_FAILED;
  if (context && ps_crypto.digest_verify_init(context, NULL, NULL, NULL, key) == 1)
    result = ps_crypto.digest_verify(context, signature, 64, ps_crypto_bytes(message), length) == 1
                 ? PS_CRYPTO_OK
                 : PS_CRYPTO_UNAUTHENTICATED;
  if (context) ps_crypto.md_ctx_free(context);
  ps_crypto.pkey_free(key);
  return result;
}
#endif
