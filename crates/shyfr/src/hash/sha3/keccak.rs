//! Keccak-f\[1600\] (FIPS 202, section 3): the backend chosen once when a
//! state is created, and the byte-oriented sponge (absorb, pad, squeeze) every SHA-3
//! function is built on.
//!
//! # State layout
//!
//! The state is 25 lanes of 64 bits, `lanes[x + 5 * y]` for the lane at column `x` and row
//! `y` (FIPS 202, 3.1.2). Bytes map to lanes little-endian: byte `i` of the state string is
//! bits `8 * (i % 8) ..` of lane `i / 8` (FIPS 202, B.1). Every backend keeps this layout at
//! its interface, so a state can be handed from one backend to another.
//!
//! The constants are in `consts.rs`, which the backends share.

#[cfg(target_arch = "aarch64")]
use super::aarch64_sha3;
use super::consts::STATE_BYTES;
use super::soft;
#[cfg(target_arch = "x86_64")]
use super::x86_avx512;
#[cfg(target_arch = "x86_64")]
use super::x86_bmi;

crate::cpu::backends! {
    /// The implementations of Keccak-f\[1600\], fastest first (on Intel cores `x86_bmi`
    /// is chosen before `x86_avx512`: see `demote`).
    pub enum Backend("keccak"), tokens Kernel {
        /// ARMv8.2 SHA-3 instructions `EOR3`, `RAX1`, `XAR`, `BCAX` (aarch64).
        Aarch64Sha3 = "aarch64_sha3" ["aarch64"] crate::cpu::aarch64::Sha3Ce,
        /// AVX-512: one state with each lane in its own `xmm` register (`vpternlogq` for
        /// chi, `vprolq` for rho), and eight states at a time, one in each 64-bit lane of
        /// `zmm` registers, for [`Sha3_256::digest_many`](super::Sha3_256::digest_many) and
        /// the other `*_many` functions (x86-64).
        X86Avx512 = "x86_avx512" ["x86_64"] crate::cpu::x86::Avx512,
        /// BMI1 `andn` and BMI2 `rorx` on general-purpose registers (x86-64).
        X86Bmi = "x86_bmi" ["x86_64"] crate::cpu::x86::Bmi,
        /// Portable code.
        Soft = "soft",
    }
    self_test = self_test;
    demote = demote;
}

/// `x86_avx512` is tried after `x86_bmi` on Intel cores. Their vector logic runs on three
/// ports (two when 512-bit instructions are in flight) against four on AMD Zen 4, and the
/// one-state kernel is bound by its 95 to 105 vector operations a round: on a Sapphire
/// Rapids-class Xeon `x86_bmi` measured 4-8 % faster at every size from 16 bytes to 16 KiB
/// (SHA3-256 16 KiB 5.85 against 6.19-6.38 cycles/byte), on Zen 4 `x86_avx512` 1.24x
/// faster than `x86_bmi` (BENCHMARKS.md). The eight-state `*_many` kernels keep
/// `x86_avx512` everywhere ([`Kernel::best_many`]).
fn demote(b: Backend) -> bool {
    #[cfg(target_arch = "x86_64")]
    if b == Backend::X86Avx512 {
        return crate::cpu::x86::is_intel();
    }
    let _ = b;
    false
}

/// The known-answer self-test of a hardware backend (see [`agree`]).
fn self_test(b: Backend) -> bool {
    Kernel::new(b).is_some_and(|k| agree(k, Kernel::Soft))
}

impl Kernel {
    /// One application of Keccak-f\[1600\].
    #[inline]
    pub(crate) fn permute(self, lanes: &mut [u64; 25]) {
        match self {
            #[cfg(target_arch = "aarch64")]
            Kernel::Aarch64Sha3(t) => aarch64_sha3::permute(lanes, t),
            #[cfg(target_arch = "x86_64")]
            Kernel::X86Avx512(t) => x86_avx512::permute(lanes, t),
            #[cfg(target_arch = "x86_64")]
            Kernel::X86Bmi(t) => x86_bmi::permute(lanes, t),
            Kernel::Soft => soft::permute(lanes),
        }
    }

