//! Bitboards: one bit per square of a [`Geometry`](crate::geometry::Geometry) layout.

/// A set of squares.
pub type Bits = u128;

/// Iterates over the set bits of `b`, lowest first.
#[inline(always)]
pub fn iter(mut b: Bits) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let i = b.trailing_zeros() as u8;
            b &= b - 1;
            Some(i)
        }
    })
}

/// Number of set bits.
#[inline(always)]
pub fn count(b: Bits) -> u32 {
    b.count_ones()
}
