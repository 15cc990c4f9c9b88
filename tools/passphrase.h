/*
 * passphrase.h -- keys from passphrases for `aesir encrypt -p` and
 * `aesir decrypt -p`: the passphrase is read from the terminal without
 * echo, or from a file descriptor or a file for scripts, and stretched
 * with Argon2id (RFC 9106; libsodium's crypto_pwhash, parallelism 1) into
 * the AES-GCM key of the C2SP chunked-encryption stream
 * (c2sp.org/chunked-encryption).
 *
 * The Argon2id parameters and salt travel in a small header in front of
 * the C2SP stream (docs/tool.md, "Passphrases"), 34 bytes, all integers
 * big-endian:
 *
 *   offset  size  field
 *        0     8  magic "AESIR-PW"
 *        8     1  version, 1
 *        9     1  AEAD: 1 = AES-128-GCM (16-byte key), 2 = AES-256-GCM (32)
 *       10     4  Argon2id t_cost (passes), 1..PW_T_COST_MAX
 *       14     4  Argon2id m_cost in KiB, PW_M_COST_MIN_KIB..2^32-1
 *       18    16  salt (random, fresh for each file)
 *
 * The whole header is also the C2SP context string, so changing any byte
 * of it makes decryption fail: the key commitment of the stream does not
 * verify. A reader refuses an unknown magic, version or AEAD and costs
 * out of range before it asks for the passphrase, and a memory cost above
 * its limit (--max-memory) before it allocates anything.
 *
 * Passphrases are at most PW_PASS_MAX bytes and never empty. From a file
 * or a file descriptor only the first line counts: reading stops at the
 * first newline, which is not part of the passphrase (nor a carriage
 * return just before it). On a terminal (/dev/tty) echo is off while the
 * passphrase is typed and the terminal's settings are restored on every
 * path, also when SIGINT, SIGTERM, SIGHUP or SIGQUIT arrive meanwhile
 * (pw_read.c). Encryption asks twice and starts again, up to three
 * times, when the two differ or the passphrase is empty.
 *
 * Messages in err are one line without the program's name (the caller
 * prefixes "aesir encrypt: "). Built without libsodium, both functions
 * return TOOL_EXIT_UNAVAILABLE ("built without libsodium").
 */
#ifndef AESIR_TOOLS_PASSPHRASE_H
#define AESIR_TOOLS_PASSPHRASE_H

#include <stddef.h>
#include <stdint.h>

#define PW_HEADER_MAX 64
#define PW_HEADER_LEN 34 /* version 1 */
#define PW_PASS_MAX 1024 /* bytes of a passphrase */

/* Argon2id cost limits: t_cost passes, m_cost KiB (RFC 9106 section 3.1
 * asks m >= 8 KiB per lane; the upper bound on t keeps a hostile header
 * from asking for hours). */
#define PW_T_COST_MAX 64
#define PW_M_COST_MIN_KIB 8

/* The defaults (libsodium's "moderate" level): about 0.55 s of one core
 * of the AMD EPYC (Zen 4) this was tuned on. docs/tool.md has the
 * measurements. */
#define PW_T_COST_DEFAULT 3
#define PW_M_COST_DEFAULT_KIB (256u * 1024)
/* What decryption accepts unless told otherwise (--max-memory). */
#define PW_MAX_M_COST_DEFAULT_KIB (1024u * 1024)

/* Where the passphrase comes from: file when not NULL, else fd when it is
 * not -1, else the terminal. */
struct pw_source {
    const char *file;
    int fd;
};

/* Argon2id costs, parallelism 1. */
struct pw_params {
    uint32_t t_cost;
    uint32_t m_cost_kib;
};

/*
 * pw_seal_setup -- for encryption: reads the passphrase from src (twice
 * on a terminal), draws a random salt, derives key_len (16 or 32) bytes
 * of key with Argon2id at the costs p, and writes the header into hdr
 * (PW_HEADER_MAX bytes of room; *hdr_len its length): the bytes to write
 * in front of the C2SP stream, and its context string. Returns 0, or an
 * exit status (tool.h) with a one-line message in err: TOOL_EXIT_USAGE
 * (costs out of range, empty passphrase, passphrases that differ three
 * times), TOOL_EXIT_IO (no terminal, an unreadable passphrase file, out
 * of memory), TOOL_EXIT_UNAVAILABLE (bad key_len; no libsodium). The
 * passphrase is wiped before returning; key only holds a key on success.
 */
int pw_seal_setup(const struct pw_source *src, const struct pw_params *p,
                  size_t key_len, uint8_t *key, uint8_t *hdr, size_t *hdr_len,
                  char *err, size_t errcap);

/*
 * pw_open_setup -- for decryption: buf holds the first PW_HEADER_MAX
 * bytes of the input (or all of it, when shorter; len). Parses and checks
 * the header, then reads the passphrase once from src and derives the key
 * into key (32 bytes of room; *key_len = 16 or 32, by the AEAD byte).
 * *hdr_len = the header's length: the bytes to skip, and the C2SP context
 * string. Returns 0, or an exit status with a one-line message in err:
 * TOOL_EXIT_AUTH (not a passphrase header, truncated, unknown version or
 * AEAD, costs out of range or memory above max_m_cost_kib: nothing is
 * read from src then), TOOL_EXIT_USAGE (empty passphrase), TOOL_EXIT_IO,
 * TOOL_EXIT_UNAVAILABLE. A wrong passphrase is not detected here: the
 * C2SP stream's key commitment fails.
 */
int pw_open_setup(const struct pw_source *src, const uint8_t *buf, size_t len,
                  uint64_t max_m_cost_kib, uint8_t *key, size_t *key_len,
                  size_t *hdr_len, char *err, size_t errcap);

#endif /* AESIR_TOOLS_PASSPHRASE_H */
