#!/usr/bin/env python3
"""File encryption, same run: `shyfr encrypt`/`decrypt` (key file) against `age` (X25519
identity file) and `openssl enc -aes-256-ctr` (raw key, no authentication), on one file.

Default mode: a SIZE-byte random file in DIR (default 1 GiB in /dev/shm), encrypted and
decrypted by the three tools in turn, TRIALS rounds alternating the tools, to /dev/null and
to a file in DIR. Each run is timed (wall clock, best of the trials) under `/usr/bin/time`
for its peak resident memory; for shyfr the `--stats` AES-GCM time (crypto alone) is also
reported. Prints a Markdown table.

`--scenario`: shyfr alone on a SIZE-byte file (default 351 MB = 351,000,000 bytes): encrypt
and decrypt, with I/O (file to file in DIR, file to /dev/null) and without (the `--stats`
AES-GCM figure), with the hardware backends and with `SHYFR_CPU=portable` (no AES-NI, VAES,
PCLMULQDQ), on one thread (`--threads 1`) and on all.

age is looked up on PATH (Debian: `apt-get install age`); a missing tool is skipped with a
note. The machine and its load are printed with the results: compare figures of one run.

Usage: scripts/file-encryption-bench.py [--size BYTES] [--dir DIR] [--trials N]
                                        [--scenario] [--keep]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHYFR = os.environ.get("SHYFR_BIN", os.path.join(ROOT, "target", "release", "shyfr"))
TIME = "/usr/bin/time"


def run(cmd, env=None):
    """Runs `cmd` under /usr/bin/time: (wall seconds, peak RSS KiB, user+sys s, stderr)."""
    tf = os.path.join(WORK, ".time")
    full = [TIME, "-f", "%M %U %S", "-o", tf] + cmd
    e = dict(os.environ)
    e.pop("SHYFR_CPU", None)
    if env:
        e.update(env)
    t0 = time.perf_counter()
    p = subprocess.run(full, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=e)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr.decode()}")
    rss, user, sys_ = open(tf).read().split()[-3:]
    return wall, int(rss), float(user) + float(sys_), p.stderr.decode()


def crypto_mbs(stderr):
    """The AES-GCM MB/s of shyfr's --stats."""
    m = re.search(r"AES-\d+-GCM \(([^,]+), (\d+) threads?\): ([\d.]+) s, ([\d.]+) MB/s", stderr)
    return (float(m.group(4)), m.group(1), int(m.group(2))) if m else None


def machine():
    model = ""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    load = open("/proc/loadavg").read().split()[:3]
    return f"{model}, {os.cpu_count()} CPUs online, load average {' '.join(load)}"


def fmt_mbs(size, secs):
    return f"{size / secs / 1e6:.0f}"


