#!/usr/bin/env python3
"""test_tool_pass.py -- the terminal side of the tool's passphrases
(tools/pw_read.c), through a pseudo-terminal.

    python3 tests/test_tool_pass.py path/to/test_passphrase

test_passphrase's one-call modes (tests/test_passphrase.c) run with a new
session whose controlling terminal is a pty, stdout a pipe. Checked: the
prompts appear on the terminal; echo is off while the passphrase is typed
(the typed text never comes back, and the pty's ECHO flag is clear) and on
again afterwards; encryption asks twice, starts again when the two differ
or one is empty, and gives up after three tries (exit status 2); the key
read from the terminal equals the key from a passphrase file with the same
text; SIGINT (Ctrl-C typed), SIGTERM and SIGHUP while the prompt waits
end the process by that signal with the terminal's echo restored, while
an ignored SIGHUP stays ignored; without a terminal the error names
--passphrase-fd/--passphrase-file (status 3).
"""
import fcntl
import os
import select
import signal
import subprocess
import sys
import tempfile
import termios
import time

prog = sys.argv[1]
fails = 0
cases = 0


def check(cond, what):
    global fails, cases
    cases += 1
    if not cond:
        fails += 1
        print("FAIL:", what)


class Tty:
    """prog with args in a new session on a fresh pty."""

    def __init__(self, *args, ignore=()):
        self.master, self.slave = os.openpty()
        slave = self.slave

        def child():
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for sig in ignore:
                signal.signal(sig, signal.SIG_IGN)

        self.p = subprocess.Popen([prog] + list(args), stdin=slave,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, preexec_fn=child)
        self.seen = b""

    def echo_on(self):
        return bool(termios.tcgetattr(self.slave)[3] & termios.ECHO)

    def expect(self, text, timeout=10.0):
        """Reads the terminal until text (bytes) appears after what was
        already matched; returns whether it did."""
        end = time.monotonic() + timeout
        while text not in self.seen:
            left = end - time.monotonic()
            if left <= 0:
                return False
            r, _, _ = select.select([self.master], [], [], left)
            if r:
                try:
                    data = os.read(self.master, 4096)
                except OSError:
                    return False
                if not data:
                    return False
                self.seen += data
        # Forget up to the match, so the same prompt can be waited for again.
        self.all = getattr(self, "all", b"") + self.seen
        self.seen = self.seen[self.seen.index(text) + len(text):]
        return True

    def type(self, s):
        os.write(self.master, s)

    def finish(self):
        try:
            out, err = self.p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.p.kill()
            out, err = self.p.communicate()
        # Drain what the terminal still holds.
        while select.select([self.master], [], [], 0.2)[0]:
            try:
                data = os.read(self.master, 4096)
            except OSError:
                break
            if not data:
                break
            self.seen += data
        self.all = getattr(self, "all", b"") + self.seen
        return self.p.returncode, out.decode(), err.decode()

    def close(self):
        os.close(self.master)
        os.close(self.slave)


def fields(out):
    return dict(kv.split("=", 1) for kv in out.split())


def key_from_file(hdr, text):
    with tempfile.NamedTemporaryFile("wb", delete=False) as f:
        f.write(text + b"\n")
    try:
        r = subprocess.run([prog, "file-open", hdr, f.name],
                           capture_output=True, text=True, timeout=60)
    finally:
        os.unlink(f.name)
    return fields(r.stdout).get("key")


FIRST, AGAIN = b"Passphrase: ", b"Passphrase (again): "


def seal(inputs, want_rc, want_texts=(), name="", prompts=None):
    """tty-seal answering each prompt with the next of inputs; the prompts
    alternate FIRST, AGAIN unless given."""
    t = Tty("tty-seal")
    ok = True
    if prompts is None:
        prompts = [AGAIN if i % 2 else FIRST for i in range(len(inputs))]
    for i, s in enumerate(inputs):
        prompt = prompts[i]
        if not t.expect(prompt):
            ok = False
            break
        check(not t.echo_on(), f"{name}: echo off at prompt {i + 1}")
        t.type(s + b"\n")
    check(ok, f"{name}: every prompt came (terminal: {t.seen!r})")
    rc, out, err = t.finish()
    check(rc == want_rc, f"{name}: status {rc}, want {want_rc} ({err!r})")
    for w in want_texts:
        check(w in err or w.encode() in t.all, f"{name}: {w!r} said")
    for s in inputs:
        if s:
            check(s not in t.all, f"{name}: {s!r} was not echoed")
    check(t.echo_on(), f"{name}: echo back on")
    t.close()
    return fields(out) if rc == 0 else None


