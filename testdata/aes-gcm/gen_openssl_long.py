#!/usr/bin/env python3
"""Long-message AES-GCM and AES-CCM vectors computed by OpenSSL (through pyca/cryptography),
as an independent check of the bulk paths. Plaintext and AAD follow fixed patterns, so
only lengths are stored for them:

    PT[i]  = (31 * i + 7) mod 251
    AAD[i] = (17 * i + 3) mod 253

Run from the repository root: python3 testdata/aes-gcm/gen_openssl_long.py
"""
import cryptography
from cryptography.hazmat.backends.openssl import backend
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESCCM


def pt(n):
    return bytes((31 * i + 7) % 251 for i in range(n))


def aad(n):
    return bytes((17 * i + 3) % 253 for i in range(n))


def key(n, seed):
    return bytes((seed * 13 + 5 * i) % 256 for i in range(n))


def header(out, what):
    out.write(f"# {what}: computed with pyca/cryptography {cryptography.__version__} on "
              f"{backend.openssl_version_text()}\n")
    out.write("# by testdata/aes-gcm/gen_openssl_long.py; PT[i] = (31*i+7) mod 251, "
              "AAD[i] = (17*i+3) mod 253\n\n")


def gcm():
    cases = []
    lens = [0, 1, 15, 16, 17, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1023,
            1024, 1025, 4096 + 5, 8192, 16384 + 3]
    ivs = [12, 12, 12, 8, 16, 60]
    alens = [0, 13, 16, 300, 4097]
    for c, n in enumerate(lens):
        klen = [16, 24, 32][c % 3]
        cases.append((key(klen, c), bytes((c + i * 3) % 256 for i in range(ivs[c % 6])),
                      alens[c % 5], n))
    # Long AAD with no plaintext (GMAC), and a long non-96-bit nonce.
    cases.append((key(16, 99), bytes(12), 70000, 0))
    cases.append((key(32, 98), bytes(range(128)), 33, 777))
    with open("testdata/aes-gcm/openssl-long.txt", "w") as out:
        header(out, "AES-GCM")
        for c, (k, iv, alen, n) in enumerate(cases):
            enc = Cipher(algorithms.AES(k), modes.GCM(iv)).encryptor()
            enc.authenticate_additional_data(aad(alen))
            ct = enc.update(pt(n)) + enc.finalize()
            out.write(f"Count = {c}\nKey = {k.hex()}\nIV = {iv.hex()}\nAADlen = {alen}\n"
                      f"PTlen = {n}\nCT = {ct.hex()}\nTag = {enc.tag.hex()}\n\n")


def ccm():
    cases = []
    for c, n in enumerate([0, 1, 16, 17, 255, 512, 513, 4096 + 7, 65535]):
        nl = 7 + c % 7
        if n > 65535 - 1 and nl == 13:
            nl = 12
        cases.append((key([16, 24, 32][c % 3], c), bytes((c * 5 + i) % 256 for i in range(nl)),
                      [0, 1, 14, 15, 16, 31, 300][c % 7], n, [16, 4, 8, 12, 14, 6, 10][c % 7]))
    # AAD lengths at the 2-byte / 6-byte length-encoding boundary (2^16 - 2^8).
    for c, alen in enumerate([0xfeff, 0xff00, 0xff01]):
        cases.append((key(16, 50 + c), bytes(range(12)), alen, 40, 16))
    with open("testdata/aes-ccm/openssl-long.txt", "w") as out:
        header(out, "AES-CCM")
        for c, (k, nonce, alen, n, tl) in enumerate(cases):
            ct = AESCCM(k, tag_length=tl).encrypt(nonce, pt(n), aad(alen))
            out.write(f"Count = {c}\nKey = {k.hex()}\nNonce = {nonce.hex()}\nAADlen = {alen}\n"
                      f"PTlen = {n}\nTlen = {tl}\nCT = {ct[:n].hex()}\nTag = {ct[n:].hex()}\n\n")


gcm()
ccm()
