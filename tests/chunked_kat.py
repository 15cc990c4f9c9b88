import hashlib
from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
def enc(key, salt, ctx, msg):
    aead = b"AEAD_AES_%d_GCM" % (len(key)*8)
    okm = HKDFExpand(hashes.SHA512(), len(key)+12+32, b"c2sp.org/chunked-encryption@v1+"+aead+b"\0"+salt+ctx).derive(key)
    k, nonce, com = okm[:len(key)], okm[len(key):len(key)+12], okm[len(key)+12:]
    out = salt + com
    chunks = [msg[i:i+16384] for i in range(0, len(msg), 16384)]
    if not chunks or len(chunks[-1]) == 16384: chunks.append(b"")
    g = AESGCM(k)
    for i, c in enumerate(chunks):
        n = (int.from_bytes(nonce,'big') ^ i).to_bytes(12,'big')
        out += g.encrypt(n, c, None)
    return out
for kl in (16, 32):
  for ctx in (b"", b"aesir test"):
    for n in (0, 5, 16384, 16389):
        key = bytes(range(kl)); salt = bytes(range(100,124))
        msg = bytes(i % 251 for i in range(n))
        ct = enc(key, salt, ctx, msg)
        print(kl, ctx, n, len(ct), hashlib.sha256(ct).hexdigest(), ct.hex() if n <= 5 else "")
