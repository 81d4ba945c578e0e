//! Wiping secrets from memory: volatile stores the optimiser may not remove, 32 bytes at a
//! time.
//!
//! The `zeroize` crate writes byte slices and arrays one volatile byte at a time (a
//! volatile store of each element), which for the keystream and state buffers of one
//! short message costs more than the message itself (a 64-byte AES-GCM seal wiped about
//! 150 bytes). [`wipe`] stores 32 zero bytes per volatile write of a `[u8; 32]` (alignment
//! 1, so any address is valid), which compiles to two 16-byte vector stores.

use core::sync::atomic::{compiler_fence, Ordering};

/// Overwrites `buf` with zeros in a way the compiler must keep.
#[inline]
pub(crate) fn wipe(buf: &mut [u8]) {
    let mut chunks = buf.chunks_exact_mut(32);
    for c in &mut chunks {
        let p = c.as_mut_ptr().cast::<[u8; 32]>();
        // SAFETY: `c` is 32 writable bytes and `[u8; 32]` has alignment 1.
        unsafe { core::ptr::write_volatile(p, [0; 32]) };
    }
    let rest = chunks.into_remainder();
    let mut chunks = rest.chunks_exact_mut(8);
    for c in &mut chunks {
        let p = c.as_mut_ptr().cast::<[u8; 8]>();
        // SAFETY: `c` is 8 writable bytes and `[u8; 8]` has alignment 1.
        unsafe { core::ptr::write_volatile(p, [0; 8]) };
    }
    for b in chunks.into_remainder() {
        // SAFETY: `b` is a valid, writable byte.
        unsafe { core::ptr::write_volatile(b, 0) };
    }
    compiler_fence(Ordering::SeqCst);
}

#[cfg(test)]
mod tests {
    use super::wipe;

    #[test]
    fn wipes_every_length_and_nothing_else() {
        for len in 0..100 {
            for off in 0..3 {
                let mut buf = [0xa5u8; 110];
                wipe(&mut buf[off..off + len]);
                for (i, b) in buf.iter().enumerate() {
                    let inside = i >= off && i < off + len;
                    assert_eq!(
                        *b,
                        if inside { 0 } else { 0xa5 },
                        "len {len} off {off} at {i}"
                    );
                }
            }
        }
    }
}