    /// For each `rate`-byte block of `blocks`: XOR it into the first `rate` bytes of the
    /// state, then permute. `rate` is a multiple of 8 from 8 to [`MAX_RATE`] (SHAKE128's,
    /// the largest any SHA-3 function uses; the `aarch64_sha3` kernel holds no more) and
    /// `blocks` a whole number of blocks (the sponge guarantees both).
    #[inline]
    pub(crate) fn absorb(self, lanes: &mut [u64; 25], blocks: &[u8], rate: usize) {
        debug_assert!(rate.is_multiple_of(8) && rate > 0 && rate <= MAX_RATE);
        debug_assert!(blocks.len().is_multiple_of(rate));
        match self {
            #[cfg(target_arch = "aarch64")]
            Kernel::Aarch64Sha3(t) => aarch64_sha3::absorb(lanes, blocks, rate, t),
            #[cfg(target_arch = "x86_64")]
            Kernel::X86Avx512(t) => x86_avx512::absorb(lanes, blocks, rate, t),
            #[cfg(target_arch = "x86_64")]
            Kernel::X86Bmi(t) => x86_bmi::absorb(lanes, blocks, rate, t),
            Kernel::Soft => soft::absorb(lanes, blocks, rate),
        }
    }
}

/// How many states the `*_many` functions process side by side (the x86-64 eight-state
/// kernel).
#[cfg(target_arch = "x86_64")]
const MANY: usize = 8;

/// The largest rate a kernel absorbs, in bytes (SHAKE128's 168).
pub(crate) const MAX_RATE: usize = 168;

impl Kernel {
    /// The kernel the `*_many` functions use when none is named: `x86_avx512`, which
    /// processes eight states in one pass, when available, else [`Kernel::best`].
    pub(crate) fn best_many() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if let Ok(k) = Kernel::checked(Backend::X86Avx512) {
            return k;
        }
        Kernel::best()
    }
}

/// Fewest messages of one block count for which the eight-state kernel runs (a batch from
/// [`crate::hash::batches`]); a lone message goes one by one on the one-state kernel.
/// Eight states take about the time of two messages or less one by one (Intel Xeon,
/// SHA3-256, 1 to 100 and 1,000 bytes: 1.9-2.0 and 1.7 with the padding in the kernel,
/// 2.3 and 1.8 before it; Zen 4 about 2 before it: BENCHMARKS.md).
#[cfg(target_arch = "x86_64")]
const MANY_MIN: usize = 2;

/// The sponge (rate `rate`, suffix `domain`, empty initial state) of each message of
/// `messages`, squeezed to `out_len` bytes into consecutive `out_len`-byte pieces of `out`:
/// with the eight-state kernel, messages of one count of whole blocks [`MANY`] at a time
/// (from [`crate::hash::batches`]), the others one by one. The caller checks
/// `out.len() == messages.len() * out_len`.
pub(crate) fn sponge_many(
    kernel: Kernel,
    rate: usize,
    domain: u8,
    messages: &[&[u8]],
    out_len: usize,
    out: &mut [u8],
) {
    debug_assert_eq!(out.len(), messages.len() * out_len);
    if out_len == 0 {
        return;
    }
    // One by one: on `kernel`, or on the best one-state kernel where `kernel` is the
    // eight-state one.
    let alone = |one: Kernel, i: usize, out: &mut [u8]| {
        let mut sp = Sponge::new(one, rate, domain);
        sp.absorb(messages[i]);
        sp.finish();
        sp.squeeze(&mut out[i * out_len..(i + 1) * out_len]);
    };
    #[cfg(target_arch = "x86_64")]
    if let Kernel::X86Avx512(t) = kernel {
        let one = Kernel::best();
        let mut states = [[0u64; 25]; MANY];
        crate::hash::batches::<MANY>(
            messages,
            |len| len / rate,
            |batch| {
                let n = batch.len();
                if n < MANY_MIN {
                    batch.iter().for_each(|&i| alone(one, i, out));
                    return;
                }
                // Lanes past the last message repeat it; their results are dropped.
                let m: [&[u8]; MANY] = core::array::from_fn(|s| messages[batch[s.min(n - 1)]]);
                x86_avx512::sponge_x8(&mut states, &m, rate, domain, t);
                let mut pos = 0;
                loop {
                    let k = (out_len - pos).min(rate);
                    for (&i, st) in batch.iter().zip(&states) {
                        copy_bytes(st, 0, &mut out[i * out_len + pos..i * out_len + pos + k]);
                    }
                    pos += k;
                    if pos == out_len {
                        break;
                    }
                    x86_avx512::permute_x8(&mut states, t);
                }
            },
        );
        crate::wipe::wipe(bytes_of_states(&mut states));
        return;
    }
    for i in 0..messages.len() {
        alone(kernel, i, out);
    }
}

