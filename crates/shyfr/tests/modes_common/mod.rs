//! Helpers shared by the modes tests: a cipher that forces the portable defaults of the
//! provided `BlockCipher` methods, toy ciphers with other block lengths, and parsers.
#![allow(dead_code)]

use shyfr::block::BlockCipher;
use shyfr::mode::BlockModes;
use shyfr::Error;

/// Forwards only the four required methods, so every provided (fused) method runs its
/// portable default: the reference the fused kernels are compared with.
pub struct Plain<C>(pub C);

impl<C: BlockCipher> BlockCipher for Plain<C> {
    const BLOCK_LEN: usize = C::BLOCK_LEN;
    fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        self.0.encrypt_blocks(data)
    }
    fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        self.0.decrypt_blocks(data)
    }
    fn encrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.0.encrypt_blocks_to(input, output)
    }
    fn decrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.0.decrypt_blocks_to(input, output)
    }
}

/// The portable loops of the modes.
impl<C: BlockCipher> BlockModes for Plain<C> {}

/// A toy invertible cipher with `B`-byte blocks (not secure: for checking that the modes
/// are correct for block lengths other than 16). Four rounds of: add the key byte-wise,
/// rotate every byte, then mix each byte into the next one.
#[derive(Clone)]
pub struct Toy<const B: usize> {
    key: [u8; B],
}

impl<const B: usize> Toy<B> {
    pub fn new(seed: u8) -> Self {
        Toy {
            key: core::array::from_fn(|i| (i as u8).wrapping_mul(37).wrapping_add(seed) | 1),
        }
    }

    fn enc(&self, b: &mut [u8]) {
        for _ in 0..4 {
            for (x, k) in b.iter_mut().zip(&self.key) {
                *x = x.wrapping_add(*k).rotate_left(3);
            }
            for i in 1..B {
                b[i] ^= b[i - 1];
            }
            b[0] ^= b[B - 1].rotate_left(1);
        }
    }

    fn dec(&self, b: &mut [u8]) {
        for _ in 0..4 {
            b[0] ^= b[B - 1].rotate_left(1);
            for i in (1..B).rev() {
                b[i] ^= b[i - 1];
            }
            for (x, k) in b.iter_mut().zip(&self.key) {
                *x = x.rotate_right(3).wrapping_sub(*k);
            }
        }
    }
}

impl<const B: usize> BlockModes for Toy<B> {}

impl<const B: usize> BlockCipher for Toy<B> {
    const BLOCK_LEN: usize = B;
    fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        if !data.len().is_multiple_of(B) {
            return Err(Error::NotWholeBlocks {
                len: data.len(),
                block: B,
            });
        }
        data.chunks_exact_mut(B).for_each(|b| self.enc(b));
        Ok(())
    }
    fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        if !data.len().is_multiple_of(B) {
            return Err(Error::NotWholeBlocks {
                len: data.len(),
                block: B,
            });
        }
        data.chunks_exact_mut(B).for_each(|b| self.dec(b));
        Ok(())
    }
    fn encrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        if input.len() != output.len() {
            return Err(Error::LengthMismatch {
                input: input.len(),
                output: output.len(),
            });
        }
        output.copy_from_slice(input);
        self.encrypt_blocks(output)
    }
    fn decrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        if input.len() != output.len() {
            return Err(Error::LengthMismatch {
                input: input.len(),
                output: output.len(),
            });
        }
        output.copy_from_slice(input);
        self.decrypt_blocks(output)
    }
}

/// Deterministic filler so failures are reproducible.
pub fn pattern(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed) ^ (i >> 8) as u8)
        .collect()
}

pub fn h(s: &str) -> Vec<u8> {
    hex::decode(s.replace([' ', '\n'], "")).unwrap()
}

/// A bit string `"0110..."` as bytes (most significant bit first) and its bit count.
pub fn bits(s: &str) -> (Vec<u8>, usize) {
    let mut v = vec![0u8; s.len().div_ceil(8)];
    for (i, c) in s.chars().enumerate() {
        match c {
            '1' => v[i / 8] |= 0x80 >> (i % 8),
            '0' => {}
            _ => panic!("not a bit string: {s}"),
        }
    }
    (v, s.len())
}

/// One record of the SP 800-38F key wrap files (`K`, `P`, `C`, or `FAIL`).
#[derive(Debug)]
pub struct KwRecord {
    pub line: usize,
    pub k: Vec<u8>,
    pub p: Option<Vec<u8>>,
    pub c: Vec<u8>,
}

/// Parses an SP 800-38F `KW_*` / `KWP_*` file; `FAIL` records have `p == None`.
pub fn read_kw(rel: &str) -> Vec<KwRecord> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let mut out = Vec::new();
    let (mut k, mut p, mut c, mut start) = (None, None, None, 0);
    let mut flush =
        |k: &mut Option<Vec<u8>>, p: &mut Option<Vec<u8>>, c: &mut Option<Vec<u8>>, line: usize| {
            if let (Some(kk), Some(cc)) = (k.take(), c.take()) {
                out.push(KwRecord {
                    line,
                    k: kk,
                    p: p.take(),
                    c: cc,
                });
            }
            *p = None;
        };
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with("COUNT") {
            flush(&mut k, &mut p, &mut c, start);
            start = i + 1;
        } else if let Some((name, v)) = line.split_once('=') {
            let v = hex::decode(v.trim()).ok();
            match name.trim() {
                "K" => k = v,
                "P" => p = v,
                "C" => c = v,
                _ => {}
            }
        }
    }
    flush(&mut k, &mut p, &mut c, start);
    out
}

/// Reads a Wycheproof JSON file from `testdata/wycheproof/`.
pub fn wycheproof(name: &str) -> serde_json::Value {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/wycheproof")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    // The file's own count of its tests, against the tests it holds.
    let held: usize = v["testGroups"]
        .as_array()
        .expect("testGroups")
        .iter()
        .map(|g| g["tests"].as_array().expect("tests").len())
        .sum();
    assert_eq!(
        held as u64,
        v["numberOfTests"].as_u64().expect("numberOfTests"),
        "{name}: test count"
    );
    v
}
