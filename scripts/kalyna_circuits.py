#!/usr/bin/env python3
"""Generates crates/shyfr/src/arith/gf256/soft_circuits.rs: Boolean circuits (AND, XOR,
AND-NOT, NOT) for the eight Kalyna S-boxes (DSTU 7624:2014 pi_0..pi_3 and their inverses)
and XOR networks for the MDS step and its inverse, for the bitsliced portable backend.

Usage: python3 scripts/kalyna_circuits.py [--check]
  (run from the repository root; --check regenerates in memory and fails if the committed
  file differs). The tables are read from crates/shyfr/src/arith/gf256/tables.rs, the one
  copy of the constants in the tree.

S-box method (written for this project; a two-level decomposition of the algebraic normal
form). The eight input bits are split into five "low" bits and three "high" bits. Every
output bit is then

    f_j(x) = XOR over the 8 monomials m of the high bits of  m(x_high) AND c_{m,j}(x_low)

where each c_{m,j} is a function of the five low bits, i.e. a GF(2)-linear combination of
the 32 monomials of the low bits (read off the ANF of f_j). The circuit computes the 26
low monomials of degree >= 2 and the 4 high ones (one AND each), all 64 c_{m,j} with a
shared XOR network found by Paar's greedy common-pair elimination (a constant term becomes
an AND-NOT or a final NOT), and the 8 outputs with 7 ANDs and 7 XORs each. Several splits
of the input bits and several random tie-breaks are tried; the smallest circuit is kept.
Each circuit is checked here on all 256 inputs, and again by the Rust unit tests.

The MDS step (and its inverse) is a 64x64 matrix over GF(2) acting on the eight bit planes
of the eight rows of a column; it is emitted as an XOR network found the same way.
"""
import itertools
import random
import re
import sys

TABLES = "crates/shyfr/src/arith/gf256/tables.rs"
OUT = "crates/shyfr/src/arith/gf256/soft_circuits.rs"


def read_tables():
    text = open(TABLES).read()

    def grab(name, n):
        i = text.index("const " + name + ":")
        j = text.index("];\n", i)
        body = text[text.index("=", i):j]
        vals = [int(v, 16) for v in re.findall(r"0x([0-9a-f]{2})\b", body)]
        assert len(vals) == n, (name, len(vals))
        return vals

    sb = grab("SBOX", 1024)
    inv = grab("SBOX_INV", 1024)
    mds = grab("MDS", 8)
    mds_inv = grab("MDS_INV", 8)
    return ([sb[256 * i:256 * i + 256] for i in range(4)],
            [inv[256 * i:256 * i + 256] for i in range(4)], mds, mds_inv)


def anf(tt):
    a = list(tt)
    for i in range(8):
        for x in range(256):
            if x >> i & 1:
                a[x] ^= a[x ^ (1 << i)]
    return a


def paar(targets, nbase, rng):
    """Greedy XOR network for `targets` (bit masks over `nbase` base signals).
    Returns (gates, final) where gates is a list of (new_index, a, b) meaning
    s[new] = s[a] ^ s[b], and final[i] is the signal index of target i (None if zero)."""
    sets = [set(i for i in range(nbase) if t >> i & 1) for t in targets]
    nsig = nbase
    gates = []
    while True:
        cnt = {}
        for s in sets:
            if len(s) < 2:
                continue
            for p in itertools.combinations(sorted(s), 2):
                cnt[p] = cnt.get(p, 0) + 1
        if not cnt:
            break
        m = max(cnt.values())
        best = sorted(p for p, c in cnt.items() if c == m)
        a, b = rng.choice(best)
        n = nsig
        nsig += 1
        gates.append((n, a, b))
        for s in sets:
            if a in s and b in s:
                s.discard(a)
                s.discard(b)
                s.add(n)
    final = [next(iter(s)) if s else None for s in sets]
    return gates, final


class Circuit:
    def __init__(self):
        self.ops = []  # (dst, op, a, b)
        self.n = 0

    def new(self):
        self.n += 1
        return "t%d" % self.n

    def gate(self, op, a, b=None):
        d = self.new()
        self.ops.append((d, op, a, b))
        return d

    def count(self):
        return len(self.ops)


