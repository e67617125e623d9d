//! Bitboards: one bit per square of a [`Geometry`](crate::geometry::Geometry) layout.
//!
//! Positions store `u128` ([`Bits`]); move generation runs on `u64` wherever the board's
//! layout fits in 64 bits (every board but Canadian 12x12), through the [`Set`] trait.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// A set of squares.
pub type Bits = u128;

/// Iterates over the set bits of `b`, lowest first.
#[inline(always)]
pub fn iter(b: Bits) -> impl Iterator<Item = u8> {
    iter_set(b)
}

/// Iterates over the set bits of any [`Set`], lowest first.
#[inline(always)]
pub fn iter_set<B: Set>(mut b: B) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || if b == B::ZERO { None } else { Some(b.pop_lowest()) })
}

/// Number of set bits.
#[inline(always)]
pub fn count(b: Bits) -> u32 {
    b.count_ones()
}

/// A bitboard type: `u64` or `u128`.
pub trait Set:
    Copy
    + PartialEq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + std::fmt::Debug
    + 'static
{
    /// The empty set.
    const ZERO: Self;
    /// The low bits of a `u128` (the caller knows the layout fits).
    fn narrow(b: u128) -> Self;
    /// As a `u128`.
    fn wide(self) -> u128;
    /// Picks the table of this width.
    fn pick(wide: u128, narrow: u64) -> Self;
    /// Shifts up (`s > 0`) or down; bits leaving the type are dropped.
    fn shift(self, s: i8) -> Self;
    /// Number of members.
    fn count(self) -> u32;
    /// Index of the lowest member (the set must not be empty).
    fn lowest(self) -> u8;
    /// Removes and returns the lowest member.
    fn pop_lowest(&mut self) -> u8;
    /// The set holding bit `i`.
    fn bit(i: u8) -> Self;
    /// Whether the set is empty.
    #[inline(always)]
    fn none(self) -> bool {
        self == Self::ZERO
    }
    /// Whether the set has a member.
    #[inline(always)]
    fn any(self) -> bool {
        self != Self::ZERO
    }
}

macro_rules! set_impl {
    ($t:ty, $pick:expr) => {
        impl Set for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn narrow(b: u128) -> Self {
                b as $t
            }
            #[inline(always)]
            fn wide(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn pick(wide: u128, narrow: u64) -> Self {
                ($pick)(wide, narrow)
            }
            #[inline(always)]
            fn shift(self, s: i8) -> Self {
                if s >= 0 { self << s } else { self >> (-s) }
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> u8 {
                self.trailing_zeros() as u8
            }
            #[inline(always)]
            fn pop_lowest(&mut self) -> u8 {
                let i = self.trailing_zeros() as u8;
                *self &= *self - 1;
                i
            }
            #[inline(always)]
            fn bit(i: u8) -> Self {
                1 << i
            }
        }
    };
}

set_impl!(u64, |_: u128, n: u64| n);
set_impl!(u128, |w: u128, _: u64| w);
