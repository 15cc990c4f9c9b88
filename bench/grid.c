/*
 * grid.c -- what a grid is made of: the operations (names, message
 * counts, the multi-buffer keys and IVs), the key sizes and the grid's
 * message sizes, the impl list the adapters fill, the default
 * configurations (`make speed`, --full), where a cell lives in a run, and
 * the figures of a cell (GB/s, cycles per byte).
 */
#include "harness_int.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------
 * Operations
 * ---------------------------------------------------------------- */

static const char *const op_names[] = {
    "ecb-enc",
    "ecb-dec",
    "cbc-enc",
    "cbc-dec",
    "cfb128-enc",
    "cfb128-dec",
    "ofb",
    "ctr",
    "mb-cbc-enc-1",
    "mb-cbc-enc-4",
    "mb-cbc-enc-8",
    "mb-cbc-enc-16",
    "mb-cbc-mac-1",
    "mb-cbc-mac-4",
    "mb-cbc-mac-8",
    "mb-cbc-mac-16",
    "gcm-enc",
    "gcm-dec",
    "gmac",
    "ghash",
    "xts-enc",
    "xts-dec",
    "ocb-enc",
    "ocb-dec",
    "ccm-enc",
    "ccm-dec",
    "cmac",
    "mb-cmac-8",
    "gcm-siv-enc",
    "gcm-siv-dec",
    "siv-enc",
    "siv-dec",
    "kw-wrap",
    "kw-unwrap",
    "aegis128l-enc",
    "aegis128l-dec",
    "aegis256-enc",
    "aegis256-dec",
    "aegis128x2-enc",
    "aegis128x4-enc",
    "aegis256x2-enc",
    "aegis256x4-enc",
    "xaes-gcm-enc",
};
_Static_assert(sizeof(op_names) / sizeof(op_names[0]) == OP_COUNT,
               "every operation of bench.h needs a name here");

const char *bench_op_name(enum bench_op op)
{
    return (unsigned)op < OP_COUNT ? op_names[op] : "?";
}

int bench_op_parse(const char *name)
{
    for (int op = 0; op < OP_COUNT; op++)
        if (strcmp(name, op_names[op]) == 0)
            return op;
    return -1;
}

int bench_op_is_mb(enum bench_op op)
{
    return (op >= OP_MB_CBC_ENC_1 && op <= OP_MB_CBC_MAC_16) ||
           op == OP_MB_CMAC_8;
}

int bench_op_is_mac(enum bench_op op)
{
    return op >= OP_MB_CBC_MAC_1 && op <= OP_MB_CBC_MAC_16;
}

int bench_op_is_gcm(enum bench_op op)
{
    return op >= OP_GCM_ENC && op <= OP_GHASH;
}

int bench_op_is_mode19(enum bench_op op)
{
    return op >= OP_XTS_ENC && op < OP_COUNT;
}

/* The bytes an encryption op adds to the message (its tag, V, or KW's
 * integrity block). */
static size_t op_expansion(enum bench_op op)
{
    switch (op) {
    case OP_GCM_ENC:
    case OP_GCM_DEC:
    case OP_OCB_ENC:
    case OP_OCB_DEC:
    case OP_CCM_ENC:
    case OP_CCM_DEC:
    case OP_GCM_SIV_ENC:
    case OP_GCM_SIV_DEC:
    case OP_SIV_ENC:
    case OP_SIV_DEC:
    case OP_XAES_GCM_ENC:
        return 16;
    case OP_KW_WRAP:
    case OP_KW_UNWRAP:
        return 8;
    case OP_AEGIS128L_ENC:
    case OP_AEGIS128L_DEC:
    case OP_AEGIS256_ENC:
    case OP_AEGIS256_DEC:
    case OP_AEGIS128X2_ENC:
    case OP_AEGIS128X4_ENC:
    case OP_AEGIS256X2_ENC:
    case OP_AEGIS256X4_ENC:
        return 32;
    default:
        return 0;
    }
}

int bench_op_enc_of(enum bench_op op)
{
    switch (op) {
    case OP_GCM_DEC:
        return OP_GCM_ENC;
    case OP_XTS_DEC:
        return OP_XTS_ENC;
    case OP_OCB_DEC:
        return OP_OCB_ENC;
    case OP_CCM_DEC:
        return OP_CCM_ENC;
    case OP_GCM_SIV_DEC:
        return OP_GCM_SIV_ENC;
    case OP_SIV_DEC:
        return OP_SIV_ENC;
    case OP_KW_UNWRAP:
        return OP_KW_WRAP;
    case OP_AEGIS128L_DEC:
        return OP_AEGIS128L_ENC;
    case OP_AEGIS256_DEC:
        return OP_AEGIS256_ENC;
    default:
        return -1;
    }
}

