"""aesir.chunked, the C2SP chunked-encryption file objects: round trips at
the chunk-size edges, a byte-exact comparison with an independent model
(pyca/cryptography's HKDFExpand and AESGCM, as tests/chunked_kat.py: the
spec publishes no vectors), interop both ways with the `aesir` tool,
every damaged-file case the spec lists, random access against the whole
plaintext, what a writer leaves when it is aborted, key files and
passphrase files.

The tool is found through AESIR_TOOL (ctest and make python-test set it);
without it the interop tests skip and say why."""

import io
import os
import random
import shutil
import stat
import subprocess

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM as PycaGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand

import aesir
from aesir import _c2sp, chunked

SIZES = [0, 1, 16383, 16384, 16385, 32768, 3 * 1024 * 1024 + 5]


def model(key, salt, ctx, msg, final_chunk=True):
    """The format from its definition, on pyca (final_chunk=False: leaves
    the empty final chunk out, to make a file the spec forbids)."""
    aead = b"AEAD_AES_%d_GCM" % (len(key) * 8)
    info = b"c2sp.org/chunked-encryption@v1+" + aead + b"\0" + salt + ctx
    okm = HKDFExpand(hashes.SHA512(), len(key) + 44, info).derive(key)
    k, base, com = okm[: len(key)], okm[len(key) : len(key) + 12], okm[len(key) + 12 :]
    chunks = [msg[i : i + 16384] for i in range(0, len(msg), 16384)]
    if final_chunk and (not chunks or len(chunks[-1]) == 16384):
        chunks.append(b"")
    g = PycaGCM(k)
    out = [salt, com]
    for i, ch in enumerate(chunks):
        n = (int.from_bytes(base, "big") ^ i).to_bytes(12, "big")
        out.append(g.encrypt(n, ch, None))
    return b"".join(out)


class Pipe(io.RawIOBase):
    """A non-seekable source returning at most `step` bytes per read."""

    def __init__(self, data, step=5000):
        self._d = io.BytesIO(data)
        self._step = step

    def readable(self):
        return True

    def readinto(self, b):
        return self._d.readinto(memoryview(b)[: self._step])


def seal(key, msg, ctx=b"", writes=None):
    b = io.BytesIO()
    with chunked.open(b, "wb", key=key, context=ctx) as w:
        if writes is None:
            w.write(msg)
        else:
            at = 0
            for n in writes:
                w.write(msg[at : at + n])
                at += n
            w.write(msg[at:])
    return b.getvalue()


