#!/usr/bin/env python3
"""CI's check that every backend a run could use was exercised by its tests.

Usage: check-exercised.py RUN CPU_JSON EXERCISED_LOG [--cpuinfo]

CPU_JSON is `shyfr cpu --json` run in the same configuration as the tests (native,
SHYFR_CPU=portable, under qemu); EXERCISED_LOG the "algorithm backend" lines the tests
wrote (SHYFR_EXERCISED). Expected: every registry row whose `needs` are all in the run's
`enabled` features, whatever its self-test said (a hardware backend that fails its
self-test is then caught as never exercised). A row that ran but is not expected fails
too. With --cpuinfo the run's `detected` features are also compared with /proc/cpuinfo,
so that a detection bug cannot hide a backend.
"""
import json
import sys

# shyfr's feature names that /proc/cpuinfo spells differently.
CPUINFO_NAME = {
    "sse4.1": "sse4_1",
    "sha": "sha_ni",
    "avx512vbmi": "avx512vbmi",
    "avx512bitalg": "avx512_bitalg",
}


def main():
    run, cpu_json, log = sys.argv[1:4]
    with open(cpu_json) as f:
        cpu = json.load(f)
    enabled = set(cpu["enabled"])
    rows = {(b["algorithm"], b["backend"]): set(b["needs"]) for b in cpu["backends"]}
    expected = {k for k, needs in rows.items() if needs <= enabled}
    try:
        with open(log) as f:
            ran = {tuple(line.split(None, 1)) for line in f.read().splitlines() if line.strip()}
    except FileNotFoundError:
        ran = set()
    fail = False
    for alg, b in sorted(expected - ran):
        print(f"FAIL: {run} never exercised {alg} {b}")
        fail = True
    for alg, b in sorted(ran - expected):
        where = "not in the registry" if (alg, b) not in rows else "needs features this run lacks"
        print(f"FAIL: {run} ran {alg} {b} ({where})")
        fail = True
    if "--cpuinfo" in sys.argv[4:]:
        flags = set()
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    break
        universe = set().union(*rows.values()) | set(cpu["detected"])
        for feat in sorted(universe):
            has = CPUINFO_NAME.get(feat, feat) in flags
            if has != (feat in cpu["detected"]):
                print(f"FAIL: {run}: /proc/cpuinfo says {feat} is {'present' if has else 'absent'}, "
                      f"shyfr detected the opposite")
                fail = True
    print(f"{run}: {len(expected)} backends expected, {len(ran & expected)} exercised")
    sys.exit(1 if fail else 0)


if __name__ == "__main__":
    main()
