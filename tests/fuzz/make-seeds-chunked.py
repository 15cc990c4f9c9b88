#!/usr/bin/env python3
"""Seeds for fuzz_chunked (tests/fuzz/corpus/fuzz_chunked/): valid C2SP
chunked-encryption ciphertexts under the target's fixed key, made with an
independent implementation (Python's `cryptography`: HKDFExpand over
SHA-512 + AESGCM), so the hostile half reaches its success path, plus
round-trip inputs. Layout of an input: flags, context length, 4-byte
seed, context, data (fuzz_chunked.c)."""
import os
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand

KEY = bytes.fromhex("603deb1015ca71be2b73aef0857d7781"
                    "1f352c073b6108d72d9810a30914dff4")
CHUNK = 16384


def seal(key, msg, ctx, salt):
    aead = b"AEAD_AES_%d_GCM" % (len(key) * 8)
    info = b"c2sp.org/chunked-encryption@v1+" + aead + b"\0" + salt + ctx
    okm = HKDFExpand(hashes.SHA512(), len(key) + 44, info).derive(key)
    k, base, commit = okm[:len(key)], okm[len(key):len(key) + 12], \
        okm[len(key) + 12:]
    g = AESGCM(k)
    chunks = [msg[i:i + CHUNK] for i in range(0, len(msg), CHUNK)]
    if not chunks or len(chunks[-1]) == CHUNK:
        chunks.append(b"")
    out = salt + commit
    for i, c in enumerate(chunks):
        n = (int.from_bytes(base, "big") ^ i).to_bytes(12, "big")
        out += g.encrypt(n, c, None)
    return out


def main(d):
    os.makedirs(d, exist_ok=True)
    seeds = {}
    for n, ks, ctx in ((0, 32, b""), (1, 32, b""), (100, 16, b"ctx"),
                       (CHUNK, 32, b""), (CHUNK + 5, 16, b"label")):
        msg = bytes((i * 7 + 3) & 0xff for i in range(n))
        flags = (1 if ks == 16 else 0) | (2 if ctx else 0)
        ct = seal(KEY[:ks], msg, ctx, bytes(range(24)))
        seeds["valid-%d-%d" % (n, ks)] = (bytes([flags, len(ctx)]) +
                                          b"\x11\x22\x33\x44" + ctx + ct)
    for i, seed in enumerate((b"\x00\x10\x00\x00", b"\x40\x9f\x01\x00",
                              b"\xff\x77\x00\x00", b"\x00\x07\x01\x00")):
        seeds["roundtrip-%d" % i] = bytes([4 | (i & 1), 0]) + seed + \
            b"fuzz me " * (i + 1)
    for name, data in seeds.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else
         os.path.join(os.path.dirname(__file__), "corpus", "fuzz_chunked"))
