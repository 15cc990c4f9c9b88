"""The Python API itself: engines, the engine= keyword, buffers (bytes,
bytearray, memoryview, numpy) and *_into, incremental GCM, AEGIS and
XAES known answers (draft-irtf-cfrg-aegis-aead appendix A, C2SP's
XAES-256-GCM examples, as tests/test_aegis.c and tests/test_xaes.c use
them), and misuse raising the documented exceptions."""

import os

import pytest

import aesir
from aesir import hazmat

ALL_AEAD = [
    (aesir.AESGCM, 16, 12),
    (aesir.AESCCM, 16, 13),
    (aesir.AESOCB3, 16, 12),
    (aesir.AESGCMSIV, 16, 12),
    (aesir.XAES256GCM, 32, 24),
    (aesir.AEGIS128L, 16, 16),
    (aesir.AEGIS256, 32, 32),
    (aesir.AEGIS128X2, 16, 16),
    (aesir.AEGIS128X4, 16, 16),
    (aesir.AEGIS256X2, 32, 32),
    (aesir.AEGIS256X4, 32, 32),
]
IDS = [c.__name__ for c, _, _ in ALL_AEAD]


# ---- engines ----


def test_engine_list():
    es = aesir.engines()
    names = [e.name for e in es]
    assert len(names) == len(set(names)) and "ref" in names and "ct64" in names
    d = aesir.default_engine()
    (de,) = [e for e in es if e.name == d]
    assert de.available and de.constant_time
    ref = es[names.index("ref")]
    assert ref.available and not ref.constant_time and not ref.hardware
    assert aesir.default_engine(ghash=True) in [e.name for e in aesir.ghash_engines()]


def available():
    return [e.name for e in aesir.engines() if e.available]


@pytest.mark.parametrize("engine", available())
def test_gcm_every_engine(engine):
    k, n, m, a = os.urandom(32), os.urandom(12), os.urandom(1000), b"ad"
    want = aesir.AESGCM(k, engine="ref").encrypt(n, m, a)
    g = aesir.AESGCM(k, engine=engine)
    assert g.engine == engine
    assert g.encrypt(n, m, a) == want
    assert g.decrypt(n, want, a) == m
    aesir.selftest(engine)


@pytest.mark.parametrize(
    "ghash", [e.name for e in aesir.ghash_engines() if e.available]
)
def test_gcm_every_ghash_engine(ghash):
    k, n, m = os.urandom(16), os.urandom(12), os.urandom(777)
    want = aesir.AESGCM(k, engine="ref").encrypt(n, m, None)
    g = aesir.AESGCM(k, ghash_engine=ghash)
    assert g.ghash_engine == ghash and g.encrypt(n, m, None) == want


def test_engine_keyword_everywhere():
    k = os.urandom(32)
    for obj in [
        aesir.AESCCM(k, engine="ct64"),
        aesir.AESOCB3(k, engine="ct64"),
        aesir.AESGCMSIV(k, engine="ct64"),
        aesir.AEGIS256(k, engine="ct64"),
        aesir.CMAC(k, engine="ct64"),
        aesir.XTS(os.urandom(64), engine="ct64"),
        hazmat.CTR(k, bytes(16), engine="ct64").encryptor(),
    ]:
        assert obj.engine == "ct64", type(obj)
    aesir.AESSIV(os.urandom(64), engine="ct64")
    aesir.XAES256GCM(k, engine="ct64")
    w = aesir.aes_key_wrap(k, k, engine="ct64")
    assert aesir.aes_key_unwrap(k, w, engine="ref") == k


def test_engine_errors():
    with pytest.raises(aesir.EngineError):
        aesir.AESGCM(bytes(16), engine="no-such-engine")
    assert issubclass(aesir.EngineError, ValueError)
    missing = [e.name for e in aesir.engines() if not e.available]
    for name in missing:
        with pytest.raises(aesir.EngineError):
            aesir.AESGCM(bytes(16), engine=name)
    with pytest.raises(TypeError):
        aesir.AESGCM(bytes(16), engine=5)


# ---- known answers only aesir has ----


