/*
 * aead_ctx.h -- what the modes of src/aead share about a message context
 * and a one-shot call: written once here, used by gcm.c, ccm.c, ocb.c,
 * aegis.c and cmac.c (and the tag verdict by gcm_siv.c, siv.c, kw.c).
 *
 * A message context (aesir_gcm, aesir_ccm, ...) is an opaque, 16-byte
 * aligned area whose state begins with the same three fields, struct
 * aead_head: the key object it runs under, a magic number saying that a
 * message was started, and its phase (the mode's PH_* values, 0 once
 * the message ended; CMAC has no phases and no phase field). The rules,
 * the same in every mode (include/aesir.h):
 *
 *  - a call on a NULL context returns AESIR_E_ARGUMENT and touches
 *    nothing; on a context with no live message, or in a phase the call
 *    does not belong to (AAD after data, data after finish), or whose
 *    key was cleared under it: AESIR_E_STATE, and the context is wiped;
 *  - every error ends the message: the context is wiped (aead_end), so
 *    nothing secret stays behind an abandoned message;
 *  - a tag is compared in constant time, and only the verdict (the
 *    return code) is declassified (aead_verdict);
 *  - a one-shot open that fails zeroes what it wrote (aead_released).
 *
 * Static inline functions: each mode's wrappers are one line, and the
 * key-check callback passed to aead_live is a constant the compiler
 * inlines.
 */
#ifndef AESIR_AEAD_CTX_H
#define AESIR_AEAD_CTX_H

#include "ct.h"
#include "internal.h"

/* The fields every message state starts with (CMAC's: key and magic). */
struct aead_head {
    const void *key; /* the mode's key object (its opaque area) */
    uint32_t magic;  /* the mode's message magic while a message lives */
    uint32_t phase;  /* 1 << phase is tested against a call's mask */
};

/* A mode's state struct begins as struct aead_head: key and magic, and
 * with AEAD_PHASE_CHECK the phase too. */