# ---- round trips and the model ----


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("klen", [16, 32])
def test_round_trip(n, klen):
    key, msg = os.urandom(klen), os.urandom(n)
    rng = random.Random(n)
    writes = [rng.randrange(0, 40000) for _ in range(rng.randrange(0, 6))]
    ct = seal(key, msg, b"ctx", writes)
    assert len(ct) == 56 + n + 16 * (n // 16384 + 1)
    # byte for byte what the independent model makes with the same salt
    assert ct == model(key, ct[:24], b"ctx", msg)
    r = chunked.open(io.BytesIO(ct), "rb", key=key, context=b"ctx")
    assert r.seekable() and r.size == n and r.read() == msg and r.read() == b""
    r = chunked.open(Pipe(ct, rng.randrange(1, 20000)), "rb", key=key, context=b"ctx")
    assert not r.seekable() and r.size is None
    got = bytearray()
    while True:
        part = r.read(rng.choice([1, 100, 16384, 50000]))
        if not part:
            break
        got += part
    assert got == msg and r.tell() == n


def test_model_files_decrypt():
    for klen in (16, 32):
        key, salt = os.urandom(klen), os.urandom(24)
        for n in (0, 5, 16384, 16389, 40000):
            msg = os.urandom(n)
            ct = model(key, salt, b"c", msg)
            assert chunked.open(io.BytesIO(ct), "rb", key=key, context=b"c").read() == msg
            assert chunked.open(Pipe(ct), "rb", key=key, context=b"c").read() == msg


def test_hkdf_expand():
    # RFC 5869 A.1 and A.3 (SHA-256: the RFC has no SHA-512 cases) ...
    prk = bytes.fromhex("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5")
    okm = _c2sp.hkdf_expand(prk, bytes(range(0xF0, 0xFA)), 42, "sha256")
    assert okm.hex() == (
        "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
        "34007208d5b887185865"
    )
    prk = bytes.fromhex("19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04")
    okm = _c2sp.hkdf_expand(prk, b"", 42, "sha256")
    assert okm.hex() == (
        "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d"
        "9d201395faa4b61a96c8"
    )
    # ... and SHA-512 against pyca at every length the format and more use
    for n in (1, 60, 64, 65, 76, 128, 200):
        prk, info = os.urandom(32), os.urandom(n)
        want = HKDFExpand(hashes.SHA512(), n, info).derive(prk)
        assert _c2sp.hkdf_expand(prk, info, n) == want


# ---- random access ----


def test_random_access():
    key, n = os.urandom(32), 5 * 16384 + 1234
    msg = os.urandom(n)
    r = chunked.open(io.BytesIO(seal(key, msg)), "rb", key=key)
    rng = random.Random(7)
    for _ in range(300):
        off = rng.choice([0, rng.randrange(n + 10), 16384 * rng.randrange(6) + rng.choice([-1, 0, 1])])
        off = max(off, 0)
        ln = rng.choice([0, 1, 15, 16384, 16385, 40000, rng.randrange(n)])
        assert r.seek(off) == off
        if rng.random() < 0.5:
            got = r.read(ln)
        else:
            buf = bytearray(ln + 3)
            k = r.readinto(memoryview(buf)[:ln])
            got = bytes(buf[:k])
            assert buf[k:] == bytes(len(buf) - k)
        assert got == msg[off : off + ln]
        assert r.tell() == off + len(got)
    assert r.seek(-10, io.SEEK_END) == n - 10 and r.read() == msg[-10:]
    r.seek(100)
    assert r.seek(50, io.SEEK_CUR) == 150 and r.read(5) == msg[150:155]
    with pytest.raises(ValueError):
        r.seek(-1)
    r.close()
    with pytest.raises(ValueError):
        r.read(1)


def test_random_access_reads_only_its_chunks():
    key, msg = os.urandom(16), os.urandom(10 * 16384 + 7)
    ct = bytearray(seal(key, msg))
    ct[56 + 3 * 16400 + 9] ^= 1  # chunk 3 damaged
    r = chunked.open(io.BytesIO(bytes(ct)), "rb", key=key)
    r.seek(5 * 16384 + 10)
    assert r.read(30000) == msg[5 * 16384 + 10 : 5 * 16384 + 30010]
    r.seek(3 * 16384 - 5)
    assert r.read(5) == msg[3 * 16384 - 5 : 3 * 16384]
    with pytest.raises(chunked.ChunkedError) as e:
        r.read(1)
    assert e.value.reason == "auth" and e.value.chunk == 3
    assert e.value.offset == 56 + 3 * 16400 and "chunk 3" in str(e.value)


# ---- damaged files ----


def errors(ct, key, ctx=b""):
    """What a seekable reader and an in-order reader say about ct: the
    in-order one's authenticated prefix must be whole chunks of the
    message and nothing else."""
    out = []
    for src in (io.BytesIO(ct), Pipe(ct, 7000)):
        got = bytearray()
        with pytest.raises(aesir.InvalidTag) as e:
            r = chunked.open(src, "rb", key=key, context=ctx)
            while True:
                part = r.read(9999)
                assert part, "a clean end of file on a bad ciphertext"
                got += part
        out.append((e.value, bytes(got)))
    return out


def test_failures():
    key, msg = os.urandom(32), os.urandom(3 * 16384 + 100)
    ct = seal(key, msg)
    sealed = [ct[56 + i * 16400 : 56 + (i + 1) * 16400] for i in range(4)]

    def check(bad, reason, chunk=None, offset=None, ctx=b"", k=key):
        for err, prefix in errors(bad, k, ctx):
            assert isinstance(err, chunked.ChunkedError)
            assert err.reason == reason, (reason, err.reason, str(err))
            if chunk is not None:  # a tuple: either (by reading order)
                assert err.chunk in (chunk if isinstance(chunk, tuple) else (chunk,))
            if offset is not None:
                assert err.offset == offset and str(offset) in str(err)
            assert len(prefix) % 16384 == 0 and msg.startswith(prefix)

    check(ct, "commitment", None, 24, k=os.urandom(32))
    check(ct, "commitment", None, 24, ctx=b"x")
    for pos in (0, 23, 24, 55):  # salt and commitment
        bad = bytearray(ct)
        bad[pos] ^= 0x80
        check(bytes(bad), "commitment", None, 24)
    for pos in (56, 56 + 16383, 56 + 16399, 56 + 2 * 16400 + 5, len(ct) - 1, len(ct) - 17):
        bad = bytearray(ct)
        bad[pos] ^= 1
        k = (pos - 56) // 16400
        check(bytes(bad), "auth", k, 56 + k * 16400)
    check(ct[:56] + sealed[1] + sealed[0] + ct[56 + 2 * 16400 :], "auth", 0)  # swapped
    # chunk 1 dropped: the in-order reader finds chunk 1 wrong, the
    # random-access one the final chunk first (now chunk 2)
    check(ct[:56] + sealed[0] + sealed[2] + sealed[3], "auth", (1, 2))
    check(ct[:56] + sealed[0] + sealed[0] + ct[56 + 16400 :], "auth", (1, 4))  # repeated
    check(ct[:56] + sealed[0] + sealed[1] + sealed[3], "auth", 2)  # full chunk dropped
    # cut at every chunk boundary, inside each tag, inside the header
    for i in range(1, 4):
        check(ct[: 56 + i * 16400], "full-final", i - 1, 56 + i * 16400)
        check(ct[: 56 + i * 16400 + 7], "truncated", i, 56 + i * 16400 + 7)
        check(ct[: 56 + i * 16400 - 3], "auth", i - 1)
    check(ct[:56], "truncated", 0, 56)
    for n in (0, 1, 24, 55):
        check(ct[:n], "truncated", None, n)
    check(ct[:-1], "auth", 3)
    check(ct[:-16], "auth", 3)
    # trailing data after the final chunk, short and long
    check(ct + b"\0", "trailing", 3, len(ct))
    check(ct + os.urandom(16), "trailing", 3, len(ct))
    for err, _ in errors(ct + os.urandom(20000), key):
        assert err.reason in ("trailing", "auth")  # a whole extra chunk's worth


def test_last_chunk_of_exactly_the_chunk_size():
    """The spec: the final chunk is always shorter than 16384 bytes, so a
    16 KiB message is a full chunk and an empty one, and a file that ends
    after a full chunk is truncated."""
    key = os.urandom(32)
    for n in (16384, 2 * 16384):
        msg = os.urandom(n)
        ct = seal(key, msg)
        assert len(ct) == 56 + n + 16 * (n // 16384 + 1)  # the empty chunk
        bad = model(key, ct[:24], b"", msg, final_chunk=False)
        assert bad == ct[:-16]
        for err, prefix in errors(bad, key):
            assert err.reason == "full-final" and err.chunk == n // 16384 - 1
        assert chunked.open(io.BytesIO(ct), "rb", key=key).read() == msg


def test_empty_message():
    key = os.urandom(16)
    ct = seal(key, b"")
    assert len(ct) == 72
    for src in (io.BytesIO(ct), Pipe(ct)):
        r = chunked.open(src, "rb", key=key)
        assert r.read() == b"" and r.read(10) == b""
    for err, _ in errors(ct[:56] + ct[56:][::-1], key):
        assert err.reason == "auth" and err.chunk == 0


def test_too_many_chunks(monkeypatch):
    monkeypatch.setattr(_c2sp, "MAX_CHUNKS", 2)
    key = os.urandom(32)
    w = chunked.open(io.BytesIO(), "wb", key=key)
    w.write(bytes(2 * 16384))  # chunks 0 and 1; the final one would be 2
    with pytest.raises(ValueError, match="2\\^38"):
        w.close()
    assert w.closed


# ---- writers ----


def test_writer_aborted_by_exception(tmp_path):
    key, target = os.urandom(32), tmp_path / "out.enc"
    target.write_bytes(b"old contents")
    with pytest.raises(KeyError):
        with chunked.open(target, "wb", key=key) as w:
            w.write(os.urandom(40000))
            raise KeyError("boom")
    assert target.read_bytes() == b"old contents"  # untouched
    assert os.listdir(tmp_path) == ["out.enc"]  # no temporary file left
    b = io.BytesIO()
    with pytest.raises(KeyError):
        with chunked.open(b, "wb", key=key) as w:
            w.write(os.urandom(40000))
            raise KeyError("boom")
    assert len(b.getvalue()) == 56 + 2 * 16400  # the full chunks, no final one
    for err, _ in errors(b.getvalue(), key):
        assert err.reason == "full-final"


def test_writer_garbage_collected_is_not_finished(tmp_path):
    key, target = os.urandom(32), tmp_path / "gc.enc"
    w = chunked.open(target, "wb", key=key)
    w.write(b"abc")
    del w
    assert os.listdir(tmp_path) == []
    b = io.BytesIO()
    w = chunked.open(b, "wb", key=key)
    w.write(b"abc")
    del w
    assert len(b.getvalue()) == 56  # the header only: refused as truncated


def test_failed_write_aborts():
    """A write the file refuses ends the message: no later close() may
    make a valid-looking file without the lost bytes."""

    class Full(io.BytesIO):
        room = 56 + 16400 + 100

        def write(self, b):
            if self.tell() + len(b) > self.room:
                raise OSError(28, "No space left on device")
            return super().write(b)

    key, f = os.urandom(32), Full()
    w = chunked.open(f, "wb", key=key)
    w.write(bytes(16384))
    with pytest.raises(OSError):
        w.write(bytes(16384))
    assert w.closed
    w.close()  # no final chunk now
    for err, _ in errors(f.getvalue(), key):
        assert err.reason == "full-final"


def test_writer_to_path(tmp_path):
    key, msg = os.urandom(32), os.urandom(100000)
    target = tmp_path / "f.enc"
    with chunked.open(str(target), "wb", key=key) as w:
        assert w.writable() and not w.seekable()
        for i in range(0, len(msg), 3000):
            w.write(memoryview(msg)[i : i + 3000])
        assert w.tell() == len(msg)
        w.flush()
        assert not target.exists()  # in place only after close
    mode = stat.S_IMODE(os.stat(target).st_mode)
    umask = os.umask(0o22)
    os.umask(umask)
    assert mode == 0o666 & ~umask
    with chunked.open(target, "rb", key=key) as r:
        assert r.name == str(target) and r.read() == msg
    with pytest.raises(ValueError):
        w.write(b"x")


def test_open_arguments():
    with pytest.raises(ValueError):
        chunked.open(io.BytesIO(), "r", key=bytes(32))
    with pytest.raises(ValueError):
        chunked.open(io.BytesIO(), "wb", key=bytes(24))
    with pytest.raises(TypeError):
        chunked.open(io.BytesIO(), "wb")
    with pytest.raises(TypeError):
        chunked.open(io.BytesIO(), "wb", key=bytes(32), passphrase="x")
    r = chunked.open(io.BytesIO(seal(bytes(32), b"hi")), "rb", key=bytes(32))
    assert r.readable() and r.read(1) == b"h"
    with pytest.raises(io.UnsupportedOperation):
        chunked.open(Pipe(seal(bytes(32), b"hi")), "rb", key=bytes(32)).seek(0)


# ---- key files ----

KEYLINE = chunked.format_key(bytes(range(32)))


def test_key_file(tmp_path):
    p = tmp_path / "k"
    p.write_text(f"# comment\n\n{KEYLINE}\r\n")
    os.chmod(p, 0o600)
    assert chunked.load_key(p) == bytes(range(32))
    os.chmod(p, 0o640)
    with pytest.warns(UserWarning, match="chmod 600"):
        assert chunked.load_key(p) == bytes(range(32))
    os.chmod(p, 0o600)
    p.write_text(KEYLINE.upper().replace("AESIR-KEY-V1-AES256", "aesir-key-v1-aes256"))
    assert chunked.load_key(str(p)) == bytes(range(32))
    k16 = chunked.generate_key(128)
    assert len(k16) == 16 and chunked.format_key(k16).startswith("aesir-key-v1-aes128-")
    p.write_text(chunked.format_key(k16))
    assert chunked.load_key(p) == k16


@pytest.mark.parametrize(
    "text, words",
    [
        (KEYLINE[:-1] + ("0" if KEYLINE[-1] != "0" else "1"), "checksum does not match"),
        (KEYLINE[:30] + KEYLINE[31:], "wrong key length"),
        (KEYLINE.replace("-v1-", "-v2-"), "unknown key version"),
        (KEYLINE.replace("aes256", "aes192"), "unknown cipher"),
        (KEYLINE[:25] + "g" + KEYLINE[26:], "not a hex digit"),
        (KEYLINE[:-9], "checksum"),
        ("ssh-ed25519 AAAA", "not an aesir key"),
        (KEYLINE + "\n" + KEYLINE, "more than one key line"),
        ("# only a comment\n", "no key"),
    ],
)
def test_key_file_errors(tmp_path, text, words):
    p = tmp_path / "k"
    p.write_text(text)
    os.chmod(p, 0o600)
    with pytest.raises(chunked.KeyFileError, match=words):
        chunked.load_key(p)


# ---- passphrase files ----


def have_argon2():
    try:
        aesir._keys.argon2id(b"p", bytes(16), 1, 8, 16)
    except RuntimeError:
        return False
    return True


def test_passphrase_header_checks():
    from aesir import _keys

    good = b"AESIR-PW\x01\x02" + (1).to_bytes(4, "big") + (8).to_bytes(4, "big") + bytes(16)
    assert _keys.pw_parse(good, 1 << 20) == (32, 1, 8)
    for bad, words in [
        (b"AESIR-XX" + good[8:], "not a passphrase"),
        (good[:8] + b"\x02" + good[9:], "version 2"),
        (good[:20], "truncated"),
        (good[:9] + b"\x03" + good[10:], "unknown AEAD"),
        (good[:10] + bytes(4) + good[14:], "out of range"),
        (good[:10] + (65).to_bytes(4, "big") + good[14:], "out of range"),
        (good[:14] + (7).to_bytes(4, "big") + good[18:], "out of range"),
        (good[:14] + (1 << 21).to_bytes(4, "big") + good[18:], "more than the limit"),
    ]:
        with pytest.raises(ValueError, match=words):
            _keys.pw_parse(bad, 1 << 20)


@pytest.mark.skipif(not have_argon2(), reason="no Argon2id importable")
def test_passphrase_round_trip():
    msg = os.urandom(20000)
    b = io.BytesIO()
    with chunked.open(b, "wb", passphrase="pw", key_bits=128, argon2_time=1,
                      argon2_memory_kib=64, context=b"c") as w:
        w.write(msg)
    ct = b.getvalue()
    assert ct[:8] == b"AESIR-PW" and ct[9] == 1
    assert chunked.open(io.BytesIO(ct), "rb", passphrase=b"pw", context=b"c").read() == msg
    with pytest.raises(chunked.ChunkedError) as e:
        chunked.open(io.BytesIO(ct), "rb", passphrase="wrong", context=b"c")
    assert e.value.reason == "commitment" and e.value.offset == 34 + 24
    bad = bytearray(ct)
    bad[20] ^= 1  # the Argon2 salt: covered by the commitment
    with pytest.raises(chunked.ChunkedError):
        chunked.open(io.BytesIO(bytes(bad)), "rb", passphrase="pw", context=b"c")
    with pytest.raises(ValueError, match="limit"):
        chunked.open(io.BytesIO(ct), "rb", passphrase="pw", max_memory_kib=32)


# ---- the aesir tool ----


_TOOL = []


def tool():
    """The tool's path, or a skip that says why there is none."""
    if not _TOOL:
        t = os.environ.get("AESIR_TOOL")
        why = None
        if not t or not os.access(t, os.X_OK):
            why = "no aesir tool (AESIR_TOOL unset or not executable)"
        else:  # built without libcrypto, encrypt exits 4
            r = subprocess.run([t, "encrypt", "-k", "/nonexistent/k", "-q"],
                               input=b"", capture_output=True)
            if r.returncode == 4:
                why = f"{t} cannot encrypt: {r.stderr.decode(errors='replace').strip()}"
        _TOOL.append((t, why))
    t, why = _TOOL[0]
    if why is not None:
        pytest.skip(why + ": interop with the tool not tested")
    return t


def run(args, data=b""):
    return subprocess.run([tool(), *args, "-q"], input=data, capture_output=True, check=True).stdout


@pytest.mark.parametrize("bits", [128, 256])
def test_tool_interop(tmp_path, bits):
    kf = str(tmp_path / "k.key")
    subprocess.run([tool(), "keygen", "-o", kf] + (["--aes128"] if bits == 128 else []),
                   check=True, capture_output=True)
    key = chunked.load_key(kf)
    assert len(key) == bits // 8
    for n in SIZES:
        msg = os.urandom(n)
        ct = run(["encrypt", "-k", kf, "--context", "ctx"], msg)
        assert len(ct) == 56 + n + 16 * (n // 16384 + 1)
        assert chunked.open(io.BytesIO(ct), "rb", key=key, context=b"ctx").read() == msg
        f = tmp_path / "py.enc"
        with chunked.open(f, "wb", key=key, context=b"ctx") as w:
            w.write(msg)
        assert run(["decrypt", "-k", kf, "--context", "ctx", str(f)]) == msg
    # the tool refuses what the reader refuses
    bad = bytearray(f.read_bytes())
    bad[-1] ^= 1
    r = subprocess.run([tool(), "decrypt", "-k", kf, "--context", "ctx", "-q"],
                       input=bytes(bad), capture_output=True)
    assert r.returncode != 0


def test_tool_passphrase_interop(tmp_path):
    t = tool()
    if not have_argon2():
        pytest.skip("no Argon2id importable (cryptography >= 44 or argon2-cffi)")
    pf = tmp_path / "pw"
    pf.write_text("correct horse\n")
    msg = os.urandom(40000)
    ct = run(["encrypt", "--passphrase-file", str(pf), "--argon2-time", "1",
              "--argon2-memory", "1"], msg)
    assert chunked.open(io.BytesIO(ct), "rb", passphrase="correct horse").read() == msg
    f = tmp_path / "py.enc"
    with chunked.open(f, "wb", passphrase="correct horse", argon2_time=1,
                      argon2_memory_kib=1024) as w:
        w.write(msg)
    out = subprocess.run([t, "decrypt", "--passphrase-file", str(pf), "-q", str(f)],
                         capture_output=True, check=True).stdout
    assert out == msg