long bench_op_tag_byte(enum bench_op op, size_t len)
{
    if (bench_op_enc_of(op) < 0 || op == OP_XTS_DEC)
        return -1;
    /* SIV's V and KW's integrity block come first; the tags last */
    if (op == OP_SIV_DEC || op == OP_KW_UNWRAP)
        return 0;
    return (long)(len + op_expansion(op) - 1);
}

int bench_op_len_ok(enum bench_op op, size_t len)
{
    switch (op) {
    case OP_XTS_ENC:
    case OP_XTS_DEC:
        return len >= 16;
    case OP_KW_WRAP:
    case OP_KW_UNWRAP:
        return len >= 16 && len % 8 == 0;
    default:
        return bench_op_is_stream(op) || len % 16 == 0;
    }
}

int bench_op_key_ok(enum bench_op op, unsigned key_bits)
{
    if (key_bits != 128 && key_bits != 192 && key_bits != 256)
        return 0;
    switch (op) {
    case OP_GCM_SIV_ENC:
    case OP_GCM_SIV_DEC:
        return key_bits != 192;
    case OP_AEGIS128L_ENC:
    case OP_AEGIS128L_DEC:
    case OP_AEGIS128X2_ENC:
    case OP_AEGIS128X4_ENC:
        return key_bits == 128;
    case OP_AEGIS256_ENC:
    case OP_AEGIS256_DEC:
    case OP_AEGIS256X2_ENC:
    case OP_AEGIS256X4_ENC:
    case OP_XAES_GCM_ENC:
        return key_bits == 256;
    default:
        return 1;
    }
}

void bench_op_key(const uint8_t *key, unsigned key_bits, uint8_t *out, size_t n)
{
    size_t kb = key_bits / 8;

    for (size_t i = 0; i < n && i < 64; i++)
        out[i] = (uint8_t)(key[i % kb] ^ (i >= kb ? 0x5c : 0));
}

void bench_op_nonce(const uint8_t iv[16], uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n && i < 32; i++)
        out[i] = (uint8_t)(iv[i % 16] ^ (i >= 16 ? 0x5c : 0));
}

void bench_xts_tweak(const uint8_t iv[16], uint8_t tweak[16])
{
    memcpy(tweak, iv, 8);
    memset(tweak + 8, 0, 8);
}

size_t bench_op_out_bytes(enum bench_op op, size_t len)
{
    switch (op) {
    case OP_GMAC:
    case OP_GHASH:
    case OP_CMAC:
        return 16;
    case OP_MB_CMAC_8:
        return 8 * 16;
    default:
        if (bench_op_enc_of(op) >= 0)
            return len;
        if (op_expansion(op) > 0)
            return len + op_expansion(op);
        return bench_op_messages(op) * (bench_op_is_mac(op) ? 16 : len);
    }
}

size_t bench_op_in_bytes(enum bench_op op, size_t len)
{
    if (bench_op_enc_of(op) >= 0)
        return len + op_expansion(op);
    return bench_op_messages(op) * len;
}

unsigned bench_op_messages(enum bench_op op)
{
    switch (op) {
    case OP_MB_CBC_ENC_4:
    case OP_MB_CBC_MAC_4:
        return 4;
    case OP_MB_CBC_ENC_8:
    case OP_MB_CBC_MAC_8:
    case OP_MB_CMAC_8:
        return 8;
    case OP_MB_CBC_ENC_16:
    case OP_MB_CBC_MAC_16:
        return 16;
    default:
        return 1;
    }
}

/* Message j's key: the row's key with j XORed into its last byte, so the
 * N messages of a run have N different keys (and key schedules). */
void bench_mb_key(const uint8_t *key, unsigned key_bits, unsigned j,
                  uint8_t *out)
{
    memcpy(out, key, key_bits / 8);
    out[key_bits / 8 - 1] ^= (uint8_t)j;
}

void bench_mb_iv(const uint8_t iv[16], unsigned j, uint8_t out[16])
{
    memcpy(out, iv, 16);
    out[15] ^= (uint8_t)j;
}

/* Stream modes, GCM and most of issue 19's modes take any length; ECB,
 * CBC and GHASH whole blocks (XTS and KW: bench_op_len_ok). */
int bench_op_is_stream(enum bench_op op)
{
    return op == OP_CFB128_ENC || op == OP_CFB128_DEC || op == OP_OFB ||
           op == OP_CTR || op == OP_GCM_ENC || op == OP_GCM_DEC ||
           op == OP_GMAC ||
           (bench_op_is_mode19(op) && op != OP_XTS_ENC && op != OP_XTS_DEC &&
            op != OP_KW_WRAP && op != OP_KW_UNWRAP && op != OP_MB_CMAC_8);
}