/// The bytes of eight states (to wipe them).
#[cfg(target_arch = "x86_64")]
fn bytes_of_states(states: &mut [[u64; 25]; MANY]) -> &mut [u8] {
    let words = states.as_flattened_mut();
    // SAFETY: `u64` has no padding and every byte pattern is a valid `u8`; the slice
    // covers exactly the words' bytes and borrows them mutably.
    unsafe { core::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), 8 * words.len()) }
}

/// Whether kernel `hw` computes what `sw` does: one permutation of a fixed state, then
/// three blocks absorbed at the rates of SHA3-256 (136) and SHAKE128 (168). The self-test
/// of [`Backend::self_test`].
pub(super) fn agree(hw: Kernel, sw: Kernel) -> bool {
    let mut data = [0u8; 3 * 168];
    for (i, b) in data.iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(29) ^ (i >> 8) as u8 ^ 0x5c;
    }
    let start: [u64; 25] =
        core::array::from_fn(|i| 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(2 * i as u64 + 1));
    let (mut a, mut b) = (start, start);
    hw.permute(&mut a);
    sw.permute(&mut b);
    let mut ok = a == b;
    for rate in [136, 168] {
        hw.absorb(&mut a, &data[..3 * rate], rate);
        sw.absorb(&mut b, &data[..3 * rate], rate);
        ok &= a == b;
    }
    // Eight messages side by side (one count of whole blocks, tails of eight lengths),
    // padded in the kernel, against the one-state sponge of `sw`.
    #[cfg(target_arch = "x86_64")]
    if let Kernel::X86Avx512(t) = hw {
        let rate = 136;
        // Tails on both sides of a row's end, and one byte short of the rate (the suffix and
        // the last bit in one byte).
        let tails = [0, 1, 8, 63, 64, 100, 127, 135];
        let msgs: [&[u8]; MANY] = core::array::from_fn(|s| &data[s..s + rate + tails[s]]);
        let mut many = [[0u64; 25]; MANY];
        x86_avx512::sponge_x8(&mut many, &msgs, rate, 0x06, t);
        x86_avx512::permute_x8(&mut many, t);
        for (m, got) in msgs.iter().zip(&many) {
            let mut want = Sponge::new(sw, rate, 0x06);
            want.absorb(m);
            want.finish();
            sw.permute(&mut want.lanes);
            ok &= *got == want.lanes;
        }
    }
    ok
}

/// XORs `data` into the state bytes starting at byte `pos` (`pos + data.len() <= 200`).
fn xor_bytes(lanes: &mut [u64; 25], pos: usize, data: &[u8]) {
    let mut pos = pos;
    let mut data = data;
    // Leading bytes up to a lane boundary.
    while !pos.is_multiple_of(8) && !data.is_empty() {
        lanes[pos / 8] ^= u64::from(data[0]) << (8 * (pos % 8));
        pos += 1;
        data = &data[1..];
    }
    // Whole lanes.
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        lanes[pos / 8] ^= u64::from_le_bytes(w);
        pos += 8;
    }
    // Trailing bytes.
    for &b in chunks.remainder() {
        lanes[pos / 8] ^= u64::from(b) << (8 * (pos % 8));
        pos += 1;
    }
}

/// Copies state bytes `pos .. pos + out.len()` into `out` (`pos + out.len() <= 200`).
fn copy_bytes(lanes: &[u64; 25], pos: usize, out: &mut [u8]) {
    let mut pos = pos;
    let mut out = out;
    while !pos.is_multiple_of(8) && !out.is_empty() {
        out[0] = (lanes[pos / 8] >> (8 * (pos % 8))) as u8;
        pos += 1;
        out = &mut out[1..];
    }
    let mut chunks = out.chunks_exact_mut(8);
    for c in &mut chunks {
        c.copy_from_slice(&lanes[pos / 8].to_le_bytes());
        pos += 8;
    }
    for b in chunks.into_remainder() {
        *b = (lanes[pos / 8] >> (8 * (pos % 8))) as u8;
        pos += 1;
    }
}

/// The sponge construction (FIPS 202, section 4) over Keccak-f\[1600\] with byte-aligned
/// input, for one rate and one domain-separation suffix.
///
/// `domain` holds the suffix bits of the function (`01` for SHA-3, `1111` for SHAKE, `00`
/// for cSHAKE) followed by the first bit of `pad10*1`, packed as FIPS 202 B.2 does: `0x06`,
/// `0x1f`, `0x04`. The state is zeroed on drop: KMAC keeps key material in it.
#[derive(Clone)]
pub(crate) struct Sponge {
    lanes: [u64; 25],
    kernel: Kernel,
    /// Rate in bytes.
    rate: usize,
    /// Bytes absorbed into (or squeezed from) the current block.
    pos: usize,
    domain: u8,
    squeezing: bool,
}

