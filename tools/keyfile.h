/*
 * keyfile.h -- aesir's key files (`aesir keygen`, `aesir encrypt -k`).
 *
 * A key file is text: lines starting with '#' are comments, blank lines
 * are ignored, and exactly one line holds the key:
 *
 *   aesir-key-v1-aes256-<64 hex digits>-<8 hex digits>
 *   aesir-key-v1-aes128-<32 hex digits>-<8 hex digits>
 *
 * The prefix names the format version and the cipher, so a key is
 * recognisable on sight and a future format cannot be misread. The last
 * 8 digits are a checksum: the first 4 bytes of SHA-512 over the prefix
 * (up to and including the '-' after the cipher) followed by the raw key
 * bytes, so a mistyped key is refused (a wrong key would otherwise only
 * show up as "wrong key" when decrypting). Hex digits may be upper or
 * lower case; keygen writes lower case. docs/tool.md, "Key files".
 */
#ifndef AESIR_TOOLS_KEYFILE_H
#define AESIR_TOOLS_KEYFILE_H

#include <stddef.h>
#include <stdint.h>

#define KEYFILE_LINE_MAX 128 /* the longest key line, with its NUL */

/* keyfile_encode -- the key line (no newline) for a key of 16 or 32
 * bytes into line. 0, or -1 when len is not 16 or 32 or the checksum
 * cannot be computed. */
int keyfile_encode(const uint8_t *key, size_t len, char line[KEYFILE_LINE_MAX]);

/* keyfile_parse -- the key in text (a whole key file) into key (32 bytes
 * of room) and *len. 0, or -1 with the reason in err: not a key file,
 * unknown version or cipher, a bad character, the wrong number of digits,
 * a checksum that does not match (a typo), no key line or two. */
int keyfile_parse(const char *text, uint8_t *key, size_t *len, char *err,
                  size_t cap);

/*
 * keyfile_load -- reads and parses the key file at path. 0; or an exit
 * code with the message in err: TOOL_EXIT_IO when it cannot be read,
 * TOOL_EXIT_USAGE when it is not a valid key file. A file that group or others
 * may read or write is used, with a warning on stderr (ssh refuses such private
 * keys; we warn, since the key still is what the user asked for).
 */
int keyfile_load(const char *path, uint8_t *key, size_t *len, char *err,
                 size_t cap);

#endif /* AESIR_TOOLS_KEYFILE_H */