def sbox_circuit(sb, low, rng):
    high = [i for i in range(8) if i not in low]
    nl, nh = len(low), len(high)
    a = [anf([(sb[x] >> j) & 1 for x in range(256)]) for j in range(8)]
    c = Circuit()
    xs = ["x%d" % i for i in range(8)]
    # Monomials of the low bits, indexed by a mask over `low`.
    lm = {0: None}
    for m in range(1, 1 << nl):
        if m & (m - 1) == 0:
            lm[m] = xs[low[m.bit_length() - 1]]
        else:
            lo = m & -m
            lm[m] = c.gate("and", lm[m ^ lo], lm[lo])
    hm = {0: None}
    for m in range(1, 1 << nh):
        if m & (m - 1) == 0:
            hm[m] = xs[high[m.bit_length() - 1]]
        else:
            lo = m & -m
            hm[m] = c.gate("and", hm[m ^ lo], hm[lo])
    # Targets c_{mh,j}: masks over low monomials (bit 0 = the constant 1).
    tgt = {}
    for j in range(8):
        for mh in range(1 << nh):
            mask = 0
            for ml in range(1 << nl):
                mono = sum(1 << low[k] for k in range(nl) if ml >> k & 1)
                mono |= sum(1 << high[k] for k in range(nh) if mh >> k & 1)
                if a[j][mono]:
                    mask |= 1 << ml
            tgt[(mh, j)] = mask
    lin = sorted(set(m >> 1 for m in tgt.values() if m >> 1))
    gates, final = paar(lin, (1 << nl) - 1, rng)
    sig = [lm[m + 1] for m in range((1 << nl) - 1)]
    for (n, x, y) in gates:
        assert n == len(sig)
        sig.append(c.gate("xor", sig[x], sig[y]))
    lin_sig = {m: sig[f] for m, f in zip(lin, final)}
    outs = []
    for j in range(8):
        terms = []
        neg = False
        for mh in range(1 << nh):
            mask = tgt[(mh, j)]
            const, l = mask & 1, mask >> 1
            if mh == 0:
                if l:
                    terms.append(lin_sig[l])
                neg = bool(const)
                continue
            if l and const:
                terms.append(c.gate("andn", lin_sig[l], hm[mh]))  # !l & h
            elif l:
                terms.append(c.gate("and", hm[mh], lin_sig[l]))
            elif const:
                terms.append(hm[mh])
        acc = terms[0]
        for t in terms[1:]:
            acc = c.gate("xor", acc, t)
        if neg:
            acc = c.gate("not", acc)
        if acc in xs or any(acc == o for o in outs):
            acc = c.gate("xor", acc, None)  # never happens for these S-boxes
        outs.append(acc)
    return c, outs


def simulate(c, outs, inputs):
    env = dict(inputs)
    full = (1 << 256) - 1
    for d, op, a, b in c.ops:
        if op == "and":
            env[d] = env[a] & env[b]
        elif op == "xor":
            env[d] = env[a] ^ env[b]
        elif op == "andn":
            env[d] = (~env[a] & full) & env[b]
        elif op == "not":
            env[d] = ~env[a] & full
        else:
            raise ValueError(op)
    return [env[o] for o in outs]


def check_sbox(c, outs, sb):
    inputs = {}
    for i in range(8):
        inputs["x%d" % i] = sum(1 << x for x in range(256) if x >> i & 1)
    res = simulate(c, outs, inputs)
    for j in range(8):
        want = sum(1 << x for x in range(256) if sb[x] >> j & 1)
        assert res[j] == want, "circuit wrong at output bit %d" % j


def best_sbox(sb, seed):
    rng = random.Random(seed)
    splits = list(itertools.combinations(range(8), 5))
    rng.shuffle(splits)
    best = None
    for low in splits[:12]:
        for _ in range(3):
            c, outs = sbox_circuit(sb, list(low), rng)
            if best is None or c.count() < best[0].count():
                best = (c, outs)
    check_sbox(*best, sb)
    return best


def gmul(a, b):
    r = 0
    for _ in range(8):
        if b & 1:
            r ^= a
        a <<= 1
        if a & 0x100:
            a ^= 0x11D
        b >>= 1
    return r


def mds_rows(row):
    """64 output masks over 64 inputs (index 8*row + bit)."""
    masks = []
    for r in range(8):
        for b in range(8):
            m = 0
            for k in range(8):
                coef = row[(k - r) % 8]
                for bi in range(8):
                    if gmul(coef, 1 << bi) >> b & 1:
                        m |= 1 << (8 * k + bi)
            masks.append(m)
    return masks


def linear_circuit(masks, seed, runs):
    rng = random.Random(seed)
    best = None
    for _ in range(runs):
        gates, final = paar(masks, 64, rng)
        if best is None or len(gates) < len(best[0]):
            best = (gates, final)
    return best


def check_linear(gates, final, masks):
    sig = [1 << i for i in range(64)]
    for n, a, b in gates:
        sig.append(sig[a] ^ sig[b])
    for m, f in zip(masks, final):
        assert sig[f] == m


def dfs_order(ops, outs):
    """Reorders `ops` (dst, op, a, b) depth first from each output in turn, so that a value
    is computed just before its first use: shorter live ranges, fewer spills."""
    by = {d: (d, op, a, b) for d, op, a, b in ops}
    done = set()
    order = []
    for o in outs:
        stack = [(o, False)]
        while stack:
            v, expanded = stack.pop()
            if v in done or v not in by:
                continue
            d, op, a, b = by[v]
            if expanded:
                done.add(v)
                order.append(by[v])
                continue
            stack.append((v, True))
            for x in (b, a):
                if x is not None and x not in done:
                    stack.append((x, False))
    assert len(order) == len(ops)
    return order


