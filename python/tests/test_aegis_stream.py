"""Incremental AEGIS (encryptor()/decryptor() over the C API's
aesir_aegis_start/_aad/_encrypt_update/_decrypt_update_unverified/
_finish/_verify/_abort): the same bytes as the one-shot calls at random
splits of the associated data and the message, for every variant and
both tag lengths; calls out of order raise ValueError; a changed tag or
ciphertext raises InvalidTag."""

import os
import random

import pytest

import aesir

VARIANTS = [
    aesir.AEGIS128L,
    aesir.AEGIS256,
    aesir.AEGIS128X2,
    aesir.AEGIS128X4,
    aesir.AEGIS256X2,
    aesir.AEGIS256X4,
]
IDS = [v.__name__ for v in VARIANTS]


def nonce_for(cls):
    return os.urandom(16 if cls.__name__.startswith("AEGIS128") else 32)


def splits(rng, data):
    """data cut at random points (empty pieces included)."""
    cuts = sorted(rng.randrange(len(data) + 1) for _ in range(rng.randrange(5)))
    return [data[a:b] for a, b in zip([0] + cuts, cuts + [len(data)])]


@pytest.mark.parametrize("cls", VARIANTS, ids=IDS)
@pytest.mark.parametrize("tag_length", [16, 32])
def test_random_splits_equal_one_shot(cls, tag_length):
    rng = random.Random(cls.__name__ + str(tag_length))
    a = cls(cls.generate_key(), tag_length=tag_length)
    for _ in range(60):
        n = nonce_for(cls)
        msg = os.urandom(rng.choice([0, 1, 15, 16, 31, 32, 63, 64, 65, 255, 256, 1000, 5000]))
        aad = os.urandom(rng.choice([0, 1, 17, 64, 100]))
        want = a.encrypt(n, msg, aad)
        e = a.encryptor(n)
        for p in splits(rng, aad):
            e.authenticate_additional_data(p)
        ct = b""
        for p in splits(rng, msg):
            if rng.random() < 0.5:
                ct += e.update(p)
            else:
                buf = bytearray(len(p) + 3)
                assert e.update_into(p, buf) == len(p)
                ct += bytes(buf[: len(p)])
        ct += e.finalize()
        assert ct + e.tag == want and len(e.tag) == tag_length
        d = a.decryptor(n)
        for p in splits(rng, aad):
            d.authenticate_additional_data(p)
        pt = b"".join(d.update(p) for p in splits(rng, ct))
        pt += d.finalize_with_tag(want[len(msg) :])
        assert pt == msg


@pytest.mark.parametrize("engine", ["ct64", None])
def test_large_message_in_updates(engine):
    """1 MiB in 16 KiB updates (the GIL is released from 4 KiB on)."""
    a = aesir.AEGIS256(aesir.AEGIS256.generate_key(), engine=engine)
    n, msg = os.urandom(32), os.urandom(1 << 20)
    e = a.encryptor(n)
    ct = b"".join(e.update(msg[i : i + 16384]) for i in range(0, len(msg), 16384))
    ct += e.finalize()
    assert ct + e.tag == a.encrypt(n, msg, None)


def test_bad_call_order():
    a = aesir.AEGIS128L(aesir.AEGIS128L.generate_key())
    n = os.urandom(16)
    e = a.encryptor(n)
    e.update(b"data")
    with pytest.raises(ValueError):
        e.authenticate_additional_data(b"late")  # AAD after data
    e = a.encryptor(n)
    with pytest.raises(ValueError):
        e.tag  # before finalize()
    with pytest.raises(ValueError):
        e.finalize_with_tag(bytes(16))  # an encryptor
    e.finalize()
    for call in (lambda: e.update(b"x"), e.finalize, lambda: e.authenticate_additional_data(b"")):
        with pytest.raises(ValueError):
            call()
    d = a.decryptor(n)
    with pytest.raises(ValueError):
        d.finalize()  # a decryptor ends with finalize_with_tag
    with pytest.raises(ValueError):
        a.encryptor(os.urandom(12))  # wrong nonce length
    with pytest.raises(ValueError):
        aesir.AEGIS256(bytes(32)).decryptor(bytes(16))


def test_tampering_raises():
    a = aesir.AEGIS256(aesir.AEGIS256.generate_key(), tag_length=32)
    n, msg, aad = os.urandom(32), os.urandom(300), b"hdr"
    ct = a.encrypt(n, msg, aad)
    body, tag = ct[:-32], ct[-32:]
    for bad_body, bad_tag, bad_aad in [
        (body, tag[:-1] + bytes([tag[-1] ^ 1]), aad),
        (bytes([body[0] ^ 1]) + body[1:], tag, aad),
        (body, tag, b"hdR"),
        (body[:-1], tag, aad),
    ]:
        d = a.decryptor(n)
        d.authenticate_additional_data(bad_aad)
        d.update(bad_body)
        with pytest.raises(aesir.InvalidTag):
            d.finalize_with_tag(bad_tag)
        with pytest.raises(ValueError):
            d.update(b"")  # finished, and wiped
    d = a.decryptor(n)
    d.authenticate_additional_data(aad)
    assert d.update(body) == msg
    assert d.finalize_with_tag(tag) == b""