def test_aegis_draft_vectors():
    k = bytes.fromhex("10010000000000000000000000000000")
    n = bytes.fromhex("10000200000000000000000000000000")
    ad = bytes.fromhex("0001020304050607")
    m = bytes(range(32))
    ct = bytes.fromhex(
        "79d94593d8c2119d7e8fd9b8fc77845c5c077a05b2528b6ac54b563aed8efe84"
    )
    tag = bytes.fromhex("cc6f3372f6aa1bb82388d695c3962d9a")
    assert aesir.AEGIS128L(k).encrypt(n, m, ad) == ct + tag  # A.2.4
    k2, n2 = k + bytes(16), n + bytes(16)
    ct2 = bytes.fromhex(
        "f373079ed84b2709faee373584585d60accd191db310ef5d8b11833df9dec711"
    )
    tag2 = bytes.fromhex(
        "b7d28d0c3c0ebd409fd22b44160503073a547412da0854bfb9723020dab8da1a"
    )
    assert aesir.AEGIS256(k2, 32).encrypt(n2, m, ad) == ct2 + tag2  # A.3.4


def test_xaes_c2sp_vectors():
    n = b"ABCDEFGHIJKLMNOPQRSTUVWX"
    x = aesir.XAES256GCM(b"\x01" * 32)
    c1 = "ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271"
    assert x.encrypt(n, b"XAES-256-GCM", None).hex() == c1
    c3 = "986ec1832593df5443a179437fd083bf3fdb41abd740a21f71eb769d"
    y = aesir.XAES256GCM(b"\x03" * 32)
    assert y.encrypt(n, b"XAES-256-GCM", b"c2sp.org/XAES-256-GCM").hex() == c3


@pytest.mark.parametrize("cls,klen,nlen", ALL_AEAD, ids=IDS)
def test_roundtrip_and_tamper(cls, klen, nlen):
    k = cls.generate_key(klen * 8)
    assert len(k) == klen
    o = cls(k)
    n, m, a = os.urandom(nlen), os.urandom(100), b"header"
    ct = o.encrypt(n, m, a)
    assert o.decrypt(n, ct, a) == m
    for bad in (
        (n, ct[:-1] + bytes([ct[-1] ^ 1]), a),  # tag
        (n, bytes([ct[0] ^ 0x80]) + ct[1:], a),  # ciphertext
        (n, ct, a + b"!"),  # associated data
        (bytes([n[0] ^ 1]) + n[1:], ct, a),  # nonce
        (n, ct[:10], a),  # shorter than a tag
    ):
        with pytest.raises(aesir.InvalidTag):
            o.decrypt(*bad)


def test_aegis_variants_differ():
    k, n, m = os.urandom(16), os.urandom(16), os.urandom(64)
    outs = {
        c(k).encrypt(n, m, None)
        for c in (aesir.AEGIS128L, aesir.AEGIS128X2, aesir.AEGIS128X4)
    }
    assert len(outs) == 3


# ---- buffers ----


def test_buffer_types_and_into():
    np = pytest.importorskip("numpy")
    k, n = os.urandom(16), os.urandom(12)
    g = aesir.AESGCM(k)
    m = os.urandom(300)
    want = g.encrypt(n, m, b"ad")
    for conv in (bytes, bytearray, memoryview, lambda b: np.frombuffer(b, np.uint8)):
        assert g.encrypt(conv(n), conv(m), conv(b"ad")) == want
    # numpy in, numpy out: written in place in the caller's array.
    out = np.zeros(400, dtype=np.uint8)
    assert g.encrypt_into(n, np.frombuffer(m, np.uint8), b"ad", out) == 316
    assert out[:316].tobytes() == want and not out[316:].any()
    pt = bytearray(316)
    assert g.decrypt_into(n, out[:316], b"ad", pt) == 300 and pt[:300] == m
    # In place: output over the input.
    buf = bytearray(m) + bytearray(16)
    assert g.encrypt_into(n, memoryview(buf)[:300], b"ad", buf) == 316
    assert bytes(buf) == want


