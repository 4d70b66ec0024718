//! Arbitrary bytes read as a stream of small choices: the input of every
//! engine's `invariants` (its fuzz targets and their regression tests).

/// Fuzz input read front to back; once it runs out every read gives 0, so
/// any input, the empty one included, describes a whole game.
#[derive(Debug, Clone)]
pub struct Input<'a> {
    bytes: &'a [u8],
}

impl<'a> Input<'a> {
    /// Reads `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Input { bytes }
    }

    /// The next byte, or 0 when the input is used up.
    pub fn byte(&mut self) -> u8 {
        match self.bytes.split_first() {
            Some((&b, rest)) => {
                self.bytes = rest;
                b
            }
            None => 0,
        }
    }

    /// A number in `0..n` (`n` from 1 to 256) from one byte.
    pub fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n.clamp(1, 256)
    }

    /// A flag from one byte's lowest bit.
    pub fn flag(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// A `u64` from eight bytes, little-endian.
    pub fn u64(&mut self) -> u64 {
        u64::from_le_bytes(std::array::from_fn(|_| self.byte()))
    }

    /// Whether the input is used up.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_then_gives_zeros() {
        let mut input = Input::new(&[7, 1, 2, 0, 0, 0, 0, 0, 0, 0, 9]);
        assert_eq!(input.below(5), 2);
        assert!(input.flag());
        assert_eq!(input.u64(), 2);
        assert!(!input.is_empty());
        assert_eq!(input.byte(), 9);
        assert!(input.is_empty());
        assert_eq!((input.byte(), input.below(3), input.u64()), (0, 0, 0));
    }
}
