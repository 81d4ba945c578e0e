//! Helpers shared by the fuzz targets: a reader that turns the fuzzer's bytes into
//! choices, lengths and data, never failing (an exhausted input reads as zeros).

/// The fuzzer's input, consumed from the front.
pub struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    /// Wraps the fuzzer's data.
    pub fn new(data: &'a [u8]) -> Self {
        Input(data)
    }

    /// One byte (0 once the input is used up).
    pub fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    /// A little-endian `u16`.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    /// A value in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.u16() as usize % n
    }

    /// One of `items`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// Whether the next byte is odd.
    pub fn bool(&mut self) -> bool {
        self.u8() & 1 == 1
    }

    /// `n` bytes (zero-padded once the input is used up).
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        let take = n.min(self.0.len());
        let mut v = self.0[..take].to_vec();
        self.0 = &self.0[take..];
        v.resize(n, 0);
        v
    }

    /// A length in `0..=max` and that many bytes.
    pub fn data(&mut self, max: usize) -> Vec<u8> {
        let n = self.below(max + 1);
        self.bytes(n)
    }

    /// Everything left.
    pub fn rest(&mut self) -> Vec<u8> {
        let v = self.0.to_vec();
        self.0 = &[];
        v
    }

    /// Split points for streaming: up to 8 cut positions in `0..=len`, sorted.
    pub fn cuts(&mut self, len: usize) -> Vec<usize> {
        let k = self.below(9);
        let mut v: Vec<usize> = (0..k).map(|_| self.below(len + 1)).collect();
        v.sort_unstable();
        v
    }
}

/// The pieces of `data` between `cuts` (see [`Input::cuts`]).
pub fn pieces<'d>(data: &'d [u8], cuts: &[usize]) -> Vec<&'d [u8]> {
    let mut out = Vec::new();
    let mut at = 0;
    for &c in cuts {
        out.push(&data[at..c]);
        at = c;
    }
    out.push(&data[at..]);
    out
}

/// Mutable pieces of `data` between `cuts`.
pub fn pieces_mut<'d>(mut data: &'d mut [u8], cuts: &[usize]) -> Vec<&'d mut [u8]> {
    let mut out = Vec::new();
    let mut at = 0;
    for &c in cuts {
        let (a, b) = data.split_at_mut(c - at);
        out.push(a);
        data = b;
        at = c;
    }
    out.push(data);
    out
}
