//! A pair of equal-length byte regions that may be the same memory (in place) or two
//! different buffers (buffer to buffer), so one kernel serves both forms of every API.
//!
//! The safe accessors check bounds; backend kernels that use the raw pointers must stay
//! inside `len()` bytes, which is the whole contract of this type.

use core::marker::PhantomData;

use crate::Error;

/// Input and output regions of the same length; `src == dst` when working in place.
pub(crate) struct InOut<'a> {
    src: *const u8,
    dst: *mut u8,
    len: usize,
    _life: PhantomData<&'a mut [u8]>,
}

impl<'a> InOut<'a> {
    /// Work in place on `buf`.
    pub(crate) fn in_place(buf: &'a mut [u8]) -> Self {
        let len = buf.len();
        let dst = buf.as_mut_ptr();
        InOut {
            src: dst,
            dst,
            len,
            _life: PhantomData,
        }
    }

    /// Read from `src`, write to `dst`; the lengths must match.
    pub(crate) fn new(src: &'a [u8], dst: &'a mut [u8]) -> Result<Self, Error> {
        if src.len() != dst.len() {
            return Err(Error::LengthMismatch {
                input: src.len(),
                output: dst.len(),
            });
        }
        Ok(InOut {
            src: src.as_ptr(),
            dst: dst.as_mut_ptr(),
            len: src.len(),
            _life: PhantomData,
        })
    }

    /// Length in bytes of both regions.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Copy `N` input bytes starting at `off`. Panics (a bug, never an input error) when out
    /// of range.
    #[inline(always)]
    pub(crate) fn read<const N: usize>(&self, off: usize) -> [u8; N] {
        assert!(off <= self.len && N <= self.len - off);
        let mut out = [0u8; N];
        // SAFETY: `off + N <= len` was checked above and `src` is valid for `len` bytes
        // for 'a; `out` is a distinct local.
        unsafe { core::ptr::copy_nonoverlapping(self.src.add(off), out.as_mut_ptr(), N) };
        out
    }

    /// Write `N` bytes to the output starting at `off`. Panics (a bug) when out of range.
    #[inline(always)]
    pub(crate) fn write<const N: usize>(&mut self, off: usize, v: &[u8; N]) {
        assert!(off <= self.len && N <= self.len - off);
        // SAFETY: bounds checked above; `dst` is valid for writes of `len` bytes for 'a and
        // `v` is a distinct value, so the regions do not overlap.
        unsafe { core::ptr::copy_nonoverlapping(v.as_ptr(), self.dst.add(off), N) };
    }

    /// Raw input pointer, valid for `len()` bytes.
    #[inline(always)]
    #[allow(dead_code)] // not every target has a pointer-based kernel
    pub(crate) fn src_ptr(&self) -> *const u8 {
        self.src
    }

    /// Raw output pointer, valid for writes of `len()` bytes (may equal `src_ptr()`).
    #[inline(always)]
    #[allow(dead_code)]
    pub(crate) fn dst_ptr(&mut self) -> *mut u8 {
        self.dst
    }
}
