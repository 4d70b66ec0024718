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

/// Runs `check` on every input a fuzz target kept, the files of `dir` in
/// name order, so that what the fuzzer found stays fixed (each engine's
/// regression tests call it on `fuzz/regressions/<target>/`).
///
/// # Panics
/// When `dir` cannot be read or holds no input, naming it, and when `check`
/// panics on any input, naming every such input.
pub fn replay_kept(dir: &std::path::Path, check: fn(&[u8])) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    let mut files: Vec<std::path::PathBuf> = entries.map(|entry| entry.expect("a directory entry").path()).collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no inputs", dir.display());
    let failed: Vec<String> = files
        .into_iter()
        .filter(|path| {
            let bytes = std::fs::read(path).expect("a readable input");
            std::panic::catch_unwind(|| check(&bytes)).is_err()
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(failed.is_empty(), "inputs that break the checks of {}: {failed:?}", dir.display());
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