def test_into_errors():
    g = aesir.AESGCM(os.urandom(16))
    n, m = os.urandom(12), os.urandom(64)
    with pytest.raises(ValueError):
        g.encrypt_into(n, m, None, bytearray(79))  # one byte short
    buf = bytearray(100)
    with pytest.raises(ValueError):  # partial overlap
        g.encrypt_into(n, memoryview(buf)[:64], None, memoryview(buf)[8:])
    with pytest.raises(TypeError):
        g.encrypt_into(n, m, None, b"\0" * 80)  # read-only output
    ct = g.encrypt(n, m, None)
    out = bytearray(b"\xaa" * 64)
    with pytest.raises(aesir.InvalidTag):
        # the tag's last byte flipped (not set to 0: it may be 0 already)
        g.decrypt_into(n, ct[:-1] + bytes([ct[-1] ^ 1]), None, out)
    assert out != bytearray(m)  # no plaintext released


def test_wrong_types():
    g = aesir.AESGCM(bytes(16))
    for args in (
        ("n" * 12, b"m", None),
        (bytes(12), "m", None),
        (bytes(12), 5, None),
        (bytes(12), b"m", "ad"),
        (None, b"m", None),
    ):
        with pytest.raises(TypeError):
            g.encrypt(*args)
    with pytest.raises(TypeError):
        aesir.AESGCM("0" * 16)
    with pytest.raises(TypeError):
        g.encrypt(bytes(12))  # data missing
    assert g.encrypt(nonce=bytes(12), data=b"m", associated_data=None) == g.encrypt(
        bytes(12), b"m"
    )


# ---- misuse: sizes ----


@pytest.mark.parametrize(
    "make",
    [
        lambda: aesir.AESGCM(bytes(15)),
        lambda: aesir.AESCCM(bytes(17)),
        lambda: aesir.AESCCM(bytes(16), tag_length=5),
        lambda: aesir.AESOCB3(bytes(33)),
        lambda: aesir.AESGCMSIV(bytes(20)),
        lambda: aesir.AESSIV(bytes(16)),
        lambda: aesir.XAES256GCM(bytes(16)),
        lambda: aesir.AEGIS128L(bytes(32)),
        lambda: aesir.AEGIS256(bytes(16)),
        lambda: aesir.AEGIS128L(bytes(16), tag_length=8),
        lambda: aesir.XTS(bytes(40)),
        lambda: aesir.XTS(bytes(32)),  # equal halves: weak
        lambda: aesir.CMAC(bytes(10)),
        lambda: hazmat.CBC(bytes(16), bytes(15)),
        lambda: hazmat.ECB(bytes(16), padding="iso"),
        lambda: hazmat.CTR(bytes(16), bytes(16), counter_bits=16),
    ],
)
def test_bad_sizes_at_construction(make):
    with pytest.raises(ValueError):
        make()


@pytest.mark.parametrize(
    "cls,klen,bad",
    [
        (aesir.AESGCM, 16, 0),
        (aesir.AESCCM, 16, 6),
        (aesir.AESCCM, 16, 14),
        (aesir.AESOCB3, 16, 16),
        (aesir.AESGCMSIV, 16, 11),
        (aesir.XAES256GCM, 32, 12),
        (aesir.AEGIS128L, 16, 12),
        (aesir.AEGIS256, 32, 16),
    ],
)
def test_bad_nonce(cls, klen, bad):
    o = cls(bytes(klen))
    with pytest.raises(ValueError):
        o.encrypt(bytes(bad), b"data", None)
    with pytest.raises(ValueError):
        o.decrypt(bytes(bad), bytes(40), None)


def test_misc_misuse():
    with pytest.raises(ValueError):
        aesir.aes_key_wrap(bytes(16), bytes(12))  # KW: multiple of 8, >= 16
    with pytest.raises(aesir.InvalidUnwrap):
        aesir.aes_key_unwrap(bytes(16), bytes(24))
    x = aesir.XTS(os.urandom(32))
    with pytest.raises(ValueError):
        x.encrypt(0, bytes(15))
    with pytest.raises(ValueError):
        x.encrypt(bytes(8), bytes(16))  # tweak not 16 bytes
    with pytest.raises(ValueError):
        x.encrypt_sectors(0, 512, bytes(1000))  # not whole sectors
    c = aesir.CMAC(bytes(16))
    c.update(b"abc")
    with pytest.raises(aesir.InvalidTag):
        c.verify(bytes(16))
    with pytest.raises(ValueError):
        c.update(b"more")  # finished
    with pytest.raises(aesir.InvalidTag):
        aesir.CMAC(bytes(16)).verify_tag(b"abc", bytes(16))
    with pytest.raises(ValueError):
        hazmat.CBC(bytes(16), bytes(16)).encrypt(bytes(17))  # no padding
    p = hazmat.CBC(bytes(16), bytes(16), padding="pkcs7")
    with pytest.raises(ValueError):
        p.decrypt(hazmat.CBC(bytes(16), bytes(16)).encrypt(bytes(32)))  # pad 0
    e = hazmat.CTR(bytes(16), b"\xff" * 16, counter_bits=32).encryptor()
    e.update(bytes(16))
    with pytest.raises(ValueError):
        e.update(bytes(16))  # the 32-bit counter would wrap


