//! Merkle–Damgård buffering shared by SHA-1 and SHA-2 (FIPS 180-4, 5.1 padding): the
//! partial block, and the final `0x80 00.. || length` block(s).
#![forbid(unsafe_code)]

/// A partial input block of `N` bytes. Whole blocks of the input bypass it: `update`
/// hands them to the compression function straight from the caller's slice, all in one
/// call, so a kernel keeps its state in registers across them.
#[derive(Clone)]
pub(in crate::hash) struct BlockBuffer<const N: usize> {
    buf: [u8; N],
    pos: usize,
}

impl<const N: usize> BlockBuffer<N> {
    pub(in crate::hash) const fn new() -> Self {
        BlockBuffer {
            buf: [0; N],
            pos: 0,
        }
    }

    /// Absorbs `data`, calling `compress` on whole blocks (never on an empty slice).
    #[inline(always)]
    pub(in crate::hash) fn update(
        &mut self,
        mut data: &[u8],
        mut compress: impl FnMut(&[[u8; N]]),
    ) {
        if self.pos > 0 {
            let take = (N - self.pos).min(data.len());
            copy_short(&mut self.buf[self.pos..], &data[..take]);
            self.pos += take;
            data = &data[take..];
            if self.pos < N {
                return;
            }
            compress(core::slice::from_ref(&self.buf));
            self.pos = 0;
        }
        let (blocks, rest) = data.as_chunks::<N>();
        if !blocks.is_empty() {
            compress(blocks);
        }
        copy_short(&mut self.buf, rest);
        self.pos = rest.len();
    }

    /// Appends the padding and `len_be` (the message length in bits, big-endian, 8 or 16
    /// bytes) and compresses the last one or two blocks. The buffer is left empty.
    #[inline(always)]
    pub(in crate::hash) fn finish(&mut self, len_be: &[u8], compress: impl FnMut(&[[u8; N]])) {
        finish_tail::<N>(&self.buf[..self.pos], len_be, compress);
        self.pos = 0;
    }

    /// The buffered bytes (fewer than `N`).
    #[inline(always)]
    pub(in crate::hash) fn pending(&self) -> &[u8] {
        &self.buf[..self.pos]
    }

    /// Forgets buffered input (the bytes stay until overwritten; see [`Self::wipe`]).
    #[inline]
    pub(in crate::hash) fn clear(&mut self) {
        self.pos = 0;
    }

    /// Overwrites the buffer with zeros in a way the optimiser keeps, and empties it.
    pub(in crate::hash) fn wipe(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.buf);
        self.pos = 0;
    }
}

/// Pads the last `tail.len() < N` bytes of a message with `0x80`, zeros and `len_be`
/// (its length in bits, big-endian, 8 or 16 bytes) and compresses the one or two blocks.
#[inline(always)]
pub(in crate::hash) fn finish_tail<const N: usize>(
    tail: &[u8],
    len_be: &[u8],
    mut compress: impl FnMut(&[[u8; N]]),
) {
    let (l, pos) = (len_be.len(), tail.len());
    let mut block = [0u8; N];
    copy_short(&mut block, tail);
    // `0x80` and the zeros after it in the same stores (a load of the block that needs
    // bytes of several recent stores waits for them to reach the cache).
    copy_short(&mut block[pos..], &PAD[..N - pos]);
    if pos + 1 > N - l {
        compress(core::slice::from_ref(&block));
        block = [0; N];
    }
    block[N - l..].copy_from_slice(len_be);
    compress(core::slice::from_ref(&block));
}

// The partial block is at most 127 bytes, and most messages are short: copying it with
// `copy_from_slice` of a run-time length calls the C library's `memcpy` (and `fill`,
// `memset`), whose call costs as much as the copy. `copy_short` copies with at most two
// fixed-size (overlapping) moves, which compile to a few vector loads and stores.

/// `dst[..src.len()] = src` (`src.len() <= dst.len()`).
#[inline(always)]
fn copy_short(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    let dst = &mut dst[..n];
    macro_rules! two {
        ($w:literal) => {{
            dst[..$w].copy_from_slice(&src[..$w]);
            dst[n - $w..].copy_from_slice(&src[n - $w..]);
        }};
    }
    match n {
        0 => {}
        1..=3 => {
            dst[0] = src[0];
            dst[n / 2] = src[n / 2];
            dst[n - 1] = src[n - 1];
        }
        4..=7 => two!(4),
        8..=15 => two!(8),
        16..=31 => two!(16),
        32..=63 => two!(32),
        64..=128 => two!(64),
        _ => dst.copy_from_slice(src),
    }
}

/// `0x80` and zeros: the padding of every block length up to 128.
static PAD: [u8; 128] = {
    let mut p = [0u8; 128];
    p[0] = 0x80;
    p
};

#[cfg(test)]
mod tests {
    use super::{copy_short, PAD};

    #[test]
    fn short_copy_every_length() {
        assert!(PAD[0] == 0x80 && PAD[1..].iter().all(|&b| b == 0));
        let src: [u8; 140] = core::array::from_fn(|i| i as u8 ^ 0x5a);
        for n in 0..=140 {
            for off in [0, 1, 7] {
                let mut dst = [0xeeu8; 160];
                copy_short(&mut dst[off..], &src[..n]);
                assert_eq!(&dst[off..off + n], &src[..n], "copy {n} at {off}");
                assert!(dst[..off].iter().chain(&dst[off + n..]).all(|&b| b == 0xee));
            }
        }
    }
}
