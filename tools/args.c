/*
 * args.c -- strict parsing of command-line values (see args.h).
 *
 * Digits are checked by hand rather than with strtoull(), which skips
 * leading space, takes a sign (and negates "-1" into 2^64 - 1), stops
 * quietly at the first non-digit and needs errno to report overflow.
 */
#include "args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The longest part of a value args_quote() shows. */
#define QUOTE_MAX 60

const char *args_strerror(int status)
{
    switch (status) {
    case ARGS_OK:
        return "ok";
    case ARGS_EMPTY:
        return "empty";
    case ARGS_SYNTAX:
        return "not a number";
    case ARGS_RANGE:
        return "out of range";
    case ARGS_EMPTY_ITEM:
        return "empty item in the list";
    case ARGS_DUPLICATE:
        return "listed twice";
    case ARGS_TOO_MANY:
        return "too many items";
    case ARGS_TOO_LONG:
        return "list too long";
    default:
        return "bad value";
    }
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int hex_value(char c)
{
    if (is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* digits -- the value of the n decimal digits at s; ARGS_RANGE past
 * 2^64 - 1. */
static int digits(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;

    for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return ARGS_RANGE;
        v = v * 10 + d;
    }
    *out = v;
    return ARGS_OK;
}

int args_uint(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    size_t n = 0;
    uint64_t v;
    int rc;

    if (s == NULL || *s == '\0')
        return ARGS_EMPTY;
    while (is_digit(s[n]))
        n++;
    if (s[n] != '\0')
        return ARGS_SYNTAX;
    if ((rc = digits(s, n, &v)) != ARGS_OK)
        return rc;
    if (v < lo || v > hi)
        return ARGS_RANGE;
    *out = v;
    return ARGS_OK;
}

int args_u64(const char *s, uint64_t *out)
{
    uint64_t v = 0;

    if (s == NULL || *s == '\0')
        return ARGS_EMPTY;
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
        return args_uint(s, 0, UINT64_MAX, out);
    s += 2;
    if (*s == '\0')
        return ARGS_SYNTAX;
    for (const char *p = s; *p != '\0'; p++)
        if (hex_value(*p) < 0)
            return ARGS_SYNTAX;
    for (; *s != '\0'; s++) {
        if (v >> 60 != 0)
            return ARGS_RANGE;
        v = v << 4 | (uint64_t)hex_value(*s);
    }
    *out = v;
    return ARGS_OK;
}

int args_size(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    size_t n = 0;
    unsigned shift = 0;
    const char *p;
    uint64_t v;
    int rc;

    if (s == NULL || *s == '\0')
        return ARGS_EMPTY;
    while (is_digit(s[n]))
        n++;
    if (n == 0)
        return ARGS_SYNTAX;
    p = s + n;
    switch (*p) {
    case 'k':
    case 'K':
        shift = 10;
        break;
    case 'm':
    case 'M':
        shift = 20;
        break;
    case 'g':
    case 'G':
        shift = 30;
        break;
    default:
        break;
    }
    if (shift != 0 && *++p == 'i')
        p++;
    if (*p == 'B')
        p++;
    if (*p != '\0')
        return ARGS_SYNTAX;
    if ((rc = digits(s, n, &v)) != ARGS_OK)
        return rc;
    if (v > UINT64_MAX >> shift)
        return ARGS_RANGE;
    v <<= shift;
    if (v < lo || v > hi)
        return ARGS_RANGE;
    *out = v;
    return ARGS_OK;
}

int args_decimal(const char *s, double lo, double hi, double *out)
{
    size_t n = 0;
    double v;

    if (s == NULL || *s == '\0')
        return ARGS_EMPTY;
    while (is_digit(s[n]))
        n++;
    if (n == 0)
        return ARGS_SYNTAX;
    if (s[n] == '.') {
        size_t f = ++n;
        while (is_digit(s[n]))
            n++;
        if (n == f)
            return ARGS_SYNTAX;
    }
    if (s[n] != '\0')
        return ARGS_SYNTAX;
    /* Only digits and one '.' are left: strtod() reads all of it (in the
     * "C" locale the tools run in); a huge value becomes HUGE_VAL, which
     * fails the range check. */
    v = strtod(s, NULL);
    if (!(v >= lo && v <= hi))
        return ARGS_RANGE;
    *out = v;
    return ARGS_OK;
}

int args_split(const char *s, struct args_list *l, size_t *bad)
{
    size_t len;
    char *p;

    l->n = 0;
    *bad = 0;
    if (s == NULL || *s == '\0')
        return ARGS_EMPTY;
    len = strlen(s);
    if (len > ARGS_MAX_LEN)
        return ARGS_TOO_LONG;
    memcpy(l->buf, s, len + 1);
    for (p = l->buf;; p++) {
        char *comma = strchr(p, ',');
        if (l->n == ARGS_MAX_ITEMS)
            return ARGS_TOO_MANY;
        l->item[l->n++] = p;
        if (comma == NULL)
            break;
        *comma = '\0';
        p = comma;
    }
    for (size_t i = 0; i < l->n; i++)
        if (l->item[i][0] == '\0') {
            *bad = i;
            return ARGS_EMPTY_ITEM;
        }
    for (size_t j = 1; j < l->n; j++)
        for (size_t i = 0; i < j; i++)
            if (strcmp(l->item[i], l->item[j]) == 0) {
                *bad = j;
                return ARGS_DUPLICATE;
            }
    return ARGS_OK;
}

int args_list_error(char *err, size_t cap, int rc, const struct args_list *l,
                    size_t bad, const char *what)
{
    char q[96];

    if (rc == ARGS_EMPTY_ITEM)
        snprintf(err, cap, "empty item (number %zu) in the list of %s", bad + 1,
                 what);
    else if (rc == ARGS_DUPLICATE)
        snprintf(err, cap, "'%s' is listed twice",
                 args_quote(q, sizeof(q), l->item[bad]));
    else if (rc == ARGS_TOO_MANY)
        snprintf(err, cap, "more than %d %s", ARGS_MAX_ITEMS, what);
    else if (rc == ARGS_TOO_LONG)
        snprintf(err, cap, "list of %s longer than %d bytes", what,
                 ARGS_MAX_LEN);
    else
        snprintf(err, cap, "empty list of %s", what);
    return -1;
}

int args_overlap(const struct args_list *l, const uint64_t *m, char *err,
                 size_t cap)
{
    char qi[96], qj[96];

    for (size_t j = 1; j < l->n; j++)
        for (size_t i = 0; i < j; i++) {
            uint64_t both = m[i] & m[j];
            if (both != m[i] && both != m[j])
                continue;
            args_quote(qi, sizeof(qi), l->item[i]);
            args_quote(qj, sizeof(qj), l->item[j]);
            if (m[i] == m[j])
                snprintf(err, cap, "'%s' repeats '%s'", qj, qi);
            else if (both == m[j])
                snprintf(err, cap, "'%s' is already in '%s'", qj, qi);
            else
                snprintf(err, cap, "'%s' is already in '%s'", qi, qj);
            return -1;
        }
    return 0;
}

int args_uint_msg(const char *s, uint64_t lo, uint64_t hi, const char *what,
                  uint64_t *out, char *msg, size_t cap)
{
    char q[96];
    int rc = args_uint(s, lo, hi, out);

    if (rc == ARGS_OK)
        return rc;
    args_quote(q, sizeof(q), s);
    if (rc == ARGS_RANGE)
        snprintf(msg, cap, "'%s' is out of range; want %llu..%llu", q,
                 (unsigned long long)lo, (unsigned long long)hi);
    else
        snprintf(msg, cap, "'%s' is not %s; want %llu..%llu", q, what,
                 (unsigned long long)lo, (unsigned long long)hi);
    return rc;
}

/* opt_name -- "--name" or "--name/alias", for messages. */
static const char *opt_name(const struct args_opt *o, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s%s", o->name, o->alias != NULL ? "/" : "",
             o->alias != NULL ? o->alias : "");
    return buf;
}

int args_scan(int argc, char **argv, int first, const struct args_opt *t, int n,
              int stop, unsigned char *seen, const char **val, char *msg,
              size_t cap)
{
    char q[96], name[64];

    memset(seen, 0, (size_t)n);
    for (int k = 0; k < n; k++)
        val[k] = NULL;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        int k = 0;
        while (k < n && strcmp(a, t[k].name) != 0 &&
               (t[k].alias == NULL || strcmp(a, t[k].alias) != 0))
            k++;
        if (k == n) {
            snprintf(msg, cap, "%s '%s'",
                     a[0] == '-' ? "unknown option" : "unexpected argument",
                     args_quote(q, sizeof(q), a));
            return -1;
        }
        if (k == stop)
            return 1;
        if (seen[k]) {
            snprintf(msg, cap, "%s given twice",
                     opt_name(&t[k], name, sizeof(name)));
            return -1;
        }
        seen[k] = 1;
        if (!t[k].takes_value)
            continue;
        if (i + 1 >= argc) {
            snprintf(msg, cap, "%s needs a value", a);
            return -1;
        }
        val[k] = argv[++i];
    }
    return 0;
}