def test_xts_sectors_match_single_units():
    x = aesir.XTS(os.urandom(64))
    data = os.urandom(4 * 512)
    many = x.encrypt_sectors(7, 512, data)
    one = b"".join(x.encrypt(7 + i, data[i * 512 : (i + 1) * 512]) for i in range(4))
    assert many == one and x.decrypt_sectors(7, 512, many) == data


# ---- incremental GCM ----


def test_gcm_stream():
    k, n = os.urandom(32), os.urandom(12)
    g = aesir.AESGCM(k)
    m, a = os.urandom(5000), os.urandom(40)
    want = g.encrypt(n, m, a)
    e = g.encryptor(n)
    e.authenticate_additional_data(a[:13])
    e.authenticate_additional_data(a[13:])
    out = bytearray(len(m))
    parts = [e.update(m[:1]), e.update(m[1:4097])]
    assert e.update_into(m[4097:], out) == len(m) - 4097
    ct = b"".join(parts) + bytes(out[: len(m) - 4097]) + e.finalize()
    assert ct + e.tag == want
    d = g.decryptor(n)
    d.authenticate_additional_data(a)
    assert d.update(ct) == m
    d.finalize_with_tag(e.tag)
    bad = g.decryptor(n)
    bad.update(ct)
    with pytest.raises(aesir.InvalidTag):
        bad.finalize_with_tag(bytes(16))
    late = g.encryptor(n)
    late.update(b"x")
    with pytest.raises(ValueError):
        late.authenticate_additional_data(b"too late")
    with pytest.raises(ValueError):
        g.encryptor(n).tag  # no tag before finalize


def test_non_contiguous_is_type_error():
    g = aesir.AESGCM(bytes(16))
    with pytest.raises(TypeError):
        g.encrypt(bytes(12), memoryview(bytes(64))[::2], None)


@pytest.mark.parametrize("kind", ["ccm", "ocb3"])
def test_ccm_ocb_stream(kind):
    k, m, a = os.urandom(16), os.urandom(1000), os.urandom(33)
    if kind == "ccm":
        o, n = aesir.AESCCM(k, 12), os.urandom(11)
        e, d = o.encryptor(n, len(m), len(a)), o.decryptor(n, len(m), len(a))
    else:
        o, n = aesir.AESOCB3(k), os.urandom(12)
        e, d = o.encryptor(n), o.decryptor(n)
    want = o.encrypt(n, m, a)
    e.authenticate_additional_data(a)
    ct = e.update(m[:7]) + e.update(m[7:500]) + e.update(m[500:]) + e.finalize()
    assert ct + e.tag == want
    d.authenticate_additional_data(a)
    pt = d.update(ct[:300]) + d.update(ct[300:])
    pt += d.finalize_with_tag(e.tag)
    assert pt == m
    bad = o.decryptor(n, len(m), len(a)) if kind == "ccm" else o.decryptor(n)
    bad.authenticate_additional_data(a)
    bad.update(ct)
    with pytest.raises(aesir.InvalidTag):
        bad.finalize_with_tag(bytes(len(e.tag)))


def test_ccm_stream_lengths_enforced():
    o = aesir.AESCCM(os.urandom(16))
    e = o.encryptor(os.urandom(13), 10)
    e.update(bytes(5))
    with pytest.raises(ValueError):
        e.finalize()  # 5 of the 10 bytes announced


def test_ccm_length_limit():
    c = aesir.AESCCM(bytes(16))
    with pytest.raises(ValueError, match="too long"):
        c.encrypt(bytes(13), bytes(1 << 16), None)  # 13-byte nonce: < 2^16
    assert len(c.encrypt(bytes(12), bytes(1 << 16), None)) == (1 << 16) + 16