# Asked twice; the key is the passphrase's (the same as from a file).
r = seal([b"pw-one", b"pw-one"], 0, name="twice")
if r:
    check(key_from_file(r["hdr"], b"pw-one") == r["key"],
          "twice: the terminal's key equals the file's")
    check(key_from_file(r["hdr"], b"pw-two") != r["key"],
          "twice: another passphrase gives another key")

# Different, then the same: asked again, and the second pair counts.
r = seal([b"first-a", b"first-b", b"second", b"second"], 0,
         ["differ; try again"], name="mismatch")
if r:
    check(key_from_file(r["hdr"], b"second") == r["key"],
          "mismatch: the key is the second pair's")

# Empty first: refused, asked again.
r = seal([b"", b"pw-three", b"pw-three"], 0, ["empty passphrase"],
         name="empty", prompts=[FIRST, FIRST, AGAIN])
if r:
    check(key_from_file(r["hdr"], b"pw-three") == r["key"],
          "empty: the key is the second try's")

# Three times different: status 2.
seal([b"a1", b"b1", b"a2", b"b2", b"a3", b"b3"], 2,
     ["the passphrases differ (3 tries)"], name="three tries")

# Decryption asks once.
hdr = fields(subprocess.run([prog, "tty-seal"], capture_output=True,
                            text=True, stdin=subprocess.DEVNULL,
                            start_new_session=True).stdout).get("hdr")
check(hdr is None, "no terminal: tty-seal fails")
hdr = "41455349522d5057" "01" "02" "00000001" "00000040" + "a5" * 16
t = Tty("tty-open", hdr)
check(t.expect(b"Passphrase: "), "open: the prompt")
check(not t.echo_on(), "open: echo off")
t.type(b"pw-open\n")
rc, out, err = t.finish()
check(rc == 0, f"open: status {rc} ({err!r})")
check(b"again" not in t.all, "open: asked once")
check(b"pw-open" not in t.all, "open: not echoed")
check(t.echo_on(), "open: echo back on")
check(fields(out).get("key") == key_from_file(hdr, b"pw-open"),
      "open: the terminal's key equals the file's")
t.close()

# A signal at the prompt: the process ends by it, the echo is back.
for sig, how in ((signal.SIGINT, "ctrl-c"), (signal.SIGTERM, "kill"),
                 (signal.SIGHUP, "kill")):
    t = Tty("tty-seal")
    check(t.expect(b"Passphrase: "), f"{sig.name}: the prompt")
    check(not t.echo_on(), f"{sig.name}: echo off at the prompt")
    if how == "ctrl-c":
        t.type(b"half-typed\x03")
    else:
        t.type(b"half-typed")
        time.sleep(0.2)
        t.p.send_signal(sig)
    rc, out, err = t.finish()
    check(rc == -sig, f"{sig.name}: ended by the signal (status {rc})")
    check(t.echo_on(), f"{sig.name}: echo restored")
    check(b"half-typed" not in t.all, f"{sig.name}: nothing echoed")
    t.close()

# A signal the process ignores (SIGHUP under nohup) stays ignored.
t = Tty("tty-open", hdr, ignore=(signal.SIGHUP,))
check(t.expect(b"Passphrase: "), "ignored SIGHUP: the prompt")
t.p.send_signal(signal.SIGHUP)
time.sleep(0.2)
t.type(b"pw-open\n")
rc, out, err = t.finish()
check(rc == 0 and fields(out).get("key") == key_from_file(hdr, b"pw-open"),
      f"ignored SIGHUP: still reads the passphrase (status {rc}, {err!r})")
check(t.echo_on(), "ignored SIGHUP: echo back on")
t.close()

# No terminal at all.
r = subprocess.run([prog, "tty-open", hdr], capture_output=True, text=True,
                   stdin=subprocess.DEVNULL, start_new_session=True)
check(r.returncode == 3 and "--passphrase-fd" in r.stderr,
      f"no terminal: status {r.returncode}, {r.stderr!r}")

print(f"test_tool_pass: {cases} checks, {fails} failed")
sys.exit(1 if fails else 0)
