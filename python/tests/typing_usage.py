"""Typed use of the aesir package, for mypy --strict (make python-test runs
it against the installed wheel, so the wheel's py.typed and .pyi stubs
are what is checked) and run for real by test_typing.py, so it cannot go
stale. assert_type fails the mypy run when an API's type is not the
one written here (an Any where bytes was meant, say)."""

import io
import os
from typing import List, Tuple, assert_type

import aesir
from aesir import chunked, hazmat


def aeads() -> List[bytes]:
    key = aesir.AESGCM.generate_key(256)
    gcm = aesir.AESGCM(key, engine=aesir.default_engine())
    nonce = os.urandom(12)
    ct = gcm.encrypt(nonce, b"data", b"aad")
    assert_type(ct, bytes)
    assert_type(gcm.decrypt(nonce, ct, b"aad"), bytes)
    buf = bytearray(len(ct))
    assert_type(gcm.encrypt_into(nonce, b"data", b"aad", buf), int)
    assert_type(gcm.engine, str | None)
    assert_type(gcm.ghash_engine, str)

    enc = gcm.encryptor(nonce)
    enc.authenticate_additional_data(b"aad")
    part: bytes = enc.update(b"da") + enc.update(memoryview(b"ta")) + enc.finalize()
    tag: bytes = enc.tag
    dec = gcm.decryptor(nonce)
    dec.authenticate_additional_data(b"aad")
    assert dec.update(part) + dec.finalize_with_tag(tag) == b"data"

    ccm = aesir.AESCCM(aesir.AESCCM.generate_key(128), tag_length=8)
    ocb = aesir.AESOCB3(aesir.AESOCB3.generate_key())
    siv = aesir.AESSIV(aesir.AESSIV.generate_key(512))
    s = siv.encrypt(b"data", [b"header"], nonce=b"n")
    assert_type(siv.decrypt(s, [b"header"], nonce=b"n"), bytes)
    x = aesir.XAES256GCM(aesir.XAES256GCM.generate_key())
    a = aesir.AEGIS256(aesir.AEGIS256.generate_key(), tag_length=32)
    assert_type(a.path, str)
    ae = a.encryptor(os.urandom(32))
    ae.update(b"x")
    ae.finalize()
    outs = [
        ccm.encrypt(os.urandom(13), b"d", None),
        ocb.encrypt(os.urandom(12), b"d", None),
        x.encrypt(os.urandom(24), b"d", None),
        ae.tag,
        s,
    ]
    return outs


def others() -> Tuple[bytes, bytes, bytes]:
    key = aesir.generate_key(128)
    mac: bytes = aesir.cmac(key, b"msg")
    c = aesir.CMAC(key)
    c.update(b"msg")
    c.verify(mac)
    w = aesir.aes_key_wrap(key, bytes(16))
    assert aesir.aes_key_unwrap(key, w) == bytes(16)
    xts = aesir.XTS(os.urandom(64))
    sector = xts.encrypt(7, bytes(512))
    cbc = hazmat.CBC(key, bytes(16), padding="pkcs7")
    return mac, sector, cbc.encrypt(b"x")


def engines() -> List[str]:
    names: List[str] = [e.name for e in aesir.engines() if e.available and e.constant_time]
    aesir.selftest(names[0])
    return names


def files() -> bytes:
    key = chunked.generate_key()
    line: str = chunked.format_key(key)
    assert line.startswith("aesir-key-v1-")
    b = io.BytesIO()
    with chunked.open(b, "wb", key=key, context=b"ctx") as w:
        assert_type(w, chunked.ChunkedWriter)
        n: int = w.write(b"hello")
        assert n == 5
    r = chunked.open(io.BytesIO(b.getvalue()), "rb", key=key, context=b"ctx")
    assert_type(r, chunked.ChunkedReader)
    size = r.size
    assert_type(size, int | None)
    r.seek(1)
    data = r.read()
    try:
        chunked.open(io.BytesIO(b.getvalue()), key=os.urandom(32))
    except chunked.ChunkedError as e:
        assert_type(e.reason, str)
        assert_type(e.offset, int)
        assert isinstance(e, aesir.InvalidTag)
    return data


def main() -> None:
    assert len(aeads()) == 5
    assert len(others()[0]) == 16
    assert engines()
    assert files() == b"ello"


if __name__ == "__main__":
    main()
