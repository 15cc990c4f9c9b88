#!/usr/bin/env python3
"""test_tool_crypt.py -- `aesir keygen`, `aesir encrypt`, `aesir decrypt`
end to end (issue 20): round trips through files and pipes, key-file
errors, refusing a terminal (pty), refusing to overwrite (existing output,
the input itself through a hard link or a symlink), atomic output (nothing
left after a failed decryption, a signal, a full disk), authenticated-only
output on stdout, --offset/--length against slicing, exit codes, a closed
pipe, the progress line, passphrases (-p: the AESIR-PW header, its
tampering, wrong passphrases, --max-memory, ranges), --format openssl
against the `openssl enc -pbkdf2` program both ways, and
interoperability with an independent
implementation of c2sp.org/chunked-encryption built here from Python's
`cryptography` (HKDFExpand over SHA-512 + AESGCM).

usage: test_tool_crypt.py path/to/aesir
"""
import os
import pty
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand

AESIR = os.path.abspath(sys.argv[1])
CHUNK, SEALED, HDR = 16384, 16400, 56
failures = 0
checks = 0
rng = random.Random(20)


def check(cond, what):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print("FAIL:", what, flush=True)


def run(args, data=b"", **kw):
    return subprocess.run([AESIR] + args, input=data, capture_output=True,
                          **kw)


# ---- an independent implementation of the format ---------------------

def derive(key, salt, ctx):
    aead = b"AEAD_AES_%d_GCM" % (len(key) * 8)
    info = b"c2sp.org/chunked-encryption@v1+" + aead + b"\0" + salt + ctx
    okm = HKDFExpand(hashes.SHA512(), len(key) + 44, info).derive(key)
    return okm[:len(key)], okm[len(key):len(key) + 12], okm[len(key) + 12:]


def nonce(base, i):
    return (int.from_bytes(base, "big") ^ i).to_bytes(12, "big")


def py_encrypt(key, msg, ctx=b""):
    salt = os.urandom(24)
    k, base, commit = derive(key, salt, ctx)
    g = AESGCM(k)
    chunks = [msg[i:i + CHUNK] for i in range(0, len(msg), CHUNK)]
    if not chunks or len(chunks[-1]) == CHUNK:
        chunks.append(b"")
    return salt + commit + b"".join(
        g.encrypt(nonce(base, i), c, None) for i, c in enumerate(chunks))


def py_decrypt(key, ct, ctx=b""):
    k, base, commit = derive(key, ct[:24], ctx)
    assert commit == ct[24:56], "commitment"
    body, g, out, i = ct[56:], AESGCM(k), [], 0
    while True:
        piece = body[i * SEALED:(i + 1) * SEALED]
        assert len(piece) >= 16, "truncated"
        out.append(g.decrypt(nonce(base, i), piece, None))
        if len(piece) < SEALED:
            assert len(body) == i * SEALED + len(piece), "trailing"
            return b"".join(out)
        i += 1


def key_bytes(path):
    line = [l for l in open(path).read().splitlines()
            if l and not l.startswith("#")][0]
    return bytes.fromhex(line.split("-")[4])


def files(d):
    return sorted(os.listdir(d))


# ---- the tests ---------------------------------------------------------

def test_keygen(d):
    k = os.path.join(d, "k256")
    r = run(["keygen", "-o", k])
    check(r.returncode == 0 and r.stdout == b"" and r.stderr == b"",
          "keygen -o")
    check(os.stat(k).st_mode & 0o777 == 0o600, "key file mode 0600")
    text = open(k).read()
    check("\naesir-key-v1-aes256-" in text and len(key_bytes(k)) == 32,
          "aes256 key line")
    before = open(k, "rb").read()
    r = run(["keygen", "-o", k])
    check(r.returncode == 3 and b"refusing to overwrite" in r.stderr and
          open(k, "rb").read() == before, "keygen refuses to overwrite")
    r = run(["keygen", "--aes128"])
    check(r.returncode == 0 and b"aesir-key-v1-aes128-" in r.stdout,
          "keygen --aes128 to stdout")
    k128 = os.path.join(d, "k128")
    with open(k128, "wb") as f:
        f.write(r.stdout)
    os.chmod(k128, 0o600)
    check(len(key_bytes(k128)) == 16, "aes128 key is 16 bytes")
    r = run(["keygen", "--bogus"])
    check(r.returncode == 2 and r.stderr.count(b"\n") == 1,
          "keygen bad option: exit 2, one line")
    return k, k128


