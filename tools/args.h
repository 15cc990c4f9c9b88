/*
 * args.h -- strict parsing of command-line values, shared by the `aesir`
 * tool (tools/speed_cli.c) and aesir-bench (bench/bench_cli.c, and the
 * list parsers of bench/options.c).
 *
 * A value is accepted only when the whole string is consumed: no sign, no
 * space, no trailing letters, no fraction where a whole number is wanted,
 * no wrap-around (overflow is ARGS_RANGE, with or without a k/M/G
 * suffix). Lists are comma-separated, non-empty, with no empty item and
 * no item twice.
 *
 * Pure functions: no I/O, no global state, no allocation; they never read
 * past the terminating NUL of their input. The callers turn a status into
 * their own one-line message (args_quote() makes any value safe to print
 * in it). tests/fuzz/fuzz_args.c fuzzes every one of them.
 */
#ifndef AESIR_TOOLS_ARGS_H
#define AESIR_TOOLS_ARGS_H

#include <stddef.h>
#include <stdint.h>

/* ARGS_PRINTF(f, a) -- printf-format checking of the callers' message
 * helpers (argument f is the format, a the first value). */
#if defined(__GNUC__) || defined(__clang__)
#define ARGS_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define ARGS_PRINTF(f, a)
#endif

enum args_status {
    ARGS_OK = 0,
    ARGS_EMPTY = -1,      /* the value (or the list) is empty */
    ARGS_SYNTAX = -2,     /* not of the form asked for */
    ARGS_RANGE = -3,      /* outside lo..hi, or past 2^64 - 1 */
    ARGS_EMPTY_ITEM = -4, /* "a,,b", ",a", "a," */
    ARGS_DUPLICATE = -5,  /* the same item twice, byte for byte */
    ARGS_TOO_MANY = -6,   /* more than ARGS_MAX_ITEMS items */
    ARGS_TOO_LONG = -7    /* a list longer than ARGS_MAX_LEN bytes */
};

/* args_strerror -- a few words for a status ("not a number", ...). */
const char *args_strerror(int status);

/*
 * args_uint -- s as a decimal whole number (digits only) in lo..hi, into
 * *out. args_u64 also takes "0x" and hexadecimal digits, over the whole
 * 64-bit range (seeds). *out is written only on ARGS_OK.
 */
int args_uint(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);
int args_u64(const char *s, uint64_t *out);

/*
 * args_size -- a byte count: decimal digits, then an optional multiplier
 * k/K (2^10), m/M (2^20) or g/G (2^30) that may be followed by "i", then
 * an optional "B": "576", "16k", "16KiB", "1MB", "64B". In lo..hi.
 */
int args_size(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);

/*
 * args_decimal -- digits with an optional fraction ("2", "0.05", "1.3";
 * no sign, exponent, "inf" or "nan"), in lo..hi.
 */
int args_decimal(const char *s, double lo, double hi, double *out);

/*
 * args_split -- a comma-separated list into l: the items are copied into
 * l->buf, NUL-terminated, l->item[0..l->n). Returns ARGS_OK, or an error
 * with *bad the index of the item at fault (ARGS_EMPTY_ITEM: the empty
 * one; ARGS_DUPLICATE: the second copy; else 0).
 */
#define ARGS_MAX_ITEMS 64
#define ARGS_MAX_LEN 1024
struct args_list {
    size_t n;
    const char *item[ARGS_MAX_ITEMS];
    char buf[ARGS_MAX_LEN + 1];
};
int args_split(const char *s, struct args_list *l, size_t *bad);

/*
 * args_list_error -- the message for an args_split() failure rc into err
 * ("empty list of <what>", "'x' is listed twice", ...). Returns -1.
 */
int args_list_error(char *err, size_t cap, int rc, const struct args_list *l,
                    size_t bad, const char *what);

/*
 * args_overlap -- finds the first pair of items of which one names only
 * what the other names; m[k] is what item k of l names, as a set of up to
 * 64 things. Returns 0 when there is none, else -1 with the message in
 * err ("'1024' repeats '1k'", "'ctr' is already in 'all'").
 */
int args_overlap(const struct args_list *l, const uint64_t *m, char *err,
                 size_t cap);

/*
 * args_uint_msg -- args_uint(), with the message of a refusal in msg:
 * "'x' is out of range; want lo..hi", or "'x' is not <what>; want lo..hi"
 * (what: "a whole number", "whole bytes", ...).
 */
int args_uint_msg(const char *s, uint64_t lo, uint64_t hi, const char *what,
                  uint64_t *out, char *msg, size_t cap);

/*
 * Options. A table of n options, each a name ("--keys") with an optional
 * alias ("-k"), and whether it takes the next argument as its value.
 */
struct args_opt {
    const char *name, *alias;
    int takes_value;
};

/*
 * args_scan -- argv[first..argc) against the options of t: seen[k] = 1
 * and val[k] = its value (NULL for a flag) for each option k given;
 * seen[] and val[] (n each) are cleared first. Returns 0; 1 as soon as
 * option stop (-h/--help) is met; or -1 with the message in msg ("unknown
 * option '--x'", "unexpected argument 'x'", "--x needs a value", "--x
 * given twice"), at the first fault in command-line order.
 */
int args_scan(int argc, char **argv, int first, const struct args_opt *t, int n,
              int stop, unsigned char *seen, const char **val, char *msg,
              size_t cap);

/*
 * args_quote -- s made fit for a one-line message into buf (cap > 0):
 * bytes outside printable ASCII, and backslashes, as \xNN; cut with
 * "..." past about 60 bytes. Returns buf.
 */
char *args_quote(char *buf, size_t cap, const char *s);

/*
 * args_format_size -- v with the largest suffix that divides it exactly
 * ("64", "16k", "1M", "4G"), as args_size() reads it back. Returns buf.
 */
char *args_format_size(char *buf, size_t cap, uint64_t v);

#endif /* AESIR_TOOLS_ARGS_H */
