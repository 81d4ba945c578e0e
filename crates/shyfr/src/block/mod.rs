//! Block ciphers: one folder per cipher, one file per backend.
//!
//! [`BlockCipher`] is the slim interface every cipher implements: its block length, the
//! multi-block encrypt and decrypt calls (the ones backends make fast), and how many blocks
//! its widest kernel likes per call. The modes of operation ([`crate::mode`]) are written
//! against it and against [`crate::mode::BlockModes`], the mode-owned trait of their inner
//! loops, through which a cipher with fused kernels (AES) gives the modes those kernels.

pub mod aes;
pub mod des;
pub mod gost28147;
pub mod kalyna;

use crate::Error;

/// The largest block length the modes support (Kalyna-512: 64 bytes).
pub const MAX_BLOCK_LEN: usize = 64;

/// Input and output of a bulk call: one buffer worked on in place, or an input buffer read
/// and an output buffer of the same length written.
///
/// Every inner loop of [`crate::mode::BlockModes`] takes one, so that each kernel serves
/// both forms of every API.
#[derive(Debug)]
pub struct InOutBuf<'a> {
    repr: Repr<'a>,
}

#[derive(Debug)]
enum Repr<'a> {
    InPlace(&'a mut [u8]),
    Split {
        input: &'a [u8],
        output: &'a mut [u8],
    },
}

impl<'a> InOutBuf<'a> {
    /// Work in place on `buf`.
    #[inline]
    pub fn in_place(buf: &'a mut [u8]) -> Self {
        InOutBuf {
            repr: Repr::InPlace(buf),
        }
    }

    /// Read `input`, write `output`; [`Error::LengthMismatch`] unless the lengths agree.
    #[inline]
    pub fn new(input: &'a [u8], output: &'a mut [u8]) -> Result<Self, Error> {
        if input.len() != output.len() {
            return Err(Error::LengthMismatch {
                input: input.len(),
                output: output.len(),
            });
        }
        Ok(InOutBuf {
            repr: Repr::Split { input, output },
        })
    }

    /// Length in bytes (of the input and of the output).
    #[inline]
    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::InPlace(b) => b.len(),
            Repr::Split { input, .. } => input.len(),
        }
    }

    /// Whether the length is zero.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The input bytes (for an in-place buffer: its current contents).
    #[inline]
    pub fn input(&self) -> &[u8] {
        match &self.repr {
            Repr::InPlace(b) => b,
            Repr::Split { input, .. } => input,
        }
    }

    /// A shorter-lived view of the same regions.
    #[inline]
    pub fn reborrow(&mut self) -> InOutBuf<'_> {
        match &mut self.repr {
            Repr::InPlace(b) => InOutBuf::in_place(b),
            Repr::Split { input, output } => InOutBuf {
                repr: Repr::Split { input, output },
            },
        }
    }

    /// Splits into `[0, mid)` and `[mid, len)`. Panics (a bug) if `mid > len()`.
    #[inline]
    pub fn split_at(self, mid: usize) -> (InOutBuf<'a>, InOutBuf<'a>) {
        match self.repr {
            Repr::InPlace(b) => {
                let (x, y) = b.split_at_mut(mid);
                (InOutBuf::in_place(x), InOutBuf::in_place(y))
            }
            Repr::Split { input, output } => {
                let (i0, i1) = input.split_at(mid);
                let (o0, o1) = output.split_at_mut(mid);
                (
                    InOutBuf {
                        repr: Repr::Split {
                            input: i0,
                            output: o0,
                        },
                    },
                    InOutBuf {
                        repr: Repr::Split {
                            input: i1,
                            output: o1,
                        },
                    },
                )
            }
        }
    }

    /// Copies the input to the output (nothing to do in place) and returns the output, for
    /// code that then works in place.
    #[inline]
    pub fn into_copied_output(self) -> &'a mut [u8] {
        match self.repr {
            Repr::InPlace(b) => b,
            Repr::Split { input, output } => {
                output.copy_from_slice(input);
                output
            }
        }
    }

    /// `output[off..off + x.len()] = input[off..off + x.len()] ^ x`.
    #[inline]
    pub fn xor_at(&mut self, off: usize, x: &[u8]) {
        match &mut self.repr {
            Repr::InPlace(b) => xor_in(&mut b[off..off + x.len()], x),
            Repr::Split { input, output } => {
                let (i, o) = (&input[off..off + x.len()], &mut output[off..off + x.len()]);
                for ((o, i), x) in o.iter_mut().zip(i).zip(x) {
                    *o = i ^ x;
                }
            }
        }
    }

    /// `output[off..off + x.len()] = x`.
    #[inline]
    pub fn write_at(&mut self, off: usize, x: &[u8]) {
        match &mut self.repr {
            Repr::InPlace(b) => b[off..off + x.len()].copy_from_slice(x),
            Repr::Split { output, .. } => output[off..off + x.len()].copy_from_slice(x),
        }
    }

    /// The crate's raw-pointer view, for backend kernels.
    #[inline]
    #[allow(dead_code)] // only targets with fused kernels use it
    pub(crate) fn inout(&mut self) -> crate::inout::InOut<'_> {
        match &mut self.repr {
            Repr::InPlace(b) => crate::inout::InOut::in_place(b),
            Repr::Split { input, output } => {
                crate::inout::InOut::new(input, output).expect("lengths checked at construction")
            }
        }
    }
}