char *args_quote(char *buf, size_t cap, const char *s)
{
    size_t o = 0, i;

    if (cap == 0)
        return buf;
    if (s == NULL)
        s = "";
    for (i = 0; s[i] != '\0' && i < QUOTE_MAX; i++) {
        unsigned char c = (unsigned char)s[i];
        char one[8];
        size_t k;
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            one[0] = (char)c;
            k = 1;
        } else {
            k = (size_t)snprintf(one, sizeof(one), "\\x%02x", c);
        }
        /* Room for this, "..." and the NUL. */
        if (o + k + 4 > cap)
            break;
        memcpy(buf + o, one, k);
        o += k;
    }
    if (s[i] != '\0') {
        size_t k = cap - 1 - o < 3 ? cap - 1 - o : 3;
        memcpy(buf + o, "...", k);
        o += k;
    }
    buf[o] = '\0';
    return buf;
}

char *args_format_size(char *buf, size_t cap, uint64_t v)
{
    static const char suffix[] = "GMk";
    static const unsigned shift[] = {30, 20, 10};

    for (int i = 0; i < 3; i++)
        if (v != 0 && v % ((uint64_t)1 << shift[i]) == 0) {
            snprintf(buf, cap, "%llu%c", (unsigned long long)(v >> shift[i]),
                     suffix[i]);
            return buf;
        }
    snprintf(buf, cap, "%llu", (unsigned long long)v);
    return buf;
}