def compare(args):
    size = args.size
    src = os.path.join(WORK, "in.bin")
    k = os.path.join(WORK, "shyfr.key")
    ak = os.path.join(WORK, "age.key")
    subprocess.run([SHYFR, "keygen", "-o", k, "--force"], check=True)
    have_age = shutil.which("age") is not None and shutil.which("age-keygen") is not None
    if have_age:
        if os.path.exists(ak):
            os.remove(ak)
        subprocess.run(["age-keygen", "-o", ak], check=True, stderr=subprocess.DEVNULL)
        pub = subprocess.run(["age-keygen", "-y", ak], check=True, capture_output=True).stdout.decode().strip()
    else:
        print("note: age not found on PATH; skipped", file=sys.stderr)
    have_openssl = shutil.which("openssl") is not None
    key_hex, iv_hex = os.urandom(32).hex(), os.urandom(16).hex()
    ossl = ["openssl", "enc", "-aes-256-ctr", "-K", key_hex, "-iv", iv_hex]

    tools = {
        "shyfr": {
            "enc": lambda d: [SHYFR, "encrypt", "--stats", "-k", k, src, "-o", d, "--force"],
            "dec": lambda d: [SHYFR, "decrypt", "--stats", "-k", k, os.path.join(WORK, "in.shy"), "-o", d, "--force"],
            "ct": "in.shy",
        },
    }
    if have_age:
        tools["age"] = {
            "enc": lambda d: ["age", "-e", "-r", pub, "-o", d, src],
            "dec": lambda d: ["age", "-d", "-i", ak, "-o", d, os.path.join(WORK, "in.age")],
            "ct": "in.age",
        }
    if have_openssl:
        tools["openssl-ctr"] = {
            "enc": lambda d: ossl + ["-in", src, "-out", d],
            "dec": lambda d: ossl + ["-d", "-in", os.path.join(WORK, "in.ctr"), "-out", d],
            "ct": "in.ctr",
        }
    # The ciphertexts the decryptions read.
    for name, t in tools.items():
        run(t["enc"](os.path.join(WORK, t["ct"])))
    best = {}
    out_file = os.path.join(WORK, "out")
    for trial in range(args.trials):
        for op in ["enc", "dec"]:
            for dest_name, dest in [("/dev/null", "/dev/null"), ("file", out_file)]:
                for name, t in tools.items():
                    wall, rss, cpu, err = run(t[op](dest))
                    key = (name, op, dest_name)
                    b = best.setdefault(key, {"wall": 1e9, "rss": 0, "cpu": 1e9, "crypto": None})
                    b["wall"] = min(b["wall"], wall)
                    b["cpu"] = min(b["cpu"], cpu)
                    b["rss"] = max(b["rss"], rss)
                    c = crypto_mbs(err)
                    if c and (b["crypto"] is None or c[0] > b["crypto"][0]):
                        b["crypto"] = c
                    if os.path.exists(out_file):
                        os.remove(out_file)
    print(f"\n{size} bytes ({size / 2**30:.2f} GiB) in {args.dir}; best of {args.trials} trials, tools alternating")
    print(f"machine: {machine()}\n")
    print("| tool | operation | output | wall s (best) | MB/s | user+sys s | peak RSS MiB | AES-GCM alone (shyfr --stats) |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    for (name, op, dest), b in best.items():
        c = b["crypto"]
        cs = f"{c[0]:.0f} MB/s ({c[1]}, {c[2]} thread{'s' if c[2] > 1 else ''})" if c else ""
        print(f"| {name} | {'encrypt' if op == 'enc' else 'decrypt'} | {dest} | {b['wall']:.3f} | "
              f"{fmt_mbs(size, b['wall'])} | {b['cpu']:.2f} | {b['rss'] / 1024:.1f} | {cs} |")


def scenario(args):
    size = args.size
    src = os.path.join(WORK, "in.bin")
    k = os.path.join(WORK, "shyfr.key")
    subprocess.run([SHYFR, "keygen", "-o", k, "--force"], check=True)
    ct = os.path.join(WORK, "in.shy")
    subprocess.run([SHYFR, "encrypt", "-k", k, src, "-o", ct, "--force"], check=True)
    out_file = os.path.join(WORK, "out")
    cells = {}
    for trial in range(args.trials):
        for cpu in ["hardware", "portable"]:
            env = {"SHYFR_CPU": "portable"} if cpu == "portable" else None
            for threads in ["1", "all"]:
                th = [] if threads == "all" else ["--threads", threads]
                for op in ["encrypt", "decrypt"]:
                    inp = src if op == "encrypt" else ct
                    for dest in ["file", "/dev/null"]:
                        d = out_file if dest == "file" else "/dev/null"
                        wall, rss, cpus, err = run([SHYFR, op, "--stats", "-k", k] + th + [inp, "-o", d, "--force"], env)
                        c = crypto_mbs(err)
                        key = (op, cpu, threads)
                        cell = cells.setdefault(key, {"file": 1e9, "/dev/null": 1e9, "crypto": 0.0, "engine": "", "n": 0, "rss": 0})
                        cell[dest] = min(cell[dest], wall)
                        cell["rss"] = max(cell["rss"], rss)
                        if c and c[0] > cell["crypto"]:
                            cell["crypto"], cell["engine"], cell["n"] = c
                        if os.path.exists(out_file):
                            os.remove(out_file)
    print(f"\nshyfr, {size} bytes ({size / 1e6:.0f} MB) in {args.dir}, key file; best of {args.trials} trials")
    print(f"machine: {machine()}\n")
    print("| operation | CPU paths | threads | file to file MB/s | file to /dev/null MB/s | AES-GCM alone MB/s (--stats) | engine | peak RSS MiB |")
    print("|---|---|---|---:|---:|---:|---|---:|")
    for (op, cpu, threads), c in cells.items():
        th = threads if threads == "1" else "all (%d)" % c["n"]
        print(f"| {op} | {cpu} | {th} | {fmt_mbs(size, c['file'])} | "
              f"{fmt_mbs(size, c['/dev/null'])} | {c['crypto']:.0f} | {c['engine']} | {c['rss'] / 1024:.1f} |")


def main():
    global WORK
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=None)
    ap.add_argument("--dir", default="/dev/shm")
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--scenario", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    args = ap.parse_args()
    if args.size is None:
        args.size = 351_000_000 if args.scenario else 1 << 30
    if not os.path.exists(SHYFR):
        sys.exit(f"{SHYFR} not found: cargo build --release -p shyfr-cli (or set SHYFR_BIN)")
    WORK = os.path.join(args.dir, f"shyfr-file-bench-{os.getpid()}")
    os.makedirs(WORK)
    try:
        src = os.path.join(WORK, "in.bin")
        with open(src, "wb") as f:
            left = args.size
            while left:
                n = min(left, 1 << 24)
                f.write(os.urandom(n))
                left -= n
        (scenario if args.scenario else compare)(args)
    finally:
        if not args.keep:
            shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()