def test_round_trips(d, keys):
    sizes = [0, 1, 16383, 16384, 16385, 32768, 3 * 2**20 + 5]
    for key in keys:
        for n in sizes:
            msg = os.urandom(n)
            src = os.path.join(d, "m")
            with open(src, "wb") as f:
                f.write(msg)
            ct_path, pt_path = src + ".aesir", src + ".out"
            r = run(["encrypt", "-k", key, "-o", ct_path, src])
            ct = open(ct_path, "rb").read()
            check(r.returncode == 0 and r.stderr == b"" and
                  len(ct) == HDR + n + 16 * (n // CHUNK + 1),
                  "encrypt file %d" % n)
            check(py_decrypt(key_bytes(key), ct) == msg,
                  "python decrypts aesir's %d bytes" % n)
            r = run(["decrypt", "-k", key, "-o", pt_path, ct_path])
            check(r.returncode == 0 and open(pt_path, "rb").read() == msg,
                  "decrypt file %d" % n)
            check(os.stat(pt_path).st_mode & 0o777 == 0o600,
                  "plaintext mode 0600")
            # Pipes both ways, and the independent implementation's output.
            r = run(["encrypt", "-k", key, "--context", "ctx"], msg)
            r2 = run(["decrypt", "-k", key, "--context", "ctx"], r.stdout)
            check(r.returncode == 0 and r2.returncode == 0 and
                  r2.stdout == msg, "pipe round trip %d" % n)
            ct = py_encrypt(key_bytes(key), msg, b"ctx")
            r = run(["decrypt", "-k", key, "--context", "ctx", "-"], ct)
            check(r.returncode == 0 and r.stdout == msg,
                  "aesir decrypts python's %d bytes" % n)
            for p in (src, ct_path, pt_path):
                os.unlink(p)
    r = run(["encrypt", "-k", keys[0], "--context", "a"], b"x")
    r2 = run(["decrypt", "-k", keys[0], "--context", "b"], r.stdout)
    check(r2.returncode == 1 and b"wrong key or context" in r2.stderr and
          r2.stdout == b"", "wrong context: exit 1")
    r2 = run(["decrypt", "-k", keys[1]], r.stdout)
    check(r2.returncode == 1 and r2.stdout == b"", "wrong key: exit 1")


def test_key_errors(d, key):
    good = open(key).read()
    line = [l for l in good.splitlines() if l.startswith("aesir-key")][0]
    cases = {
        "typo": line[:30] + ("0" if line[30] != "0" else "1") + line[31:],
        "version": line.replace("-v1-", "-v2-"),
        "short": line[:30] + line[31:],
        "cipher": line.replace("aes256", "aes192"),
        "nokey": "# nothing here",
        "two": line + "\n" + line,
    }
    want = {"typo": b"checksum does not match", "version":
            b"unknown key version", "short": b"wrong key length",
            "cipher": b"unknown cipher", "nokey": b"no key",
            "two": b"more than one key"}
    for name, text in cases.items():
        p = os.path.join(d, "bad-" + name)
        with open(p, "w") as f:
            f.write(text + "\n")
        os.chmod(p, 0o600)
        r = run(["encrypt", "-k", p], b"data")
        check(r.returncode == 2 and want[name] in r.stderr and
              r.stdout == b"" and r.stderr.count(b"\n") == 1,
              "key file %s: %r" % (name, r.stderr))
    r = run(["encrypt", "-k", os.path.join(d, "missing")], b"x")
    check(r.returncode == 3 and b"No such file" in r.stderr,
          "missing key file: exit 3")
    # Group/other access: used, with a warning; none at 0600.
    p = os.path.join(d, "open-key")
    with open(p, "w") as f:
        f.write(good)
    os.chmod(p, 0o644)
    r = run(["encrypt", "-k", p], b"x")
    check(r.returncode == 0 and b"warning" in r.stderr and
          b"0644" in r.stderr, "key readable by others: warning")
    os.chmod(p, 0o600)
    r = run(["encrypt", "-k", p], b"x")
    check(r.returncode == 0 and r.stderr == b"", "key at 0600: no warning")


def test_terminal(key):
    for cmd in ("encrypt", "decrypt"):
        master, slave = pty.openpty()
        r = subprocess.run([AESIR, cmd, "-k", key], input=b"x",
                           stdout=slave, stderr=subprocess.PIPE)
        os.close(slave)
        os.close(master)
        check(r.returncode == 2 and b"terminal" in r.stderr,
              "%s refuses a terminal" % cmd)


def test_overwrite(d, key):
    src = os.path.join(d, "in")
    with open(src, "wb") as f:
        f.write(b"hello" * 1000)
    out = os.path.join(d, "exists")
    with open(out, "wb") as f:
        f.write(b"keep me")
    r = run(["encrypt", "-k", key, "-o", out, src])
    check(r.returncode == 3 and b"--force" in r.stderr and
          open(out, "rb").read() == b"keep me", "existing output refused")
    r = run(["encrypt", "-k", key, "-o", out, "--force", src])
    check(r.returncode == 0 and open(out, "rb").read() != b"keep me",
          "--force replaces")
    hard, sym = os.path.join(d, "hard"), os.path.join(d, "sym")
    os.link(src, hard)
    os.symlink(src, sym)
    for target in (src, hard, sym):
        for cmd in ("encrypt", "decrypt"):
            r = run([cmd, "-k", key, "-o", target, "--force", src])
            check(r.returncode == 3 and b"input" in r.stderr and
                  open(src, "rb").read() == b"hello" * 1000,
                  "%s refuses output %s = input" % (cmd,
                                                     os.path.basename(target)))
    for p in (src, out, hard, sym):
        os.unlink(p)


def test_atomic(d, key):
    msg = os.urandom(5 * CHUNK + 100)
    ct = run(["encrypt", "-k", key], msg).stdout
    bad = {
        "tampered": ct[:HDR + 2 * SEALED + 5] + bytes([ct[HDR + 2 * SEALED +
                                                          5] ^ 1]) +
        ct[HDR + 2 * SEALED + 6:],
        "truncated": ct[:HDR + 5 * SEALED],
        "inside-tag": ct[:-3],
        "trailing": ct + b"\n",
        "header": ct[:40],
    }
    want = {"tampered": b"chunk 2 at offset %d" % (HDR + 2 * SEALED),
            "truncated": b"final short chunk is missing",
            "inside-tag": b"fails to authenticate",
            "trailing": b"trailing data",
            "header": b"56-byte header"}
    sub = os.path.join(d, "atomic")
    os.mkdir(sub)
    for name, data in bad.items():
        p = os.path.join(sub, "ct")
        with open(p, "wb") as f:
            f.write(data)
        r = run(["decrypt", "-k", key, "-o", os.path.join(sub, "pt"), p])
        check(r.returncode == 1 and want[name] in r.stderr and
              files(sub) == ["ct"], "failed decrypt (%s) leaves nothing: %r"
              % (name, r.stderr))
        os.unlink(p)
    # Wrong key into a file.
    p = os.path.join(sub, "ct")
    with open(p, "wb") as f:
        f.write(ct)
    other = os.path.join(d, "other-key")
    run(["keygen", "-o", other])
    r = run(["decrypt", "-k", other, "-o", os.path.join(sub, "pt"), p])
    check(r.returncode == 1 and files(sub) == ["ct"],
          "wrong key leaves nothing")
    # A full disk: RLIMIT_FSIZE (SIGXFSZ ignored, so write fails EFBIG).
    def small_disk():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (50000, 50000))
    r = subprocess.run([AESIR, "decrypt", "-k", key, "-o",
                        os.path.join(sub, "pt"), p], capture_output=True,
                       preexec_fn=small_disk)
    check(r.returncode == 3 and files(sub) == ["ct"],
          "full disk: exit 3, nothing left (%r)" % r.stderr)
    # Output directory missing; input unreadable.
    r = run(["decrypt", "-k", key, "-o", os.path.join(d, "no", "pt"), p])
    check(r.returncode == 3, "output directory missing: exit 3")
    r = run(["decrypt", "-k", key, os.path.join(d, "nothing-here")])
    check(r.returncode == 3 and r.stdout == b"", "missing input: exit 3")
    # Stdout: exactly the authenticated chunks 0..2, then exit 1 naming
    # the offset of chunk 3.
    t = bytearray(ct)
    t[HDR + 3 * SEALED + 100] ^= 0x80
    r = run(["decrypt", "-k", key], bytes(t))
    check(r.returncode == 1 and r.stdout == msg[:3 * CHUNK] and
          b"chunk 3 at offset %d" % (HDR + 3 * SEALED) in r.stderr,
          "stdout gets chunks 0..2 only (%r)" % r.stderr)
    os.unlink(p)
    return ct, msg


