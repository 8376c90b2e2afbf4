//! Distinct values in first-seen order, in the arena: the first [`SCAN_MAX`] compared one by
//! one, a hash set past them, so that a long list of values (authors, category terms) costs
//! linear time.

use std::collections::HashSet;
use std::hash::Hash;

use bumpalo::collections::Vec as BumpVec;
use bumpalo::Bump;

/// Values compared one by one before a hash set takes over.
const SCAN_MAX: usize = 16;

/// The distinct values pushed so far, in first-seen order.
pub(crate) struct Unique<'b, T> {
    out: BumpVec<'b, T>,
    seen: Option<HashSet<T>>,
}

impl<'b, T: Copy + Eq + Hash> Unique<'b, T> {
    /// An empty list with room for `capacity` values.
    pub(crate) fn with_capacity_in(capacity: usize, arena: &'b Bump) -> Self {
        Unique { out: BumpVec::with_capacity_in(capacity, arena), seen: None }
    }

    /// Adds `value` unless it is there already.
    pub(crate) fn push(&mut self, value: T) {
        match &mut self.seen {
            Some(seen) => {
                if seen.insert(value) {
                    self.out.push(value);
                }
            }
            None => {
                if !self.out.contains(&value) {
                    self.out.push(value);
                    if self.out.len() > SCAN_MAX {
                        self.seen = Some(self.out.iter().copied().collect());
                    }
                }
            }
        }
    }

    /// The values, in the arena.
    pub(crate) fn finish(self) -> &'b [T] {
        self.out.into_bump_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Repeats are dropped wherever they are, before and after the set takes over; the
    /// first of each stays in its place.
    #[test]
    fn first_seen_order_across_the_switch() {
        let arena = Bump::new();
        let mut u = Unique::with_capacity_in(0, &arena);
        for i in 0..100u32 {
            u.push(i % 40);
            u.push((i * 7) % 40);
        }
        let mut want: Vec<u32> = Vec::new();
        for i in 0..100u32 {
            for v in [i % 40, (i * 7) % 40] {
                if !want.contains(&v) {
                    want.push(v);
                }
            }
        }
        assert_eq!(u.finish(), &want[..]);
    }
}