/* Ops that need the decryption key schedule. */
int bench_op_decrypts(enum bench_op op)
{
    return op == OP_ECB_DEC || op == OP_CBC_DEC;
}

const size_t bench_grid_sizes[] = {16,   64,   256,   576,
                                   1024, 4096, 16384, 1048576};
const size_t bench_grid_nsizes =
    sizeof(bench_grid_sizes) / sizeof(bench_grid_sizes[0]);

unsigned bench_key_bits(unsigned key_index)
{
    return 128 + 64 * key_index;
}

int bench_key_index(unsigned key_bits)
{
    return key_bits == 128 ? 0 : key_bits == 192 ? 1 : key_bits == 256 ? 2 : -1;
}

/* ------------------------------------------------------------------
 * The impl list
 * ---------------------------------------------------------------- */

static const struct bench_impl *impl_list[BENCH_MAX_IMPLS];
static size_t impl_list_n;

void bench_add(const struct bench_impl *impl)
{
    if (impl_list_n == BENCH_MAX_IMPLS) {
        fprintf(stderr, "bench: more than %d impls; %s ignored\n",
                BENCH_MAX_IMPLS, impl->name);
        return;
    }
    impl_list[impl_list_n++] = impl;
}

size_t bench_impl_count(void)
{
    return impl_list_n;
}

const struct bench_impl *bench_impl_at(size_t i)
{
    return i < impl_list_n ? impl_list[i] : NULL;
}

int bench_impl_is_bound(const struct bench_impl *im)
{
    return im->group != NULL && strcmp(im->group, BENCH_GROUP_BOUND) == 0;
}

void bench_config_default(struct bench_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->ops = OPS_MAIN;
    cfg->keys = 1u | 4u;
    cfg->sizes[0] = 64;
    cfg->sizes[1] = 576;
    cfg->sizes[2] = 16384;
    cfg->nsizes = 3;
    cfg->rounds = 9;
    cfg->passes = 2;
    cfg->round_ms = 2.0;
    cfg->slack = 1.3;
    cfg->mb_size = 4096;
    cfg->seed = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15u;
}

void bench_config_full(struct bench_config *cfg)
{
    bench_config_default(cfg);
    cfg->ops = OPS_ALL;
    cfg->keys = 7u;
    for (size_t i = 0; i < bench_grid_nsizes; i++)
        cfg->sizes[i] = bench_grid_sizes[i];
    cfg->nsizes = bench_grid_nsizes;
    cfg->passes = 3;
}

/* ------------------------------------------------------------------
 * Cells
 * ---------------------------------------------------------------- */

size_t bench_op_nsizes(const struct bench_run *r, enum bench_op op)
{
    return bench_op_is_mb(op) ? 1 : r->cfg.nsizes;
}

size_t bench_op_size(const struct bench_run *r, enum bench_op op, size_t si)
{
    if (si >= bench_op_nsizes(r, op))
        return 0;
    return bench_op_is_mb(op) ? r->cfg.mb_size : r->cfg.sizes[si];
}

struct bench_cell *bench_cell_at(const struct bench_run *r, size_t i,
                                 enum bench_op op, unsigned key_index,
                                 size_t size_index)
{
    size_t k = ((i * OP_COUNT + (size_t)op) * BENCH_NKEYS + key_index) *
                   r->cfg.nsizes +
               size_index;
    return &r->cells[k];
}

int bench_runnable(const struct bench_run *r, size_t i, enum bench_op op,
                   unsigned key_index)
{
    const struct bench_impl_state *s = &r->impls[i];
    bench_ops bit = BENCH_OP_BIT(op);
    return s->usable && (s->verified[key_index] & bit) && !(s->dropped & bit);
}

/* ------------------------------------------------------------------
 * Figures
 * ---------------------------------------------------------------- */

double bench_cell_ns(const struct bench_run *r, const struct bench_cell *c)
{
    return c->ticks / r->clock.tick_hz * 1e9;
}

/* Bytes of one run() of the cell. */
static double cell_bytes(const struct bench_cell *c, size_t size)
{
    return (double)size * (c->msgs > 1 ? c->msgs : 1);
}

double bench_cell_gbps(const struct bench_run *r, const struct bench_cell *c,
                       size_t size)
{
    return cell_bytes(c, size) / bench_cell_ns(r, c);
}

double bench_cell_cpb_tsc(const struct bench_run *r, const struct bench_cell *c,
                          size_t size)
{
    return r->clock.has_tsc ? c->ticks / cell_bytes(c, size) : -1;
}

double bench_cell_cpb_core(const struct bench_cell *c, size_t size)
{
    return c->core > 0 ? c->core / cell_bytes(c, size) : -1;
}