# ---- permissions: unreadable input, output directory not writable ------

NOBODY = 65534


def unprivileged():
    """The command prefix that runs the tool without the power to ignore
    file permissions: none when not root; as root, setpriv (util-linux)
    to uid/gid 65534 with no groups. (prefix, None), or (None, why not)."""
    if os.geteuid() != 0:
        return [], None
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None, "running as root and setpriv (util-linux) is missing"
    return [setpriv, "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY,
            "--clear-groups"], None


def test_permissions(key):
    """Unreadable input and an output directory that cannot be written
    (issue 20 point 6): exit 3, a message naming the file and the reason,
    nothing left behind. As root, permissions do not stop the tool, so it
    runs as an unprivileged user (setpriv) on copies of itself and the key
    that this user can reach; a case that cannot run says why."""
    prefix, why = unprivileged()
    if prefix is None:
        print("NOT RUN: unreadable input / unwritable output directory: "
              + why, flush=True)
        return
    root = os.geteuid() == 0
    top = tempfile.mkdtemp(prefix="aesir-perm-")
    try:
        os.chmod(top, 0o755)
        # The tool and the key where the user can reach them (the build
        # tree may sit in a directory it cannot enter).
        tool, k = os.path.join(top, "aesir"), os.path.join(top, "key")
        shutil.copy(AESIR, tool)
        os.chmod(tool, 0o755)
        shutil.copy(key, k)
        os.chmod(k, 0o600)
        ok_dir, ro_dir = os.path.join(top, "ok"), os.path.join(top, "ro")
        os.mkdir(ok_dir)
        os.mkdir(ro_dir)
        plain, locked = os.path.join(top, "plain"), os.path.join(top, "locked")
        msg = os.urandom(3 * CHUNK + 7)
        with open(plain, "wb") as f:
            f.write(msg)
        ct = run(["encrypt", "-k", key], msg).stdout
        ct_path, locked_ct = os.path.join(top, "ct"), os.path.join(top,
                                                                   "locked.ct")
        with open(ct_path, "wb") as f:
            f.write(ct)
        for src, data in ((locked, msg), (locked_ct, ct)):
            with open(src, "wb") as f:
                f.write(data)
            os.chmod(src, 0o000)
        for p in (plain, ct_path):
            os.chmod(p, 0o644)
        os.chmod(ro_dir, 0o555)
        if root:
            os.chown(k, NOBODY, NOBODY)
            os.chown(ok_dir, NOBODY, NOBODY)

        # A coverage build's tool writes its profile at exit: give the
        # user a directory of its own for it (else the runtime's error
        # joins the tool's message); those runs' counts are not kept.
        env = dict(os.environ)
        if "LLVM_PROFILE_FILE" in env:
            prof = os.path.join(top, "prof")
            os.mkdir(prof)
            os.chmod(prof, 0o777)
            env["LLVM_PROFILE_FILE"] = os.path.join(prof, "%p.profraw")

        def as_user(args):
            return subprocess.run(prefix + [tool] + args, capture_output=True,
                                  env=env)

        # The control: the same user, readable input, writable directory.
        out = os.path.join(ok_dir, "out")
        r = as_user(["encrypt", "-k", k, "-o", out, plain])
        r2 = as_user(["decrypt", "-k", k, ct_path])
        if r.returncode != 0 or r2.returncode != 0 or r2.stdout != msg:
            print("NOT RUN: unreadable input / unwritable output directory: "
                  "the tool does not run as %s (%r %r)"
                  % ("uid %d" % NOBODY if root else "this user",
                     r.stderr, r2.stderr), flush=True)
            check(False, "permission cases could not run")
            return
        os.unlink(out)
        for cmd, src in (("encrypt", locked), ("decrypt", locked_ct)):
            # Unreadable input, with -o into a writable directory.
            r = as_user([cmd, "-k", k, "-o", out, src])
            check(r.returncode == 3 and r.stdout == b"" and
                  os.path.basename(src).encode() in r.stderr and
                  b"Permission denied" in r.stderr and
                  r.stderr.count(b"\n") == 1 and os.listdir(ok_dir) == [],
                  "%s unreadable input: exit 3, named, nothing left (%d %r)"
                  % (cmd, r.returncode, r.stderr))
            # And to stdout.
            r = as_user([cmd, "-k", k, src])
            check(r.returncode == 3 and r.stdout == b"" and
                  b"Permission denied" in r.stderr,
                  "%s unreadable input to stdout: exit 3 (%r)"
                  % (cmd, r.stderr))
        for cmd, src in (("encrypt", plain), ("decrypt", ct_path)):
            # A readable input, -o into a directory the user cannot write.
            r = as_user([cmd, "-k", k, "-o", os.path.join(ro_dir, "out"),
                         src])
            check(r.returncode == 3 and r.stdout == b"" and
                  b"cannot create a file in" in r.stderr and
                  ro_dir.encode() in r.stderr and
                  b"Permission denied" in r.stderr and
                  os.listdir(ro_dir) == [],
                  "%s into an unwritable directory: exit 3, nothing left "
                  "(%d %r)" % (cmd, r.returncode, r.stderr))
        print("permission cases ran as %s" %
              ("uid %d (setpriv)" % NOBODY if root else "uid %d" %
               os.geteuid()), flush=True)
    finally:
        for p in (top, os.path.join(top, "ro")):
            if os.path.isdir(p):
                os.chmod(p, 0o755)
        shutil.rmtree(top, ignore_errors=True)