impl Drop for Sponge {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.lanes);
    }
}

impl Sponge {
    pub(crate) fn new(kernel: Kernel, rate: usize, domain: u8) -> Sponge {
        debug_assert!(rate.is_multiple_of(8) && rate > 0 && rate < STATE_BYTES);
        Sponge {
            lanes: [0; 25],
            kernel,
            rate,
            pos: 0,
            domain,
            squeezing: false,
        }
    }

    pub(crate) fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Back to the empty state, keeping kernel, rate and domain.
    pub(crate) fn reset(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.lanes);
        self.pos = 0;
        self.squeezing = false;
    }

    /// Absorbs `data`. Must not be called after [`finish`](Self::finish).
    pub(crate) fn absorb(&mut self, data: &[u8]) {
        debug_assert!(!self.squeezing);
        let mut data = data;
        if self.pos > 0 {
            let n = (self.rate - self.pos).min(data.len());
            xor_bytes(&mut self.lanes, self.pos, &data[..n]);
            self.pos += n;
            data = &data[n..];
            if self.pos < self.rate {
                return;
            }
            self.kernel.permute(&mut self.lanes);
            self.pos = 0;
        }
        let whole = data.len() - data.len() % self.rate;
        if whole > 0 {
            self.kernel
                .absorb(&mut self.lanes, &data[..whole], self.rate);
        }
        let rest = &data[whole..];
        xor_bytes(&mut self.lanes, 0, rest);
        self.pos = rest.len();
    }

    /// Completes the current block with zero bytes (the end of SP 800-185 `bytepad`, when
    /// absorbing started at a block boundary).
    pub(crate) fn zero_pad_block(&mut self) {
        if self.pos > 0 {
            self.kernel.permute(&mut self.lanes);
            self.pos = 0;
        }
    }

    /// Appends the domain suffix and `pad10*1`, permutes, and switches to squeezing.
    pub(crate) fn finish(&mut self) {
        debug_assert!(!self.squeezing);
        self.lanes[self.pos / 8] ^= u64::from(self.domain) << (8 * (self.pos % 8));
        let last = self.rate - 1;
        self.lanes[last / 8] ^= 0x80u64 << (8 * (last % 8));
        self.kernel.permute(&mut self.lanes);
        self.pos = 0;
        self.squeezing = true;
    }

    /// Squeezes `out.len()` bytes, continuing where the previous call stopped.
    pub(crate) fn squeeze(&mut self, out: &mut [u8]) {
        debug_assert!(self.squeezing);
        let mut out = out;
        while !out.is_empty() {
            if self.pos == self.rate {
                self.kernel.permute(&mut self.lanes);
                self.pos = 0;
            }
            let n = (self.rate - self.pos).min(out.len());
            let (head, tail) = out.split_at_mut(n);
            copy_bytes(&self.lanes, self.pos, head);
            self.pos += n;
            out = tail;
        }
    }
}

/// SP 800-185 2.3.1 `left_encode(x)`: the byte count `n`, then `x` in `n` big-endian bytes
/// (`n >= 1`). Returns the buffer and the length used. `u128` holds any bit length of a
/// slice in memory.
pub(crate) fn left_encode(x: u128) -> ([u8; 17], usize) {
    let mut buf = [0u8; 17];
    let n = byte_len(x);
    buf[0] = n as u8;
    buf[1..=n].copy_from_slice(&x.to_be_bytes()[16 - n..]);
    (buf, n + 1)
}

/// SP 800-185 2.3.1 `right_encode(x)`: `x` in `n` big-endian bytes, then `n` (`n >= 1`).
pub(crate) fn right_encode(x: u128) -> ([u8; 17], usize) {
    let mut buf = [0u8; 17];
    let n = byte_len(x);
    buf[..n].copy_from_slice(&x.to_be_bytes()[16 - n..]);
    buf[n] = n as u8;
    (buf, n + 1)
}

/// Bytes needed for `x`, at least one.
fn byte_len(x: u128) -> usize {
    let bits = 128 - x.leading_zeros() as usize;
    bits.div_ceil(8).max(1)
}

