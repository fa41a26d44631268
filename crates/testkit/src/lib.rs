//! What the crates' tests share: the seeded generator behind the bounded fuzz rounds that run
//! inside `cargo test` (class files, jimage, object graphs, 9P frames). A fixed seed makes
//! every run test the same inputs, so a failure found once is found again.

#![forbid(unsafe_code)]

/// A xorshift64 generator. The seed must not be zero.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn the_same_seed_gives_the_same_numbers_within_bounds() {
        let (mut a, mut b) = (Rng(42), Rng(42));
        for n in 0..1000 {
            let x = a.below(n);
            assert_eq!(x, b.below(n));
            assert!(x < n.max(1));
        }
    }
}
