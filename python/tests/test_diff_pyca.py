"""Differential tests against pyca/cryptography (OpenSSL underneath) for
every mode both have: random keys, nonces, lengths and associated data,
AESIR_PY_CASES cases per mode (default 400). Keys and data come from
os.urandom; random.Random only picks lengths, so a failure prints the
inputs it used."""

import os
import random

import pytest

import aesir
from aesir import hazmat

aead = pytest.importorskip("cryptography.hazmat.primitives.ciphers.aead")
from cryptography.hazmat.primitives import cmac as pyca_cmac  # noqa: E402
from cryptography.hazmat.primitives import keywrap as pyca_kw  # noqa: E402
from cryptography.hazmat.primitives.ciphers import (  # noqa: E402
    Cipher,
    algorithms,
    modes,
)

# pyca 48 moved CFB, CFB8 and OFB to "decrepit"; they still work.
pytestmark = pytest.mark.filterwarnings("ignore:.*has been moved")
rng = random.Random()
LENS = [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256, 1000, 4096, 5000]


def length():
    """Edges around blocks and the GIL threshold, else anything < 600."""
    return rng.choice(LENS) if rng.random() < 0.5 else rng.randrange(600)


def keylen(sizes=(16, 24, 32)):
    return rng.choice(sizes)


def pyca_refuses_empty(pt):
    """Older pyca/cryptography (44 does; 48 does not) refuses empty
    plaintexts for AES-SIV and GCM-SIV ("data must not be zero length"),
    which both RFCs allow: those cases are checked by round trip only."""
    if pt:
        return False
    try:
        aead.AESSIV(bytes(32)).encrypt(b"", None)
        return False
    except ValueError:
        return True


def roundtrip(k, ours, theirs, nonce, pt, ad):
    ct = ours.encrypt(nonce, pt, ad)
    msg = f"key={k.hex()} nonce={nonce.hex()} pt={pt.hex()[:64]} ad={ad!r:.40}"
    if pyca_refuses_empty(pt) and type(theirs).__name__ == "AESGCMSIV":
        assert ours.decrypt(nonce, ct, ad) == pt
        return
    assert ct == theirs.encrypt(nonce, pt, ad), msg
    assert ours.decrypt(nonce, ct, ad) == pt, msg
    assert theirs.decrypt(nonce, ct, ad) == pt, msg


def test_gcm(cases):
    for _ in range(cases):
        k = os.urandom(keylen())
        nonce = os.urandom(rng.choice([12, 12, 8, 16, 60]))
        ad = os.urandom(length()) if rng.random() < 0.7 else None
        roundtrip(k, aesir.AESGCM(k), aead.AESGCM(k), nonce, os.urandom(length()), ad)


def test_ccm(cases):
    for _ in range(cases):
        k = os.urandom(keylen())
        t = rng.choice([4, 6, 8, 10, 12, 14, 16])
        nonce = os.urandom(rng.randrange(7, 14))
        ad = os.urandom(length()) if rng.random() < 0.7 else None
        pt = os.urandom(length())
        roundtrip(k, aesir.AESCCM(k, t), aead.AESCCM(k, t), nonce, pt, ad)


def test_ocb3(cases):
    for _ in range(cases):
        k = os.urandom(keylen())
        nonce = os.urandom(rng.randrange(12, 16))
        ad = os.urandom(length()) if rng.random() < 0.7 else None
        pt = os.urandom(length())
        roundtrip(k, aesir.AESOCB3(k), aead.AESOCB3(k), nonce, pt, ad)


def test_gcm_siv(cases):
    if not hasattr(aead, "AESGCMSIV"):
        pytest.skip("this pyca/cryptography has no AESGCMSIV")
    for _ in range(cases):
        k = os.urandom(rng.choice([16, 32]))
        ad = os.urandom(length()) if rng.random() < 0.7 else None
        pt = os.urandom(length())
        roundtrip(k, aesir.AESGCMSIV(k), aead.AESGCMSIV(k), os.urandom(12), pt, ad)