/// `a ^= b` over the shorter of the two.
#[inline]
pub(crate) fn xor_in(a: &mut [u8], b: &[u8]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= y;
    }
}

/// A block cipher with a fixed key: the interface the modes of operation are written against.
///
/// The multi-block calls are the ones backends make fast; they take whole blocks only and
/// return [`Error::NotWholeBlocks`] otherwise. The modes' inner loops (CTR, CBC, CFB, OFB,
/// XTS, CBC-MAC, CCM) are the mode-owned trait [`crate::mode::BlockModes`]: a cipher
/// implements it, empty to take the portable loops or with its fused kernels.
pub trait BlockCipher {
    /// Block length in bytes.
    const BLOCK_LEN: usize;

    /// How many blocks the cipher's widest kernel keeps in flight: the portable mode loops
    /// hand it at least this many per call (up to 4 KiB). The default suits a cipher whose
    /// kernels work on a few blocks at a time.
    const PAR_BLOCKS: usize = 8;

    /// Encrypts whole blocks in place.
    fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error>;
    /// Decrypts whole blocks in place.
    fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error>;
    /// Encrypts whole blocks from `input` into `output` (same length).
    fn encrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error>;
    /// Decrypts whole blocks from `input` into `output` (same length).
    fn decrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error>;
}

/// A shared reference to a cipher is a cipher: modes own their cipher, so a key set up
/// once can serve several modes (`Ctr::new(&aes, iv)`).
impl<T: BlockCipher> BlockCipher for &T {
    const BLOCK_LEN: usize = T::BLOCK_LEN;
    const PAR_BLOCKS: usize = T::PAR_BLOCKS;
    #[inline]
    fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        (**self).encrypt_blocks(data)
    }
    #[inline]
    fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        (**self).decrypt_blocks(data)
    }
    #[inline]
    fn encrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        (**self).encrypt_blocks_to(input, output)
    }
    #[inline]
    fn decrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        (**self).decrypt_blocks_to(input, output)
    }
}

/// `Ok` when `len` is a whole number of `block`-byte blocks.
#[inline]
pub(crate) fn check_whole_blocks(len: usize, block: usize) -> Result<(), Error> {
    if len.is_multiple_of(block) {
        Ok(())
    } else {
        Err(Error::NotWholeBlocks { len, block })
    }
}

/// `Ok` when a chaining value (IV, counter, MAC state) is exactly one `block`-byte block.
#[inline]
pub(crate) fn check_iv(len: usize, block: usize) -> Result<(), Error> {
    if len == block {
        Ok(())
    } else {
        Err(Error::InvalidNonceLength { got: len })
    }
}
