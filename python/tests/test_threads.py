"""The GIL is released during long calls, checked without timing
thresholds that depend on how many cores are free: while one thread runs
a long encryption, the main thread keeps counting; the longest pause the
main thread sees must be well below the call's length. With the GIL held
(threshold raised past the message size) the same check must fail, which
shows it can. Also: one key object shared by threads gives correct
results (the C library's keys are read-only once set up)."""

import os
import threading
import time

import pytest

import aesir
from aesir import _aesir


def longest_pause(call):
    """Runs call() in a thread; returns (call duration, longest gap
    between two iterations of this thread's loop while call ran)."""
    box = {}

    def worker():
        box["t0"] = time.perf_counter()
        call()
        box["t1"] = time.perf_counter()

    stamps = []
    t = threading.Thread(target=worker)
    t.start()
    while t.is_alive():
        stamps.append(time.perf_counter())
    t.join()
    t0, t1 = box["t0"], box["t1"]
    inside = [s for s in stamps if t0 <= s <= t1]
    edges = [t0] + inside + [t1]
    gap = max(b - a for a, b in zip(edges, edges[1:]))
    return t1 - t0, gap


def slow_call():
    """A call on the byte-wise reference engine long enough (>= 0.2 s,
    doubling the message up to 16 MiB) that thread start-up and GIL
    hand-over, a few ms, are small beside it."""
    g = aesir.AESGCM(os.urandom(16), engine="ref", ghash_engine="ghash-ref")
    n, size = os.urandom(12), 1 << 20
    while True:
        m = bytes(size)
        t0 = time.perf_counter()
        g.encrypt(n, m, None)  # also the warm-up (first use, page faults)
        if time.perf_counter() - t0 >= 0.2 or size >= 16 << 20:
            return lambda: g.encrypt(n, m, None)
        size *= 2


def ghash_ref_available():
    return any(e.name == "ghash-ref" and e.available for e in aesir.ghash_engines())


@pytest.mark.skipif(not ghash_ref_available(), reason="no ghash-ref engine")
def test_gil_released_during_long_calls():
    call = slow_call()
    results = []
    for _ in range(3):  # a busy machine may stall us by itself: retry
        dur, gap = longest_pause(call)
        results.append((dur, gap))
        if dur >= 0.05 and gap < dur / 2:
            return
    pytest.fail(f"main thread stalled during the call: (call s, pause s) {results}")


@pytest.mark.skipif(not ghash_ref_available(), reason="no ghash-ref engine")
def test_check_fails_with_gil_held():
    call = slow_call()
    old = _aesir._set_gil_threshold(1 << 40)
    try:
        dur, gap = longest_pause(call)
    finally:
        _aesir._set_gil_threshold(old)
    # The complement of the check above: the main thread stalled for
    # most of the call.
    assert dur >= 0.05 and gap >= dur / 2, (dur, gap)


def test_shared_key_many_threads():
    k = os.urandom(32)
    g = aesir.AESGCM(k)
    msgs = [(os.urandom(12), os.urandom(20000 + i)) for i in range(8)]
    want = [g.encrypt(n, m, None) for n, m in msgs]
    got = [None] * len(msgs)

    def work(i):
        for _ in range(20):
            got[i] = g.encrypt(*msgs[i], None)
            assert g.decrypt(msgs[i][0], got[i], None) == msgs[i][1]

    ts = [threading.Thread(target=work, args=(i,)) for i in range(len(msgs))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert got == want


@pytest.mark.skipif(not ghash_ref_available(), reason="no ghash-ref engine")
def test_context_refuses_second_thread():
    g = aesir.AESGCM(os.urandom(16), engine="ref", ghash_engine="ghash-ref")
    e = g.encryptor(os.urandom(12))
    started, done = threading.Event(), threading.Event()

    def worker():
        started.set()
        e.update(bytes(1 << 20))  # long, with the GIL released
        done.set()

    t = threading.Thread(target=worker)
    t.start()
    started.wait()
    # Empty updates (harmless) until one meets the worker's call: no
    # timing guess about when the worker enters it.
    refused = None
    while refused is None and not done.is_set():
        try:
            e.update(b"")
        except ValueError as ex:
            refused = str(ex)
    t.join()
    if refused is None:
        pytest.skip("the worker's call ended before the check met it")
    assert "another thread" in refused
    assert done.is_set()
    e.update(b"x")  # usable again once the first call is over