impl Sponge {
    /// Absorbs SP 800-185 `encode_string(s)`: `left_encode(bit length)` then `s`.
    pub(crate) fn absorb_encoded_string(&mut self, s: &[u8]) {
        let (buf, n) = left_encode(s.len() as u128 * 8);
        self.absorb(&buf[..n]);
        self.absorb(s);
    }

    /// Absorbs `bytepad(encode_string(a) || encode_string(b) ..., rate)` for the given
    /// strings, starting at a block boundary (SP 800-185 2.3.3).
    pub(crate) fn absorb_bytepad_strings(&mut self, strings: &[&[u8]]) {
        debug_assert!(self.pos == 0);
        let (buf, n) = left_encode(self.rate as u128);
        self.absorb(&buf[..n]);
        for s in strings {
            self.absorb_encoded_string(s);
        }
        self.zero_pad_block();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every kernel this CPU runs, the portable one included.
    fn kernels() -> impl Iterator<Item = Kernel> {
        Backend::ALL.iter().filter_map(|&b| Kernel::new(b))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        /// The permutation and the absorb path of every kernel, at every rate the kernels
        /// take (standard or not, to [`MAX_RATE`]) and for zero to four blocks, equal the
        /// portable ones from a random state.
        #[test]
        fn kernels_agree_with_portable(
            state in proptest::array::uniform25(any::<u64>()),
            lanes in 1usize..=MAX_RATE / 8,
            data in proptest::collection::vec(any::<u8>(), 0..4 * 192 + 1),
        ) {
            for k in kernels() {
                let mut want = state;
                soft::permute(&mut want);
                let mut got = state;
                k.permute(&mut got);
                prop_assert_eq!(got, want, "{:?}", k);

                let rate = 8 * lanes;
                let whole = &data[..data.len() - data.len() % rate];
                let mut want = state;
                soft::absorb(&mut want, whole, rate);
                let mut got = state;
                k.absorb(&mut got, whole, rate);
                prop_assert_eq!(got, want, "{:?} rate {} blocks {}", k, rate, whole.len() / rate);
            }
        }
    }

    #[test]
    fn every_kernel_every_rate_every_block_count() {
        let data: alloc::vec::Vec<u8> = (0..5 * 192).map(|i| (i * 131 + 7) as u8).collect();
        let state: [u64; 25] =
            core::array::from_fn(|i| 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(i as u64 + 1));
        for k in kernels() {
            for lanes in 1..=MAX_RATE / 8 {
                let rate = 8 * lanes;
                for blocks in 0..=5 {
                    let mut want = state;
                    soft::absorb(&mut want, &data[..blocks * rate], rate);
                    let mut got = state;
                    k.absorb(&mut got, &data[..blocks * rate], rate);
                    assert_eq!(got, want, "{k:?} rate {rate} blocks {blocks}");
                }
            }
        }
    }

    #[test]
    fn encodings() {
        // SP 800-185 2.3.1: left_encode(0) = 01 00, right_encode(0) = 00 01.
        let (b, n) = left_encode(0);
        assert_eq!(&b[..n], &[1, 0]);
        let (b, n) = right_encode(0);
        assert_eq!(&b[..n], &[0, 1]);
        let (b, n) = left_encode(168);
        assert_eq!(&b[..n], &[1, 168]);
        let (b, n) = left_encode(256);
        assert_eq!(&b[..n], &[2, 1, 0]);
        let (b, n) = right_encode(0x0102_0304);
        assert_eq!(&b[..n], &[1, 2, 3, 4, 4]);
        let (b, n) = left_encode(u128::MAX);
        assert_eq!(n, 17);
        assert_eq!(b[0], 16);
    }

    #[test]
    fn byte_helpers_round_trip() {
        let mut lanes = [0u64; 25];
        let data: [u8; 200] = core::array::from_fn(|i| i as u8 ^ 0x5a);
        for start in 0..20 {
            for len in 0..(200 - start).min(40) {
                lanes = [0; 25];
                xor_bytes(&mut lanes, start, &data[..len]);
                let mut out = [0u8; 200];
                copy_bytes(&lanes, 0, &mut out);
                assert!(out[..start].iter().all(|&b| b == 0));
                assert_eq!(&out[start..start + len], &data[..len]);
                assert!(out[start + len..].iter().all(|&b| b == 0));
                let mut part = [0u8; 40];
                copy_bytes(&lanes, start, &mut part[..len]);
                assert_eq!(&part[..len], &data[..len]);
            }
        }
        let _ = lanes;
    }
}