def test_signals(d, key):
    for sig in (signal.SIGTERM, signal.SIGINT):
        sub = os.path.join(d, "sig%d" % sig)
        os.mkdir(sub)
        out = os.path.join(sub, "big.aesir")
        p = subprocess.Popen([AESIR, "encrypt", "-k", key, "-o", out],
                             stdin=subprocess.PIPE, stderr=subprocess.PIPE)
        p.stdin.write(os.urandom(3 << 20))
        p.stdin.flush()
        deadline = time.time() + 10
        while time.time() < deadline and not files(sub):
            time.sleep(0.01)
        had_tmp = files(sub) != []
        time.sleep(0.2)
        p.send_signal(sig)
        p.wait(timeout=10)
        p.stdin.close()
        p.stderr.close()
        check(had_tmp and p.returncode == -sig and files(sub) == [],
              "signal %d mid-encryption: no temp file, no output (%r)"
              % (sig, files(sub)))


def test_ranges(d, key, ct, msg):
    p = os.path.join(d, "range.aesir")
    with open(p, "wb") as f:
        f.write(ct)
    n = len(msg)
    cases = [(0, n), (0, 0), (n, 0), (CHUNK - 1, 2), (CHUNK, CHUNK),
             (n - 1, 1), (3, None)]
    cases += [(o, rng.randrange(0, n - o + 1)) for o in
              (rng.randrange(0, n + 1) for _ in range(12))]
    for off, ln in cases:
        extra = ["--length", str(ln)] if ln is not None else []
        want = msg[off:] if ln is None else msg[off:off + ln]
        r = run(["decrypt", "-k", key, "--offset", str(off), p] + extra)
        check(r.returncode == 0 and r.stdout == want,
              "file range %d+%s" % (off, ln))
        r = run(["decrypt", "-k", key, "--offset", str(off)] + extra, ct)
        check(r.returncode == 0 and r.stdout == want,
              "pipe range %d+%s" % (off, ln))
    for src, data in ((p, b""), ("-", ct)):
        r = run(["decrypt", "-k", key, "--offset", str(n + 1), src], data)
        check(r.returncode == 2 and b"past the end" in r.stderr and
              r.stdout == b"", "offset past the end (%s)" % src)
    r = run(["decrypt", "-k", key, "--offset", "10", "--length", str(n), p])
    check(r.returncode == 2 and r.stdout == b"", "range past the end")
    # A range reads only its chunks: damage outside it goes unnoticed,
    # damage inside it (or to the final chunk) does not.
    t = bytearray(ct)
    t[HDR + 1 * SEALED + 7] ^= 1
    with open(p, "wb") as f:
        f.write(t)
    r = run(["decrypt", "-k", key, "--offset", str(3 * CHUNK), "--length",
             "10", p])
    check(r.returncode == 0 and r.stdout == msg[3 * CHUNK:3 * CHUNK + 10],
          "range skips other chunks")
    r = run(["decrypt", "-k", key, "--offset", str(CHUNK + 5), "--length",
             "10", p])
    check(r.returncode == 1 and r.stdout == b"", "range in a bad chunk")
    os.unlink(p)


def test_usage(key):
    for args in (["encrypt"], ["encrypt", "-k"], ["encrypt", "-k", key,
                                                  "--bogus"],
                 ["encrypt", "-k", key, "a", "b"],
                 ["decrypt", "-k", key, "--offset", "-1"],
                 ["decrypt", "-k", key, "--length", "1x"],
                 ["decrypt", "-k", key, "-k", key],
                 ["encrypt", "-k", key, "--context", "c" * 1025],
                 ["encrypt", "-k", os.path.dirname(key)]):
        r = run(args, b"")
        check(r.returncode == 2 and r.stderr.count(b"\n") == 1 and
              r.stdout == b"", "usage error %r" % args)
    r = run(["keygen", "-o", os.path.join(os.path.dirname(key), "no",
                                          "key")])
    check(r.returncode == 3 and r.stderr.count(b"\n") == 1,
          "keygen into a missing directory: exit 3")
    r = run(["encrypt", "-k", key, "--context", "c" * 1024], b"x")
    check(r.returncode == 0, "a 1024-byte context is allowed")
    for cmd in ("encrypt", "decrypt", "keygen"):
        r = run([cmd, "--help"])
        check(r.returncode == 0 and r.stdout.startswith(b"usage: aesir " +
                                                        cmd.encode()),
              "%s --help" % cmd)