#define AEAD_HEAD_CHECK(type)                                                  \
    _Static_assert(offsetof(type, key) == offsetof(struct aead_head, key) &&   \
                       offsetof(type, magic) ==                                \
                           offsetof(struct aead_head, magic),                  \
                   #type " does not begin as struct aead_head")
#define AEAD_PHASE_CHECK(type)                                                 \
    AEAD_HEAD_CHECK(type);                                                     \
    _Static_assert(offsetof(type, phase) == offsetof(struct aead_head, phase), \
                   #type ": phase not where struct aead_head has it")

/* Whether ctx can hold a message: not NULL, and aligned as aesir.h
 * promises every context is (a misaligned one is never written). */
static inline int aead_ctx_ok(const void *ctx)
{
    return ctx != NULL && (uintptr_t)ctx % AESIR_CTX_ALIGN == 0;
}

/*
 * The state in ctx when it holds a started message of this magic whose
 * key is still set up (key_ok, the mode's check of its key object: a key
 * cleared under a message is noticed, not followed into its wiped engine
 * pointers), in one of the phases of mask (bits 1 << phase; mask 0: the
 * mode has no phases); else NULL. The head is read by memcpy, so the
 * mode's struct and this one never alias.
 */
static inline void *aead_live(void *ctx, uint32_t magic, unsigned mask,
                              int (*key_ok)(const void *key))
{
    struct aead_head h;
    if (!aead_ctx_ok(ctx))
        return NULL;
    memcpy(&h.key, (const char *)ctx + offsetof(struct aead_head, key),
           sizeof(h.key));
    memcpy(&h.magic, (const char *)ctx + offsetof(struct aead_head, magic),
           sizeof(h.magic));
    if (h.magic != magic)
        return NULL;
    if (mask != 0) {
        memcpy(&h.phase, (const char *)ctx + offsetof(struct aead_head, phase),
               sizeof(h.phase));
        if (h.phase == 0 || ((1u << h.phase) & mask) == 0)
            return NULL;
    }
    return key_ok(h.key) ? ctx : NULL;
}

/* Ends the message in ctx (bytes: the context's size), returning err:
 * the context is wiped unless it is NULL or misaligned (never written). */
static inline int aead_end(void *ctx, size_t bytes, int err)
{
    if (aead_ctx_ok(ctx))
        aesir_wipe(ctx, bytes);
    return err;
}

/* The error of a call that found no live message in ctx (aead_live
 * returned NULL): AESIR_E_ARGUMENT for NULL, misaligned the mode's
 * misaligned (AESIR_E_STATE or AESIR_E_ARGUMENT, as its tests expect),
 * else AESIR_E_STATE with the context wiped. */
static inline int aead_not_live(void *ctx, size_t bytes, int misaligned)
{
    if (ctx == NULL)
        return AESIR_E_ARGUMENT;
    return aead_ctx_ok(ctx) ? aead_end(ctx, bytes, AESIR_E_STATE) : misaligned;
}

/*
 * AEAD_MESSAGES(ctx_t, state_t, magic, key_state, misaligned) defines a
 * mode's wrappers of the above on its own types, in its .c file (static):
 *
 *   state_t *live(ctx_t *ctx, unsigned mask)   aead_live with magic, the
 *                                   key checked by key_state(key) != NULL
 *   int end(ctx_t *ctx, int err)               aead_end
 *   int not_live(ctx_t *ctx)                   aead_not_live
 *
 * and checks that state_t begins as struct aead_head. mask 0 (CMAC,
 * AEAD_MESSAGES_NOPHASE): no phase field, none checked.
 */
#define AEAD_MESSAGES_COMMON(ctx_t, state_t, magic, key_state, misaligned)     \
    static int key_ok(const void *key)                                         \
    {                                                                          \
        return key_state(key) != NULL;                                         \
    }                                                                          \
    static state_t *live(ctx_t *ctx, unsigned mask)                            \
    {                                                                          \
        return (state_t *)aead_live(ctx, (magic), mask, key_ok);               \
    }                                                                          \
    static int end(ctx_t *ctx, int err)                                        \
    {                                                                          \
        return aead_end(ctx, sizeof(*ctx), err);                               \
    }                                                                          \
    static int not_live(ctx_t *ctx)                                            \
    {                                                                          \
        return aead_not_live(ctx, sizeof(*ctx), (misaligned));                 \
    }
#define AEAD_MESSAGES(ctx_t, state_t, magic, key_state, misaligned)            \
    AEAD_PHASE_CHECK(state_t);                                                 \
    AEAD_MESSAGES_COMMON(ctx_t, state_t, magic, key_state, misaligned)
#define AEAD_MESSAGES_NOPHASE(ctx_t, state_t, magic, key_state, misaligned)    \
    AEAD_HEAD_CHECK(state_t);                                                  \
    AEAD_MESSAGES_COMMON(ctx_t, state_t, magic, key_state, misaligned)

/* AESIR_OK when the n bytes of the computed tag t match tag, else
 * AESIR_E_AUTH. The comparison is constant-time; only its verdict is
 * declassified (ct.h), which becomes public as the return code anyway. */
static inline int aead_verdict(const uint8_t *t, const uint8_t *tag, size_t n)
{
    int bad = aesir_ct_compare(t, tag, n);
    CT_PUBLIC(&bad, sizeof(bad));
    return bad == 0 ? AESIR_OK : AESIR_E_AUTH;
}

/* The same for tags of n bytes, n a multiple of 8 (16 or 32), compared
 * as 8-byte words without a branch or an index on their bytes:
 * aesir_ct_compare reads bytes through volatile pointers, 16 loads of a
 * tag a kernel has just stored as one vector: some 20 TSC cycles of a
 * 91-cycle 64-byte GCM open, 35 of a 576-byte AEGIS-128L open (Zen 4). */
static inline int aead_verdict_words(const uint8_t *t, const uint8_t *tag,
                                     size_t n)
{
    uint64_t a, b, d = 0;
    int bad;
    for (size_t i = 0; i < n; i += 8) {
        memcpy(&a, t + i, 8);
        memcpy(&b, tag + i, 8);
        d |= a ^ b;
    }
    bad = (int)((d | (0 - d)) >> 63);
    CT_PUBLIC(&bad, sizeof(bad));
    return bad == 0 ? AESIR_OK : AESIR_E_AUTH;
}

static inline int aead_verdict16(const uint8_t t[16], const uint8_t tag[16])
{
    return aead_verdict_words(t, tag, 16);
}

/* A one-shot open's result: on failure the len bytes written to out are
 * zeroed (no unauthenticated plaintext is released). */
static inline int aead_released(int err, uint8_t *out, size_t len)
{
    if (err != AESIR_OK && len != 0)
        aesir_wipe(out, len);
    return err;
}

/*
 * The checks of a one-shot call, before anything is written, in the
 * order of their errors: no key object (k NULL) AESIR_E_STATE; a missing
 * nonce, AAD, input or output (NULL with a nonzero length), or args_ok
 * 0 (the mode's own argument checks: tag pointer, tag length)
 * AESIR_E_ARGUMENT; nonce_ok 0 AESIR_E_IV_LENGTH; lengths_ok 0
 * AESIR_E_INPUT_LENGTH. The flags are the mode's, computed by the caller
 * (nonce_ok and lengths_ok only matter when k is set up).
 */
static inline int aead_oneshot_checks(const void *k, const void *nonce,
                                      const void *aad, size_t aad_len,
                                      const void *out, const void *in,
                                      size_t len, int args_ok, int nonce_ok,
                                      int lengths_ok)
{
    if (k == NULL)
        return AESIR_E_STATE;
    if (nonce == NULL || (aad_len != 0 && aad == NULL) ||
        (len != 0 && (out == NULL || in == NULL)) || !args_ok)
        return AESIR_E_ARGUMENT;
    if (!nonce_ok)
        return AESIR_E_IV_LENGTH;
    if (!lengths_ok)
        return AESIR_E_INPUT_LENGTH;
    return AESIR_OK;
}

#endif /* AESIR_AEAD_CTX_H */
