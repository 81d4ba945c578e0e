#!/usr/bin/env python3
"""shyfr's Kupyna (DSTU 7564:2014) against dstu-core (PyPI `dstu-core`, Python bindings of
a Rust implementation), through the `shyfr` command.

  check: a differential test. Random messages (fixed seed, 0 to 5000 bytes, block
         boundaries included) are hashed with Kupyna-256 and Kupyna-512 and MACed with
         the Kupyna-256 KMAC (dstu-core's `auth`) by both; every value must agree.
         Exit status 1 on any difference.
  bench: cycles per byte on 16 KiB buffers (`--len`), alternating in one run: dstu-core
         in this process (best of `--trials` timings of a loop of calls), shyfr through
         `shyfr speed --json` (best of its own trials), core clock from `--ghz`.

Usage: python3 bench/kupyna-dstu-core.py check|bench [--shyfr PATH] [--len N]
       [--trials N] [--ghz F]
Needs `pip install dstu-core` (it installs offline from the registry as a wheel).
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import dstu_core


def shyfr_lines(shyfr, args, files, cwd):
    out = subprocess.run([shyfr] + args + files, cwd=cwd, check=True, capture_output=True)
    lines = out.stdout.decode().splitlines()
    assert len(lines) == len(files), out.stderr.decode()
    return [line.split()[0] for line in lines]


def check(shyfr):
    rng = random.Random(7564)
    lengths = [0, 1, 31, 32, 51, 52, 53, 63, 64, 65, 115, 116, 117, 127, 128, 129, 255, 256]
    lengths += [rng.randrange(0, 5000) for _ in range(120)]
    msgs = [bytes(rng.getrandbits(8) for _ in range(n)) for n in lengths]
    key = bytes(rng.getrandbits(8) for _ in range(32))
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        files = []
        for i, m in enumerate(msgs):
            name = "m%d" % i
            with open(os.path.join(d, name), "wb") as f:
                f.write(m)
            files.append(name)
        for name, args, ref in (
            ("kupyna-256", ["hash", "kupyna-256"], dstu_core.kupyna256),
            ("kupyna-512", ["hash", "kupyna-512"], dstu_core.kupyna512),
            ("kupyna-kmac-256", ["mac", "kupyna-kmac-256", "--key-hex", key.hex()],
             lambda m: dstu_core.auth(key, m)),
        ):
            got = shyfr_lines(shyfr, args, files, d)
            for m, g in zip(msgs, got):
                want = ref(m).hex()
                if g != want:
                    bad += 1
                    print("DIFFERENT %s len %d: shyfr %s dstu-core %s" % (name, len(m), g, want))
            print("%s: %d messages compared" % (name, len(msgs)))
    if bad:
        print("%d differences" % bad)
        sys.exit(1)
    print("%d passed, 0 failed" % (3 * len(msgs)))


def bench(shyfr, length, trials, ghz):
    buf = bytes(i & 0xff for i in range(length))
    rows = []
    for name, ref in (("kupyna-256", dstu_core.kupyna256), ("kupyna-512", dstu_core.kupyna512),
                      ("kupyna-kmac-256", lambda m, k=bytes(32): dstu_core.auth(k, m))):
        best_ref = float("inf")
        best_shyfr = float("inf")
        for _ in range(trials):
            t = time.perf_counter()
            for _ in range(20):
                ref(buf)
            best_ref = min(best_ref, (time.perf_counter() - t) / 20)
            out = subprocess.run(
                [shyfr, "speed", name, "--sizes", str(length), "--seconds", "0.05",
                 "--trials", "3", "--ghz", str(ghz), "--json"],
                check=True, capture_output=True)
            j = json.loads(out.stdout)
            for r in j["results"]:
                best_shyfr = min(best_shyfr, 1.0 / r["bytes_per_second"])
        ref_cpb = best_ref * ghz * 1e9 / length
        shyfr_cpb = best_shyfr * ghz * 1e9
        rows.append((name, shyfr_cpb, ref_cpb))
    print("# Kupyna, %d-byte buffers, best of %d alternating trials, cycles/byte at %.2f GHz"
          % (length, trials, ghz))
    print("# alg shyfr_cpb dstu_core_cpb dstu_core/shyfr")
    for name, s, r in rows:
        print("%-16s %7.2f %7.2f %6.2fx" % (name, s, r, r / s))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["check", "bench"])
    ap.add_argument("--shyfr", default="target/release/shyfr")
    ap.add_argument("--len", type=int, default=16384)
    ap.add_argument("--trials", type=int, default=15)
    ap.add_argument("--ghz", type=float, default=3.7)
    a = ap.parse_args()
    if a.mode == "check":
        check(a.shyfr)
    else:
        bench(a.shyfr, a.len, a.trials, a.ghz)


if __name__ == "__main__":
    main()