def test_pipe_closed(d, key):
    big = os.urandom(4 << 20)
    ct = run(["encrypt", "-k", key], big).stdout
    src = os.path.join(d, "pipe.aesir")
    with open(src, "wb") as f:
        f.write(ct)
    p = subprocess.Popen([AESIR, "decrypt", "-k", key, src],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.read(10)
    p.stdout.close()
    err = p.stderr.read()
    p.wait(timeout=20)
    check(p.returncode == 3 and b"Broken pipe" in err,
          "closed stdout: exit 3 (%d %r)" % (p.returncode, err))


def test_progress(d, key):
    src = os.path.join(d, "five")
    with open(src, "wb") as f:
        f.write(os.urandom(5 << 20))
    for quiet in (False, True):
        master, slave = pty.openpty()
        args = [AESIR, "encrypt", "-k", key, "-o", src + ".aesir", "--force",
                src] + (["--quiet"] if quiet else [])
        r = subprocess.run(args, stderr=slave, stdout=subprocess.DEVNULL)
        os.close(slave)
        out = b""
        try:
            while True:
                chunk = os.read(master, 4096)
                if not chunk:
                    break
                out += chunk
        except OSError:
            pass
        os.close(master)
        shown = b"ETA" in out and b"%" in out
        check(r.returncode == 0 and shown != quiet,
              "progress on a tty (quiet=%s): %r" % (quiet, out[:80]))
    r = run(["encrypt", "-k", key, "-o", src + ".aesir", "--force", src])
    check(r.returncode == 0 and r.stderr == b"", "no progress off a tty")


# ---- passphrases (-p) ------------------------------------------------

PW_HDR = 34
CHEAP = ["--argon2-time", "1", "--argon2-memory", "1"]


def py_argon2id(pw, salt, t, m_kib):
    """Argon2id from Python's cryptography (>= 44), or None."""
    try:
        from cryptography.hazmat.primitives.kdf.argon2 import Argon2id
    except ImportError:
        return None
    return Argon2id(salt=salt, length=32, iterations=t, lanes=1,
                    memory_cost=m_kib).derive(pw)


def test_passphrase(d, key):
    pf = os.path.join(d, "pass")
    with open(pf, "wb") as f:
        f.write(b"correct horse battery staple\n")
    wrong = os.path.join(d, "wrong")
    with open(wrong, "wb") as f:
        f.write(b"correct horse battery stapler\n")
    empty = os.path.join(d, "empty")
    open(empty, "wb").close()
    src, ct_path = os.path.join(d, "pw.in"), os.path.join(d, "pw.ct")
    msg = os.urandom(40000)
    with open(src, "wb") as f:
        f.write(msg)
    for n in (0, 1, CHUNK, len(msg)):
        r = run(["encrypt", "--passphrase-file", pf] + CHEAP, msg[:n])
        ct = r.stdout
        check(r.returncode == 0 and ct[:8] == b"AESIR-PW" and
              len(ct) == PW_HDR + HDR + n + 16 * (n // CHUNK + 1),
              "-p: header + C2SP stream, %d bytes" % n)
        r = run(["decrypt", "--passphrase-file", pf], ct)
        check(r.returncode == 0 and r.stdout == msg[:n],
              "-p round trip, %d bytes" % n)
        hdr = ct[:PW_HDR]
        t = int.from_bytes(hdr[10:14], "big")
        m = int.from_bytes(hdr[14:18], "big")
        check(hdr[8] == 1 and hdr[9] == 2 and t == 1 and m == 1024,
              "-p header: version 1, AES-256-GCM, t 1, m 1024 KiB")
        k = py_argon2id(b"correct horse battery staple", hdr[18:34], t, m)
        if k is not None:
            try:
                ok = py_decrypt(k, ct[PW_HDR:], hdr) == msg[:n]
            except Exception:
                ok = False
            check(ok, "-p: decrypted by Python (Argon2id + the format, "
                  "context = header), %d bytes" % n)
        elif n == 0:
            print("note: no Argon2id in Python's cryptography here: the "
                  "independent -p check is not run")
    # the passphrase from a file descriptor, to a file, and back
    rfd, wfd = os.pipe()
    os.write(wfd, b"correct horse battery staple\n")
    os.close(wfd)
    r = run(["encrypt", "--passphrase-fd", str(rfd), "-o", ct_path, src] +
            CHEAP, pass_fds=(rfd,))
    os.close(rfd)
    r2 = run(["decrypt", "--passphrase-file", pf, ct_path])
    check(r.returncode == 0 and r2.returncode == 0 and r2.stdout == msg,
          "--passphrase-fd encrypts what --passphrase-file decrypts")
    with open(ct_path, "rb") as f:
        ct = f.read()
    for off, ln in ((0, 1), (16383, 2), (20000, 20000), (39999, 1)):
        r = run(["decrypt", "--passphrase-file", pf, "--offset", str(off),
                 "--length", str(ln), ct_path])
        check(r.returncode == 0 and r.stdout == msg[off:off + ln],
              "-p range %d+%d on a file" % (off, ln))
        r = run(["decrypt", "--passphrase-file", pf, "--offset", str(off),
                 "--length", str(ln)], ct)
        check(r.returncode == 0 and r.stdout == msg[off:off + ln],
              "-p range %d+%d on a pipe" % (off, ln))
    # every failure: exit 1, no output file
    out = os.path.join(d, "pw.out")
    cases = [("wrong passphrase", ct, wrong)]
    for where, what in ((0, "magic"), (8, "version"), (9, "AEAD"),
                        (13, "t_cost"), (17, "m_cost"), (20, "salt"),
                        (PW_HDR + 3, "C2SP salt"), (len(ct) - 1, "tag")):
        bad = bytearray(ct)
        bad[where] ^= 1
        cases.append(("flipped %s byte" % what, bytes(bad), pf))
    cases.append(("header cut", ct[:20], pf))
    for what, data, p in cases:
        r = run(["decrypt", "--passphrase-file", p, "-o", out], data)
        check(r.returncode == 1 and not os.path.exists(out) and
              r.stderr.count(b"\n") == 1,
              "-p: %s: exit 1, no output" % what)
    r = run(["decrypt", "--passphrase-file", pf, "--context", "x"], ct)
    check(r.returncode == 1, "-p: another --context fails")
    r = run(["encrypt", "--passphrase-file", pf, "--context", "x"] + CHEAP,
            b"ctx")
    r2 = run(["decrypt", "--passphrase-file", pf, "--context", "x"], r.stdout)
    check(r2.returncode == 0 and r2.stdout == b"ctx",
          "-p with --context: header || context")
    # the memory bound is checked before the passphrase is read
    r = run(["encrypt", "--passphrase-file", pf, "--argon2-time", "1",
             "--argon2-memory", "2"], b"m")
    r2 = run(["decrypt", "--passphrase-file", os.path.join(d, "none"),
              "--max-memory", "1"], r.stdout)
    check(r2.returncode == 1 and b"memory" in r2.stderr,
          "--max-memory refuses the header before reading a passphrase")
    r2 = run(["decrypt", "--passphrase-file", pf, "--max-memory", "2"],
             r.stdout)
    check(r2.returncode == 0 and r2.stdout == b"m", "--max-memory 2 accepts")
    r = run(["encrypt", "--passphrase-file", empty] + CHEAP, b"e")
    check(r.returncode == 2 and r.stdout == b"", "an empty passphrase: exit 2")
    r = run(["decrypt", "-k", key], ct)
    check(r.returncode == 1, "a passphrase file with -k: exit 1")
    for args in (["encrypt", "-k", key, "-p"],
                 ["encrypt", "-k", key, "--argon2-time", "2"],
                 ["decrypt", "-k", key, "--max-memory", "2"],
                 ["encrypt", "--passphrase-fd", "0", "--passphrase-file", pf],
                 ["encrypt", "-p", "--argon2-time", "0"],
                 ["encrypt", "-p", "--argon2-time", "65"],
                 ["encrypt", "-p", "--argon2-memory", "0"],
                 ["encrypt", "-p", "--max-memory", "2"],
                 ["decrypt", "-p", "--argon2-time", "2"],
                 ["decrypt", "-p", "--max-memory", "x"]):
        r = run(args, b"")
        check(r.returncode == 2 and r.stderr.count(b"\n") == 1 and
              r.stdout == b"", "usage error %r" % args)


# ---- --format openssl (the `openssl enc -pbkdf2` files) --------------

def test_openssl_format(d, key):
    import shutil
    ossl = shutil.which("openssl")
    if ossl is None:
        print("note: no openssl program: --format openssl interop not run")
        return
    pf = os.path.join(d, "opass")
    with open(pf, "wb") as f:
        f.write(b"open sesame\n")
    src = os.path.join(d, "o.in")
    msg = os.urandom(70000)
    with open(src, "wb") as f:
        f.write(msg)
    for cipher, it in (("aes-256-cbc", None), ("aes-128-ctr", "1000"),
                       ("aes-192-cbc", "1000"), ("aes-256-ctr", None)):
        itargs = ["--iter", it] if it else []
        oit = ["-iter", it] if it else []
        enc = os.path.join(d, "o.%s.enc" % cipher)
        subprocess.run([ossl, "enc", "-e", "-pbkdf2", "-" + cipher, "-pass",
                        "pass:open sesame", "-in", src, "-out", enc] + oit,
                       check=True)
        r = run(["decrypt", "--format", "openssl", "--cipher", cipher,
                 "--passphrase-file", pf, enc] + itargs)
        check(r.returncode == 0 and r.stdout == msg and
              b"not authenticated" in r.stderr,
              "%s: openssl enc's file decrypted, with the warning" % cipher)
        r = run(["encrypt", "--format", "openssl", "--cipher", cipher,
                 "--passphrase-file", pf] + itargs, msg)
        o = subprocess.run([ossl, "enc", "-d", "-pbkdf2", "-" + cipher,
                            "-pass", "pass:open sesame"] + oit,
                           input=r.stdout, capture_output=True)
        check(r.returncode == 0 and r.stdout[:8] == b"Salted__" and
              o.returncode == 0 and o.stdout == msg and
              b"not authenticated" in r.stderr,
              "%s: our file decrypted by openssl enc -d" % cipher)
    # a wrong passphrase on CBC: refused by the padding (nearly always;
    # the 1-in-256 false pass would still not give the message back)
    enc = os.path.join(d, "o.aes-256-cbc.enc")
    out = os.path.join(d, "o.out")
    with open(os.path.join(d, "owrong"), "wb") as f:
        f.write(b"open sesame!\n")
    r = run(["decrypt", "--format", "openssl", "--cipher", "aes-256-cbc",
             "--passphrase-file", os.path.join(d, "owrong"), "-o", out, enc])
    check(r.returncode != 0 or open(out, "rb").read() != msg,
          "--format openssl: a wrong passphrase does not give the message")
    if r.returncode != 0:
        check(r.returncode == 1 and not os.path.exists(out),
              "--format openssl: bad padding is exit 1, no output file")
    r = run(["decrypt", "--format", "openssl", "--cipher", "aes-256-cbc",
             "--passphrase-file", pf], b"Salted_!" + bytes(40))
    check(r.returncode == 1, "--format openssl: not a Salted__ file: exit 1")
    for args in (["encrypt", "--format", "openssl", "-k", key, "--cipher",
                  "aes-256-cbc"],
                 ["encrypt", "--format", "openssl", "-p"],
                 ["encrypt", "--format", "openssl", "-p", "--cipher",
                  "aes-256-gcm"],
                 ["encrypt", "--format", "openssl", "-p", "--cipher",
                  "aes-256-cbc", "--context", "x"],
                 ["encrypt", "--format", "openssl", "-p", "--cipher",
                  "aes-256-cbc", "--iter", "0"],
                 ["encrypt", "--format", "bogus", "-p"],
                 ["encrypt", "-p", "--cipher", "aes-256-cbc"],
                 ["decrypt", "-p", "--iter", "5"],
                 ["decrypt", "--format", "openssl", "-p", "--cipher",
                  "aes-256-cbc", "--offset", "1"]):
        r = run(args, b"")
        check(r.returncode == 2 and r.stderr.count(b"\n") == 1 and
              r.stdout == b"", "usage error %r" % args)


# ---- all cores (issue 20 point 4) --------------------------------------

BATCH = 64 * CHUNK  # one thread's share of a read (cmd_encrypt.c)


def test_threads(d, key):
    """--threads 1 (no pool), 2, 3 and the default give the same results
    at sizes around the batch boundaries, through files and pipes; a
    tampered chunk in a late batch releases exactly the chunks before it
    and leaves no output file."""
    raw = key_bytes(key)
    base = os.urandom(5 * 2 * BATCH + 3 * CHUNK)
    # A regular file is read by two threads, each half of a read
    # (crypt_pipe.c): BATCH is the half with 2 threads, 1.5 * BATCH with 3.
    sizes = (0, 1, 2 * CHUNK, BATCH - 1, BATCH, BATCH + 1, 2 * BATCH - 1,
             2 * BATCH, 2 * BATCH + CHUNK, 3 * BATCH // 2 - 1,
             3 * BATCH // 2, 3 * BATCH // 2 + 1, 3 * BATCH + 17, len(base))
    src = os.path.join(d, "mt.in")
    modes = (["--threads", "1"], ["--threads", "2"], ["--threads", "3"], [])
    for n in sizes:
        msg = base[:n]
        with open(src, "wb") as f:
            f.write(msg)
        cts = []
        for t in modes:
            # A file in, stdout out, and stdin (a pipe) in.
            r = run(["encrypt", "-k", key] + t + [src])
            r2 = run(["encrypt", "-k", key] + t, msg)
            ok = r.returncode == 0 and r2.returncode == 0
            try:
                ok = ok and py_decrypt(raw, r.stdout) == msg and \
                    py_decrypt(raw, r2.stdout) == msg
            except Exception:
                ok = False
            check(ok and len(r.stdout) == len(r2.stdout) ==
                  HDR + n + 16 * (n // CHUNK + 1),
                  "encrypt %r, %d bytes: the format (Python decrypts)" %
                  (t, n))
            cts.append(r.stdout)
        ct = py_encrypt(raw, msg)
        cpath = os.path.join(d, "mt.ct")
        with open(cpath, "wb") as f:
            f.write(ct)
        for t in modes:
            r = run(["decrypt", "-k", key] + t, ct)
            check(r.returncode == 0 and r.stdout == msg and r.stderr == b"",
                  "decrypt %r, %d bytes" % (t, n))
            r = run(["decrypt", "-k", key] + t + [cpath])
            check(r.returncode == 0 and r.stdout == msg and r.stderr == b"",
                  "decrypt %r, %d bytes from a file" % (t, n))
        # Each thread count decrypts what another one encrypted.
        r = run(["decrypt", "-k", key, "--threads", "3"], cts[0])
        r2 = run(["decrypt", "-k", key, "--threads", "1"], cts[2])
        check(r.stdout == msg and r2.stdout == msg,
              "--threads 1 and 3 read each other, %d bytes" % n)
    # Tampering in a late batch: chunk 300 of 643 (with 2 threads a read
    # holds 128 chunks: the third read).
    msg = base
    ct = bytearray(py_encrypt(raw, msg))
    bad_at = HDR + 300 * SEALED
    ct[bad_at + 1234] ^= 0x40
    ct = bytes(ct)
    want = msg[:300 * CHUNK]
    errs = set()
    for t in modes + (["--threads", "8"],):
        r = run(["decrypt", "-k", key] + t, ct)
        check(r.returncode == 1 and r.stdout == want,
              "tampered chunk 300, %r: exit 1, exactly chunks 0..299 out" % t)
        check(b"offset %d" % bad_at in r.stderr,
              "tampered chunk 300, %r: the offset named" % t)
        errs.add(r.stderr)
        # Through a file and -o: nothing appears, nothing is left.
        cpath, out = os.path.join(d, "mt.ct"), os.path.join(d, "mt.out")
        with open(cpath, "wb") as f:
            f.write(ct)
        before = files(d)
        r = run(["decrypt", "-k", key] + t + ["-o", out, cpath])
        check(r.returncode == 1 and not os.path.exists(out) and
              files(d) == before and r.stdout == b"",
              "tampered chunk 300, %r, -o: no output file" % t)
    check(len(errs) == 1, "the same message for every thread count")
    # Swapped chunks and trailing data after a large message: the same
    # messages as one thread.
    good = py_encrypt(raw, msg)
    swapped = bytearray(good)
    a, b = HDR + 200 * SEALED, HDR + 201 * SEALED
    swapped[a:b], swapped[b:b + SEALED] = good[b:b + SEALED], good[a:b]
    for bad, what in ((bytes(swapped), "swapped 200/201"),
                      (good + b"\0" * 20000, "trailing data"),
                      (good[:HDR + 400 * SEALED], "cut after chunk 399")):
        r1 = run(["decrypt", "-k", key, "--threads", "1"], bad)
        r3 = run(["decrypt", "-k", key, "--threads", "3"], bad)
        check(r1.returncode == r3.returncode == 1 and
              r1.stderr == r3.stderr and r1.stdout == r3.stdout and
              msg.startswith(r3.stdout), what + ": as with one thread")
        # From a file, each chunk is opened in place and a failing one
        # read again to word the error: the same output and message.
        bpath = os.path.join(d, "mt.bad")
        with open(bpath, "wb") as f:
            f.write(bad)
        for t in ("1", "3"):
            rf = run(["decrypt", "-k", key, "--threads", t, bpath])
            check(rf.returncode == 1 and rf.stderr == r1.stderr and
                  rf.stdout == r1.stdout,
                  what + ": from a file (in place), %s thread(s)" % t)
        os.unlink(bpath)
    # Bad values: one line, exit 2.
    for v in ("0", "65", "x", "", "-1", "2k"):
        for cmd in ("encrypt", "decrypt"):
            r = run([cmd, "-k", key, "--threads", v], b"")
            check(r.returncode == 2 and r.stderr.count(b"\n") == 1 and
                  b"--threads" in r.stderr and r.stdout == b"",
                  "%s --threads %r: exit 2" % (cmd, v))
    # With a passphrase header in front (its bytes lead the first read).
    pf = os.path.join(d, "mt.pass")
    with open(pf, "wb") as f:
        f.write(b"threads\n")
    m = base[:2 * BATCH + 5]
    r = run(["encrypt", "--passphrase-file", pf, "--threads", "2"] + CHEAP, m)
    r2 = run(["decrypt", "--passphrase-file", pf, "--threads", "3"], r.stdout)
    check(r.returncode == 0 and r2.returncode == 0 and r2.stdout == m,
          "-p with threads: round trip")
    # The header shifts the C2SP stream in the file: a failing chunk read
    # again from a file must be read at the right offset (trailing data
    # is found only in the right bytes).
    ppath = os.path.join(d, "mt.pct")
    with open(ppath, "wb") as f:
        f.write(r.stdout + b"\0" * 20000)
    rp = run(["decrypt", "--passphrase-file", pf, "--threads", "3"],
             r.stdout + b"\0" * 20000)
    rf = run(["decrypt", "--passphrase-file", pf, "--threads", "3", ppath])
    check(rp.returncode == rf.returncode == 1 and
          b"trailing data" in rf.stderr and rf.stderr == rp.stderr and
          rf.stdout == rp.stdout == m[:len(m) // CHUNK * CHUNK],
          "-p, trailing data from a file: as from a pipe (%r)" % rf.stderr)
    os.unlink(ppath)


def feed(p, data, rng_, max_piece):
    """Writes data to p's stdin in pieces of random sizes (short reads on
    the other side), then closes it."""
    i = 0
    try:
        while i < len(data):
            n = rng_.randint(1, max_piece)
            p.stdin.write(data[i:i + n])
            p.stdin.flush()
            i += n
        p.stdin.close()
    except BrokenPipeError:
        pass


def test_pipeline(d, key):
    """Reading, crypto and writing overlap (tools/crypt_pipe.c): pipes
    that deliver in small pieces, a range that ends while the input pipe
    stays open (the reader is stopped inside read), a closed stdout pipe
    while encrypting."""
    import threading
    raw = key_bytes(key)
    msg = os.urandom(3 * BATCH + 12345)
    ct = py_encrypt(raw, msg)
    for t in (["--threads", "1"], ["--threads", "3"]):
        for cmd, data, want in (("encrypt", msg, None), ("decrypt", ct, msg)):
            p = subprocess.Popen([AESIR, cmd, "-k", key] + t,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
            th = threading.Thread(target=feed,
                                  args=(p, data, random.Random(7), 70000))
            th.start()
            out = p.stdout.read()
            err = p.stderr.read()
            th.join()
            p.wait(timeout=60)
            if want is None:
                try:
                    good = py_decrypt(raw, out) == msg
                except Exception:
                    good = False
            else:
                good = out == want
            check(p.returncode == 0 and good and err == b"",
                  "%s %r from a pipe in small pieces (%r)" % (cmd, t, err))
    # A range inside the first read, the input pipe left open: the tool
    # must finish without waiting for more.
    off, ln = 10 * CHUNK + 3, 2 * CHUNK
    for t in (["--threads", "1"], ["--threads", "2"]):
        p = subprocess.Popen([AESIR, "decrypt", "-k", key, "--offset",
                              str(off), "--length", str(ln)] + t,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        try:
            # Two reads' worth and a little: the reader then waits for
            # the rest of a third one.
            p.stdin.write(ct[:HDR + (BATCH // CHUNK) * 2 * SEALED + 100])
            p.stdin.flush()
        except BrokenPipeError:
            pass  # the tool may finish before taking it all
        try:
            p.wait(timeout=30)
            out, err = p.stdout.read(), p.stderr.read()
            finished = True
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            out, err, finished = b"", b"", False
        try:
            p.stdin.close()
        except BrokenPipeError:
            pass
        check(finished and p.returncode == 0 and out == msg[off:off + ln],
              "range on an open pipe %r ends without more input (%r)"
              % (t, err))
    # Encrypting into a closed pipe: exit 3, "Broken pipe".
    p = subprocess.Popen([AESIR, "encrypt", "-k", key, "--threads", "2"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    p.stdout.read(10)
    p.stdout.close()
    th = threading.Thread(target=feed, args=(p, msg, random.Random(8),
                                             1 << 20))
    th.start()
    err = p.stderr.read()
    th.join()
    p.wait(timeout=30)
    check(p.returncode == 3 and b"Broken pipe" in err,
          "encrypt to a closed stdout: exit 3 (%d %r)" % (p.returncode, err))


STATS = re.compile(rb"^aesir: stats: (\d+) bytes read in ([0-9.]+) s "
                   rb"\([0-9.]+ GB/s\); crypto: ([0-9.]+) s CPU on the "
                   rb"calling thread \([0-9.]+ GB/s\), ([0-9.]+) s wall "
                   rb"\([0-9.]+ GB/s\)\n$")


def test_stats(d, key):
    """--stats: one line with the bytes read and times that add up; the
    output is what it is without it; refused where nothing is timed."""
    msg = os.urandom(5 * CHUNK + 77)
    src = os.path.join(d, "stats-in")
    with open(src, "wb") as f:
        f.write(msg)
    for t in ("1", "3"):
        r = run(["encrypt", "-q", "--stats", "--threads", t, "-k", key, src])
        m = STATS.match(r.stderr)
        check(r.returncode == 0 and m is not None and
              int(m.group(1)) == len(msg),
              "encrypt --stats --threads %s: %r" % (t, r.stderr))
        if m is not None:
            wall, cpu, cwall = (float(m.group(i)) for i in (2, 3, 4))
            check(0 < cpu and 0 < cwall <= wall,
                  "encrypt --stats: crypto time within the run's %r" % r.stderr)
        ct = r.stdout
        check(py_decrypt(key_bytes(key), ct) == msg,
              "encrypt --stats: the ciphertext decrypts")
        r = run(["decrypt", "--stats", "--threads", t, "-k", key], ct)
        m = STATS.match(r.stderr)
        check(r.returncode == 0 and r.stdout == msg and m is not None and
              int(m.group(1)) == len(ct),
              "decrypt --stats (pipe) --threads %s: %r" % (t, r.stderr))
        p = os.path.join(d, "stats-ct")
        with open(p, "wb") as f:
            f.write(ct)
        r = run(["decrypt", "--stats", "--threads", t, "-k", key, p])
        m = STATS.match(r.stderr)
        check(r.returncode == 0 and r.stdout == msg and m is not None and
              int(m.group(1)) == len(ct),
              "decrypt --stats (file) --threads %s: %r" % (t, r.stderr))
    # After a failure: the error, then the statistics of what was read.
    bad = bytearray(ct)
    bad[-1] ^= 1
    r = run(["decrypt", "--stats", "-k", key], bytes(bad))
    lines = r.stderr.splitlines(keepends=True)
    check(r.returncode == 1 and len(lines) == 2 and
          STATS.match(lines[0]) is not None and
          b"fails to authenticate" in lines[1],
          "decrypt --stats of a tampered stream: %r" % r.stderr)
    r = run(["encrypt", "--stats", "-k", key], b"")
    m = STATS.match(r.stderr)
    check(r.returncode == 0 and m is not None and m.group(1) == b"0",
          "encrypt --stats of nothing: %r" % r.stderr)
    for args in (["decrypt", "--stats", "-k", key, "--offset", "1", p],
                 ["encrypt", "--stats", "-p", "--format", "openssl",
                  "--cipher", "aes-256-cbc", src]):
        r = run(args)
        check(r.returncode == 2 and r.stdout == b"" and
              b"--stats does not go with" in r.stderr,
              "usage error %r: %r" % (args, r.stderr))


def main():
    with tempfile.TemporaryDirectory() as d:
        k256, k128 = test_keygen(d)
        test_round_trips(d, [k256, k128])
        test_key_errors(d, k256)
        test_terminal(k256)
        test_overwrite(d, k256)
        ct, msg = test_atomic(d, k256)
        test_permissions(k256)
        test_signals(d, k256)
        test_ranges(d, k256, ct, msg)
        test_usage(k256)
        test_pipe_closed(d, k256)
        test_progress(d, k256)
        test_passphrase(d, k256)
        test_openssl_format(d, k256)
        test_threads(d, k256)
        test_pipeline(d, k256)
        test_stats(d, k256)
    print("%d checks, %d failed" % (checks, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