def test_siv(cases):
    for _ in range(cases):
        k = os.urandom(keylen((32, 48, 64)))
        ads = [os.urandom(length()) for _ in range(rng.randrange(4))] or None
        pt = os.urandom(length())
        ours, theirs = aesir.AESSIV(k), aead.AESSIV(k)
        ct = ours.encrypt(pt, ads)
        if not pyca_refuses_empty(pt):
            assert ct == theirs.encrypt(pt, ads)
        assert ours.decrypt(ct, ads) == pt


def test_cmac(cases):
    for _ in range(cases):
        k, msg = os.urandom(keylen()), os.urandom(length())
        c = pyca_cmac.CMAC(algorithms.AES(k))
        c.update(msg)
        tag = c.finalize()
        assert aesir.cmac(k, msg) == tag
        ours = aesir.CMAC(k)
        cut = rng.randrange(len(msg) + 1)
        ours.update(msg[:cut])
        ours.update(msg[cut:])
        assert ours.finalize() == tag


def test_keywrap(cases):
    for _ in range(cases // 4):
        kek = os.urandom(keylen())
        key = os.urandom(8 * rng.randrange(2, 9))
        assert aesir.aes_key_wrap(kek, key) == pyca_kw.aes_key_wrap(kek, key)
        any_key = os.urandom(rng.randrange(1, 70))
        w = pyca_kw.aes_key_wrap_with_padding(kek, any_key)
        assert aesir.aes_key_wrap_with_padding(kek, any_key) == w
        assert aesir.aes_key_unwrap_with_padding(kek, w) == any_key


def test_xts(cases):
    for _ in range(cases):
        k = os.urandom(rng.choice([32, 64]))
        if k[: len(k) // 2] == k[len(k) // 2 :]:
            continue
        sector = rng.randrange(1 << 64)
        data = os.urandom(rng.randrange(16, 2000))
        ours = aesir.XTS(k)
        tweak = sector.to_bytes(16, "little")
        ref = Cipher(algorithms.AES(k), modes.XTS(tweak)).encryptor().update(data)
        assert ours.encrypt(sector, data) == ref
        assert ours.encrypt(tweak, data) == ref
        assert ours.decrypt(sector, ref) == data


BLOCK_MODES = [
    ("ECB", lambda k, iv: hazmat.ECB(k), lambda iv: modes.ECB(), True),
    ("CBC", lambda k, iv: hazmat.CBC(k, iv), lambda iv: modes.CBC(iv), True),
    ("CFB", lambda k, iv: hazmat.CFB(k, iv), lambda iv: modes.CFB(iv), False),
    ("CFB8", lambda k, iv: hazmat.CFB8(k, iv), lambda iv: modes.CFB8(iv), False),
    ("OFB", lambda k, iv: hazmat.OFB(k, iv), lambda iv: modes.OFB(iv), False),
    ("CTR", lambda k, iv: hazmat.CTR(k, iv), lambda iv: modes.CTR(iv), False),
]


@pytest.mark.parametrize("name,ours,theirs,blocks", BLOCK_MODES)
def test_block_modes(cases, name, ours, theirs, blocks):
    for _ in range(cases // 4):
        k, iv = os.urandom(keylen()), os.urandom(16)
        n = length()
        if blocks:
            n -= n % 16
        data = os.urandom(n)
        c = Cipher(algorithms.AES(k), theirs(iv)).encryptor()
        ref = c.update(data) + c.finalize()
        m = ours(k, iv)
        assert m.encrypt(data) == ref, name
        # Streaming, cut anywhere, gives the same bytes.
        e = m.encryptor()
        cut = rng.randrange(n + 1)
        assert e.update(data[:cut]) + e.update(data[cut:]) + e.finalize() == ref
        assert m.decrypt(ref) == data
