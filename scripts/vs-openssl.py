#!/usr/bin/env python3
"""Same-run comparison of `shyfr speed` with `openssl speed -evp` (the system binary).

Runs the two tools alternately, TRIALS rounds, and keeps the best figure of each, on 16 KiB
buffers. `--set ecb` (the default) compares AES-128/256-ECB in three configurations:

  * default backends: shyfr's best vs OpenSSL's best;
  * AES-NI only: `shyfr --cpu -vaes` (no VAES) vs OpenSSL (which uses AES-NI for ECB);
  * portable: `SHYFR_CPU=portable` (shyfr's bitsliced `soft`) vs OpenSSL's own
    constant-time software path (OPENSSL_ia32cap masks AES-NI and PCLMULQDQ, leaving vpaes).

`--set more` compares, with default backends, every algorithm both tools have:
AES-CTR, AES-CBC (encryption), AES-XTS, AES-GCM, SHA-1/2/3, SHAKE, HMAC-SHA-256
(`openssl speed -hmac sha256`).

Cycles per byte use the core clock that shyfr estimates in the same run.
Usage: scripts/vs-openssl.py [--set ecb|more] [--trials N] [--seconds S]
"""
import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHYFR = os.environ.get("SHYFR_BIN", os.path.join(ROOT, "target", "release", "shyfr"))
SIZE = 16384


def shyfr(algs, seconds, env_extra=None, cpu=None):
    env = dict(os.environ, **(env_extra or {}))
    cmd = [SHYFR] + (["--cpu", cpu] if cpu else []) + [
        "speed", "--json", "--sizes", str(SIZE), "--seconds", str(seconds)] + algs
    out = json.loads(subprocess.check_output(cmd, env=env))
    return out["ghz"], {r["algorithm"]: (r["bytes_per_second"], r["backend"]) for r in out["results"]}


# shyfr name -> (openssl speed arguments, label of its output line)
MORE = {
    "aes-128-ctr": (["-evp", "aes-128-ctr"], "AES-128-CTR"),
    "aes-256-ctr": (["-evp", "aes-256-ctr"], "AES-256-CTR"),
    "aes-128-cbc": (["-evp", "aes-128-cbc"], "AES-128-CBC"),
    "aes-128-xts": (["-evp", "aes-128-xts"], "AES-128-XTS"),
    "aes-256-xts": (["-evp", "aes-256-xts"], "AES-256-XTS"),
    "aes-128-gcm": (["-evp", "aes-128-gcm"], "AES-128-GCM"),
    "aes-256-gcm": (["-evp", "aes-256-gcm"], "AES-256-GCM"),
    "sha1": (["-evp", "sha1"], "sha1"),
    "sha256": (["-evp", "sha256"], "sha256"),
    "sha384": (["-evp", "sha384"], "sha384"),
    "sha512": (["-evp", "sha512"], "sha512"),
    "sha3-256": (["-evp", "sha3-256"], "sha3-256"),
    "sha3-512": (["-evp", "sha3-512"], "sha3-512"),
    "shake128": (["-evp", "shake128"], "shake128"),
    "hmac-sha256": (["-hmac", "sha256"], "hmac(sha256)"),
}


def openssl(alg, seconds, env_extra=None, args=None, label=None):
    env = dict(os.environ, **(env_extra or {}))
    out = subprocess.check_output(
        ["openssl", "speed"] + (args or ["-evp", alg]) + ["-bytes", str(SIZE), "-seconds", str(seconds)],
        env=env, stderr=subprocess.DEVNULL, text=True)
    label = label or alg
    line = [l for l in out.splitlines() if l.upper().startswith(label.upper())][-1]
    kbps = float(re.findall(r"([\d.]+)k", line)[-1])
    return kbps * 1000.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--set", choices=["ecb", "more"], default="ecb")
    args = ap.parse_args()
    if args.set == "more":
        return more(args)
    algs = ["aes-128-ecb", "aes-256-ecb"]
    configs = [
        ("default", {}, None, {}),
        ("AES-NI only (shyfr --cpu -vaes)", {}, "-vaes", {}),
        ("portable (SHYFR_CPU=portable; OpenSSL ia32cap without AES-NI)",
         {"SHYFR_CPU": "portable"}, None, {"OPENSSL_ia32cap": "~0x200000200000000"}),
    ]
    best = {}
    ghz_best = 0.0
    for t in range(args.trials):
        for name, senv, cpu, oenv in configs:
            secs = args.seconds if "portable" not in name else max(args.seconds, 1.0)
            ghz, res = shyfr(algs, secs, senv, cpu)
            ghz_best = max(ghz_best, ghz or 0.0)
            for alg in algs:
                bps, backend = res[alg]
                key = (name, alg)
                o = openssl(alg, max(1, int(secs)), oenv)
                s_best, o_best, _ = best.get(key, (0.0, 0.0, backend))
                best[key] = (max(s_best, bps), max(o_best, o), backend)
            print(f"trial {t + 1}/{args.trials}: {name} done", file=sys.stderr)
    print(f"core clock (shyfr's estimate, best of the run): {ghz_best:.2f} GHz; {SIZE}-byte buffers, "
          f"best of {args.trials} alternating trials\n")
    print("| configuration | algorithm | shyfr backend | shyfr MB/s | shyfr cycles/byte | OpenSSL MB/s | OpenSSL cycles/byte | shyfr / OpenSSL |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for (name, alg), (s, o, backend) in best.items():
        cpb = lambda bps: ghz_best * 1e9 / bps
        print(f"| {name} | {alg} | {backend} | {s / 1e6:,.0f} | {cpb(s):.3f} | {o / 1e6:,.0f} | {cpb(o):.3f} | {s / o:.2f}x |")


def more(args):
    best = {}
    ghz_best = 0.0
    for t in range(args.trials):
        for alg, (oargs, label) in MORE.items():
            ghz, res = shyfr([alg], args.seconds)
            ghz_best = max(ghz_best, ghz or 0.0)
            bps, backend = res[alg]
            o = openssl(alg, max(1, int(args.seconds)), None, oargs, label)
            s_best, o_best, _ = best.get(alg, (0.0, 0.0, backend))
            best[alg] = (max(s_best, bps), max(o_best, o), backend)
        print(f"trial {t + 1}/{args.trials} done", file=sys.stderr)
    print(f"core clock (shyfr's estimate, best of the run): {ghz_best:.2f} GHz; {SIZE}-byte buffers, "
          f"best of {args.trials} alternating trials\n")
    print("| algorithm | shyfr backend | shyfr MB/s | shyfr cycles/byte | OpenSSL MB/s | OpenSSL cycles/byte | shyfr / OpenSSL |")
    print("|---|---|---:|---:|---:|---:|---:|")
    cpb = lambda bps: ghz_best * 1e9 / bps
    for alg, (s_, o, backend) in best.items():
        print(f"| {alg} | {backend} | {s_ / 1e6:,.0f} | {cpb(s_):.3f} | {o / 1e6:,.0f} | {cpb(o):.3f} | {s_ / o:.2f}x |")


if __name__ == "__main__":
    main()
