//! The constants of Keccak-f\[1600\] (FIPS 202, section 3), shared by every backend.
//!
//! The round constants and rotation offsets are computed at compile time from their
//! definitions in FIPS 202 (Algorithm 5 `rc(t)` for iota, 3.2.2 for rho) rather than typed
//! in, so there is no table to mistype; the unit tests compare them with the printed tables.

/// Number of rounds of Keccak-f\[1600\] (`12 + 2 * l` with `l = 6`).
pub(crate) const ROUNDS: usize = 24;

/// The state width in bytes (1600 bits).
pub(crate) const STATE_BYTES: usize = 200;

/// The round constants `RC[i]` of iota (FIPS 202, 3.2.5): bit `2^j - 1` of `RC[i]` is
/// `rc(j + 7 i)`, with `rc` the output of the LFSR `x^8 + x^6 + x^5 + x^4 + 1` (Algorithm 5).
pub(crate) const RC: [u64; ROUNDS] = round_constants();

/// The rotation offsets of rho (FIPS 202, 3.2.2), by lane index `x + 5 y`.
pub(crate) const RHO: [u32; 25] = rho_offsets();

const fn round_constants() -> [u64; ROUNDS] {
    let mut out = [0u64; ROUNDS];
    // The LFSR register R of Algorithm 5, with R[0] as the least significant bit; one step
    // shifts towards R[7] and feeds R[8] back into R[0], R[4], R[5], R[6].
    let mut r: u8 = 1;
    let mut i = 0;
    while i < ROUNDS {
        let mut c = 0u64;
        let mut j = 0;
        while j < 7 {
            // rc(j + 7 i) is the current R[0].
            if r & 1 != 0 {
                c |= 1u64 << ((1u32 << j) - 1);
            }
            r = if r & 0x80 != 0 {
                (r << 1) ^ 0x71
            } else {
                r << 1
            };
            j += 1;
        }
        out[i] = c;
        i += 1;
    }
    out
}

const fn rho_offsets() -> [u32; 25] {
    let mut out = [0u32; 25];
    let (mut x, mut y) = (1usize, 0usize);
    let mut t = 0;
    while t < 24 {
        out[x + 5 * y] = (((t + 1) * (t + 2) / 2) % 64) as u32;
        let nx = y;
        let ny = (2 * x + 3 * y) % 5;
        x = nx;
        y = ny;
        t += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_match_fips202_tables() {
        // FIPS 202 3.2.5 / the Keccak reference, first, a middle and last constants.
        assert_eq!(RC[0], 0x0000_0000_0000_0001);
        assert_eq!(RC[1], 0x0000_0000_0000_8082);
        assert_eq!(RC[2], 0x8000_0000_0000_808a);
        assert_eq!(RC[12], 0x0000_0000_8000_808b);
        assert_eq!(RC[23], 0x8000_0000_8000_8008);
        // FIPS 202 Table 2 (x, y) offsets, here indexed x + 5 y.
        assert_eq!(
            RHO,
            [
                0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2,
                61, 56, 14
            ]
        );
    }
}
