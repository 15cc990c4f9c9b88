/*
 * options.c -- the list parsers of harness.h: --ops, --keys and --sizes
 * of aesir-bench and of `aesir speed` (tools/speed_cli.c), fuzzed by
 * tests/fuzz (fuzz_args).
 */
#include "harness_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

/*
 * The list parsers (harness.h). Each list goes through args_split()
 * (tools/args.h): not empty, no empty item, no item twice. Then no item
 * may name only what another item already names ("ctr,all", "cbc,cbc-enc",
 * "128,all", "1k,1024"): a repeated item is more often a typo than a wish.
 */

/* ops_matching -- ops called name, or whose name is name + "-..." (a mode
 * name stands for its directions). */
static bench_ops ops_matching(const char *name)
{
    bench_ops m = 0;
    size_t n = strlen(name);

    if (strcmp(name, "all") == 0)
        return OPS_ALL;
    if (strcmp(name, "main") == 0)
        return OPS_MAIN;
    if (strcmp(name, "modes") == 0)
        return OPS_MODES19;
    if (strcmp(name, "blocks") == 0)
        return OPS_BLOCKS;
    for (int op = 0; op < OP_COUNT; op++) {
        const char *o = bench_op_name((enum bench_op)op);
        /* gcm-siv is a mode of its own, not a direction of gcm */
        if (strcmp(o, name) == 0 || (strncmp(o, name, n) == 0 && o[n] == '-' &&
                                     strncmp(o + n, "-siv-", 5) != 0))
            m |= BENCH_OP_BIT(op);
    }
    return m;
}

int bench_parse_ops(const char *list, bench_ops *ops, char *err, size_t cap)
{
    struct args_list l;
    uint64_t m[ARGS_MAX_ITEMS], all = 0;
    size_t bad;
    int rc = args_split(list, &l, &bad);

    if (rc != ARGS_OK)
        return args_list_error(err, cap, rc, &l, bad, "operations");
    for (size_t i = 0; i < l.n; i++) {
        m[i] = ops_matching(l.item[i]);
        if (m[i] == 0) {
            char q[96];
            size_t o =
                (size_t)snprintf(err, cap, "'%s' is not an operation (known:",
                                 args_quote(q, sizeof(q), l.item[i]));
            for (int op = 0; op < OP_COUNT && o < cap; op++)
                o += (size_t)snprintf(err + o, cap - o, " %s",
                                      bench_op_name((enum bench_op)op));
            if (o < cap)
                snprintf(
                    err + o, cap - o,
                    "; a mode such as cbc or mb; main; modes; blocks; all)");
            return -1;
        }
        all |= m[i];
    }
    if (args_overlap(&l, m, err, cap) != 0)
        return -1;
    *ops = all;
    return 0;
}

int bench_parse_keys(const char *list, unsigned *keys, char *err, size_t cap)
{
    struct args_list l;
    uint64_t m[ARGS_MAX_ITEMS], all = 0;
    size_t bad;
    int rc = args_split(list, &l, &bad);

    if (rc != ARGS_OK)
        return args_list_error(err, cap, rc, &l, bad, "key sizes");
    for (size_t i = 0; i < l.n; i++) {
        uint64_t bits;
        int k = -1;
        if (strcmp(l.item[i], "all") == 0) {
            m[i] = 7;
        } else {
            if (args_uint(l.item[i], 128, 256, &bits) == ARGS_OK)
                k = bench_key_index((unsigned)bits);
            if (k < 0) {
                char q[96];
                snprintf(err, cap,
                         "'%s' is not a key size (128, 192, 256 or all)",
                         args_quote(q, sizeof(q), l.item[i]));
                return -1;
            }
            m[i] = (uint64_t)1 << k;
        }
        all |= m[i];
    }
    if (args_overlap(&l, m, err, cap) != 0)
        return -1;
    *keys = (unsigned)all;
    return 0;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* The largest message size: the buffers are this big, twice. */
#define BENCH_SIZE_MAX ((size_t)64 << 20)

/* size_bit -- the bit of size v among the distinct sizes seen so far
 * (added when new), or -1 past BENCH_MAX_SIZES of them. */
static int size_bit(size_t v, size_t *seen, size_t *nseen)
{
    for (size_t i = 0; i < *nseen; i++)
        if (seen[i] == v)
            return (int)i;
    if (*nseen == BENCH_MAX_SIZES)
        return -1;
    seen[*nseen] = v;
    return (int)(*nseen)++;
}

int bench_parse_sizes(const char *list, size_t *sizes, size_t *nsizes,
                      char *err, size_t cap)
{
    struct args_list l;
    uint64_t m[ARGS_MAX_ITEMS];
    size_t seen[BENCH_MAX_SIZES], nseen = 0, bad;
    int rc = args_split(list, &l, &bad);
    char q[96], hi[24];

    _Static_assert(BENCH_MAX_SIZES <= 64, "a size is a bit of a uint64_t");
    if (rc != ARGS_OK)
        return args_list_error(err, cap, rc, &l, bad, "sizes");
    for (size_t i = 0; i < l.n; i++) {
        int b = 0;
        m[i] = 0;
        if (strcmp(l.item[i], "all") == 0) {
            for (size_t g = 0; g < bench_grid_nsizes && b >= 0; g++)
                if ((b = size_bit(bench_grid_sizes[g], seen, &nseen)) >= 0)
                    m[i] |= (uint64_t)1 << b;
        } else {
            uint64_t v;
            rc = args_size(l.item[i], 1, BENCH_SIZE_MAX, &v);
            if (rc != ARGS_OK) {
                args_quote(q, sizeof(q), l.item[i]);
                if (rc == ARGS_RANGE)
                    snprintf(err, cap, "'%s' is out of range (1..%s bytes)", q,
                             args_format_size(hi, sizeof(hi), BENCH_SIZE_MAX));
                else
                    snprintf(err, cap,
                             "'%s' is not a size (bytes, or with a k or M "
                             "suffix: 64, 16k, 1M; or all)",
                             q);
                return -1;
            }
            if ((b = size_bit((size_t)v, seen, &nseen)) >= 0)
                m[i] = (uint64_t)1 << b;
        }
        if (b < 0) {
            snprintf(err, cap, "more than %d different sizes", BENCH_MAX_SIZES);
            return -1;
        }
    }
    if (args_overlap(&l, m, err, cap) != 0)
        return -1;
    memcpy(sizes, seen, nseen * sizeof(sizes[0]));
    qsort(sizes, nseen, sizeof(sizes[0]), cmp_size);
    *nsizes = nseen;
    return 0;
}