# The order in which `dfs_order` visits each S-box's outputs (the returned array keeps bit
# order). The order decides which values the register allocator spills, and spills cost
# most where a core retires one vector store a cycle (AMD Zen 4): these were the fastest of
# 48 orders (the identity and 47 shuffles) timed with each S-box function called on eight
# independent states in turn (`rdtsc`, best of 5, two runs; the slower run counted) on a
# Zen 4 core, 2026-11-27, against the identity: pi_0 1.10x, pi_1 1.09x, pi_2 1.00x (the
# identity kept), pi_3 1.03x; inverses 1.35x, 1.06x, 1.10x, 1.36x.
OUTPUT_ORDER = {
    "sbox0": [6, 7, 2, 4, 0, 3, 1, 5],
    "sbox1": [3, 6, 1, 5, 7, 0, 4, 2],
    "sbox2": [0, 1, 2, 3, 4, 5, 6, 7],
    "sbox3": [6, 0, 4, 3, 7, 1, 5, 2],
    "sbox0_inv": [4, 0, 1, 7, 6, 5, 3, 2],
    "sbox1_inv": [1, 4, 3, 6, 0, 5, 7, 2],
    "sbox2_inv": [1, 0, 2, 5, 3, 4, 6, 7],
    "sbox3_inv": [5, 4, 3, 2, 1, 0, 7, 6],
}


def emit_sbox(name, doc, c, outs):
    lines = ["/// %s" % doc,
             "#[inline(never)]",
             "pub(crate) fn %s<L: Lane>(x: [L; 8]) -> [L; 8] {" % name,
             "    let [x0, x1, x2, x3, x4, x5, x6, x7] = x;"]
    for d, op, a, b in dfs_order(c.ops, [outs[i] for i in OUTPUT_ORDER[name]]):
        if op == "and":
            e = "%s & %s" % (a, b)
        elif op == "xor":
            e = "%s ^ %s" % (a, b)
        elif op == "andn":
            e = "%s.andn(%s)" % (a, b)
        elif op == "not":
            e = "!%s" % a
        lines.append("    let %s = %s;" % (d, e))
    lines.append("    [%s]" % ", ".join(outs))
    lines.append("}")
    return "\n".join(lines)


def emit_linear(name, doc, gates, final):
    lines = ["/// %s" % doc,
             "#[inline(never)]",
             "pub(crate) fn %s<L: Lane>(s: &[[L; 8]; 8]) -> [[L; 8]; 8] {" % name]
    names = ["s[%d][%d]" % (i // 8, i % 8) for i in range(64)]
    ops = []
    for n, a, b in gates:
        ops.append(("u%d" % n, "xor", names[a], names[b]))
        names.append("u%d" % n)
    for d, op, a, b in dfs_order(ops, [names[f] for f in final]):
        lines.append("    let %s = %s ^ %s;" % (d, a, b))
    rows = []
    for r in range(8):
        rows.append("[" + ", ".join(names[final[8 * r + b]] for b in range(8)) + "]")
    lines.append("    [")
    for r in rows:
        lines.append("        %s," % r)
    lines.append("    ]")
    lines.append("}")
    return "\n".join(lines)


def main():
    sboxes, invs, mds, mds_inv = read_tables()
    parts = ["""//! Bitsliced circuits for the portable Kalyna and Kupyna backends: the eight S-boxes
//! (pi_0..pi_3 and their inverses) as AND / XOR / AND-NOT / NOT networks, and the MDS step
//! and its inverse as XOR networks over the 64 bit planes of a column.
//!
//! GENERATED by `scripts/kalyna_circuits.py` from `tables.rs`; do not edit by hand (run the
//! script instead). The method is described in the script. Unit tests in `soft.rs` check
//! every S-box circuit on all 256 inputs and both linear maps on every unit vector.
#![forbid(unsafe_code)]
#![allow(clippy::many_single_char_names, clippy::too_many_lines)]

use super::soft::Lane;
"""]
    counts = []
    for i in range(4):
        c, outs = best_sbox(sboxes[i], 100 + i)
        counts.append(("sbox%d" % i, c.count()))
        parts.append(emit_sbox("sbox%d" % i, "pi_%d: %d gates." % (i, c.count()), c, outs))
    for i in range(4):
        c, outs = best_sbox(invs[i], 200 + i)
        counts.append(("sbox%d_inv" % i, c.count()))
        parts.append(emit_sbox("sbox%d_inv" % i, "The inverse of pi_%d: %d gates." % (i, c.count()),
                               c, outs))
    for name, row, seed in (("mds", mds, 300), ("mds_inv", mds_inv, 301)):
        masks = mds_rows(row)
        gates, final = linear_circuit(masks, seed, 4)
        check_linear(gates, final, masks)
        counts.append((name, len(gates)))
        what = "The MDS step" if name == "mds" else "The inverse MDS step"
        parts.append(emit_linear(name, "%s on one column, `s[row][bit]`: %d XORs." % (what, len(gates)),
                                 gates, final))
    text = "\n\n".join(parts) + "\n"
    for n, k in counts:
        print("%-12s %d" % (n, k), file=sys.stderr)
    if "--check" in sys.argv:
        if open(OUT).read() != text:
            sys.exit("soft_circuits.rs differs from the generator's output")
        return
    open(OUT, "w").write(text)


if __name__ == "__main__":
    main()
