#!/usr/bin/env python3
"""A/B of two `shyfr-bench` binaries: shyfr's own throughput, old against new, same run.

Runs A and B alternately ROUNDS times (each run: `--per-call N --trials T` over the given
rows and sizes), keeps the best shyfr figure of each binary per (algorithm, size), and prints
a Markdown table with the ratio B / A. The peers in each run are ignored here: this is for
"did a change make shyfr slower", with the machine's noise handled by alternating and by
best-of. Rows that only one binary has are left out.

With `--speed ROWS` the two binaries are `shyfr` commands instead, run as `shyfr speed
--json` over the comma-separated ROWS (for rows `shyfr-bench` does not have: Kalyna, GOST,
DES, Kupyna, or a backend chosen by `SHYFR_CPU`).

Usage: scripts/bench-ab.py A_BIN B_BIN [--rounds 3] [--seconds 0.002 | --per-call N] [--trials 2]
                           [--only ROWS] [--sizes 16,64,256,1024,8192,16384] [--speed ROWS]
"""
import argparse
import json
import os
import subprocess
import tempfile


def run_speed(binary, args):
    cmd = [binary, "speed", "--json", "--seconds", str(args.seconds), "--trials",
           str(args.trials), "--sizes", args.sizes] + args.speed.split(",")
    data = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    return {(r["algorithm"] + (" dec" if r["operation"] == "decrypt" else ""), r["size"]):
            r["bytes_per_second"] / 1e6 for r in data["results"]}


def run(binary, args):
    if args.speed:
        return run_speed(binary, args)
    with tempfile.TemporaryDirectory() as d:
        timing = (["--per-call", str(args.per_call)] if args.per_call
                  else ["--seconds", str(args.seconds)])
        cmd = [binary] + timing + ["--trials", str(args.trials), "--sizes", args.sizes,
                                   "--out", d]
        if args.only:
            cmd += ["--only", args.only]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(os.path.join(d, "peers.json")) as f:
            data = json.load(f)
    out = {}
    for line in data["lines"]:
        shyfr = next(c for c in line["cells"] if c["peer"] == "shyfr")
        out[(line["algorithm"], line["bytes"])] = shyfr["mb_per_s"]
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--per-call", type=int, default=0,
                   help="time single calls (binaries built from 2026-11-25 on); else --seconds")
    p.add_argument("--seconds", type=float, default=0.002)
    p.add_argument("--trials", type=int, default=2)
    p.add_argument("--only", default="")
    p.add_argument("--sizes", default="16,64,256,1024,8192,16384")
    p.add_argument("--speed", default="", help="shyfr speed rows (A and B are shyfr binaries)")
    args = p.parse_args()
    best = [{}, {}]
    for _ in range(args.rounds):
        for i, binary in enumerate((args.a, args.b)):
            for k, v in run(binary, args).items():
                best[i][k] = max(best[i].get(k, 0.0), v)
    keys = sorted(set(best[0]) & set(best[1]))
    print(f"| algorithm | bytes | A MB/s | B MB/s | B / A |")
    print("|---|---:|---:|---:|---:|")
    for alg, n in keys:
        a, b = best[0][(alg, n)], best[1][(alg, n)]
        print(f"| {alg} | {n} | {a:,.0f} | {b:,.0f} | {b / a:.2f} |")


if __name__ == "__main__":
    main()
