/*
 * util.c -- helpers every layer uses: constant-time comparison, XOR of
 * byte strings, error messages (wiping is inline, internal.h).
 */
#include "internal.h"

/* Accumulates differences with OR so the time depends on n only. */
int aesir_ct_compare(const void *a, const void *b, size_t n)
{
    const volatile unsigned char *x = a, *y = b;
    unsigned d = 0;
    for (size_t i = 0; i < n; i++)
        d |= (unsigned)(x[i] ^ y[i]);
    /* (d - 1) >> 8 is all-ones iff d == 0, without a branch on d. */
    return (int)((1u & ((d - 1) >> 8)) - 1);
}

void aesir_xor(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = a[i] ^ b[i];
}

const char *aesir_strerror(int err)
{
    switch (err) {
    case AESIR_OK:
        return "success";
    case AESIR_E_KEY_LENGTH:
        return "invalid key length (AES keys are 16, 24 or 32 bytes)";
    case AESIR_E_IV_LENGTH:
        return "invalid IV length";
    case AESIR_E_PADDING:
        return "invalid padding";
    case AESIR_E_OUTPUT_SIZE:
        return "output buffer too small";
    case AESIR_E_COUNTER_OVERFLOW:
        return "CTR counter would wrap";
    case AESIR_E_INPUT_LENGTH:
        return "input length is not a multiple of the block size";
    case AESIR_E_ENGINE_UNKNOWN:
        return "no engine of that name in this build";
    case AESIR_E_ENGINE_UNAVAILABLE:
        return "engine not available on this CPU";
    case AESIR_E_ARGUMENT:
        return "invalid argument";
    case AESIR_E_STATE:
        return "context not initialised, already finished, or keyed for "
               "the other direction";
    case AESIR_E_SELFTEST:
        return "engine failed its known-answer self-test";
    case AESIR_E_AUTH:
        return "authentication failed: the tag does not match (data, "
               "additional data, IV, key or tag wrong or altered)";
    case AESIR_E_KEY_WEAK:
        return "weak key refused: the two halves of the XTS key are equal";
    default:
        return "unknown error";
    }
}

const char *aesir_version(void)
{
    return AESIR_VERSION;
}
