"""aesir.chunked against the aesir tool (--threads 1) on one file in
/dev/shm: encrypt (file to file, both atomic: temporary file, fsync,
rename) and decrypt (Python: readinto a 1 MiB buffer; the tool: to
/dev/null), the two taking turns, medians of RUNS runs. Not a test: a
measurement for python/README.md.

usage: python chunked_speed.py TOOL MiB RUNS   (with aesir importable)"""
import os, shutil, statistics, subprocess, sys, time
import aesir.chunked as ch
tool, n, runs = sys.argv[1], int(sys.argv[2]) << 20, int(sys.argv[3])
d = "/dev/shm/aesir-py-speed"
os.makedirs(d, exist_ok=True)
plain = f"{d}/plain"
with open(plain, "wb") as f:
    f.write(os.urandom(n))
key = ch.generate_key()
kf = f"{d}/k"
with open(kf, "w") as f:
    f.write(ch.format_key(key) + "\n")
os.chmod(kf, 0o600)
res = {k: [] for k in ("py enc", "tool enc", "py dec", "tool dec")}
buf = bytearray(1 << 20)
for _ in range(runs):
    t = time.perf_counter()
    with open(plain, "rb", buffering=0) as src, ch.open(f"{d}/py.enc", "wb", key=key) as w:
        while True:
            k = src.readinto(buf)
            if not k:
                break
            w.write(memoryview(buf)[:k])
    res["py enc"].append(time.perf_counter() - t)
    t = time.perf_counter()
    subprocess.run([tool, "encrypt", "-k", kf, "--threads", "1", "-q", "-f", "-o", f"{d}/t.enc", plain], check=True)
    res["tool enc"].append(time.perf_counter() - t)
    t = time.perf_counter()
    with ch.open(f"{d}/t.enc", "rb", key=key) as r:
        while r.readinto(buf):
            pass
    res["py dec"].append(time.perf_counter() - t)
    t = time.perf_counter()
    subprocess.run([tool, "decrypt", "-k", kf, "--threads", "1", "-q", f"{d}/py.enc"], check=True, stdout=subprocess.DEVNULL)
    res["tool dec"].append(time.perf_counter() - t)
for k, v in res.items():
    m = statistics.median(v)
    print(f"{k:9} median {m:.3f} s  {n / m / 1e9:.2f} GB/s  (runs: {' '.join(f'{x:.3f}' for x in v)})")
print(f"py/tool time: enc {statistics.median(res['py enc']) / statistics.median(res['tool enc']):.2f}, dec {statistics.median(res['py dec']) / statistics.median(res['tool dec']):.2f}")
shutil.rmtree(d)
