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
    #[inline]
    pub(in crate::hash) fn update(
        &mut self,
        mut data: &[u8],
        mut compress: impl FnMut(&[[u8; N]]),
    ) {
        if self.pos > 0 {
            let take = (N - self.pos).min(data.len());
            self.buf[self.pos..self.pos + take].copy_from_slice(&data[..take]);
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
        self.buf[..rest.len()].copy_from_slice(rest);
        self.pos = rest.len();
    }

    /// Appends the padding and `len_be` (the message length in bits, big-endian, 8 or 16
    /// bytes) and compresses the last one or two blocks. The buffer is left empty.
    #[inline]
    pub(in crate::hash) fn finish(&mut self, len_be: &[u8], mut compress: impl FnMut(&[[u8; N]])) {
        let l = len_be.len();
        let pos = self.pos;
        self.buf[pos] = 0x80;
        self.buf[pos + 1..].fill(0);
        if pos + 1 > N - l {
            compress(core::slice::from_ref(&self.buf));
            self.buf.fill(0);
        }
        self.buf[N - l..].copy_from_slice(len_be);
        compress(core::slice::from_ref(&self.buf));
        self.pos = 0;
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
