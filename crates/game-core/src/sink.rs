//! Allocation-free receivers for [`Game::legal_actions`](crate::Game::legal_actions), used by
//! the provided methods of [`Game`](crate::Game).

/// Counts what it is given.
#[derive(Default)]
pub(crate) struct Count(pub(crate) usize);

impl<A> Extend<A> for Count {
    #[inline]
    fn extend<I: IntoIterator<Item = A>>(&mut self, iter: I) {
        self.0 += iter.into_iter().count();
    }
}

/// Keeps the item at one index of everything it is given, counting across calls.
pub(crate) struct Nth<A> {
    remaining: usize,
    pub(crate) found: Option<A>,
}

impl<A> Nth<A> {
    pub(crate) fn new(index: usize) -> Self {
        Nth {
            remaining: index,
            found: None,
        }
    }
}

impl<A> Extend<A> for Nth<A> {
    #[inline]
    fn extend<I: IntoIterator<Item = A>>(&mut self, iter: I) {
        if self.found.is_some() {
            return;
        }
        // A game may call `extend` several times; the index runs across all the calls.
        for a in iter {
            if self.remaining == 0 {
                self.found = Some(a);
                return;
            }
            self.remaining -= 1;
        }
    }
}

/// Looks for one action.
pub(crate) struct Contains<A> {
    target: A,
    pub(crate) found: bool,
}

impl<A> Contains<A> {
    pub(crate) fn new(target: A) -> Self {
        Contains {
            target,
            found: false,
        }
    }
}

impl<A: PartialEq> Extend<A> for Contains<A> {
    #[inline]
    fn extend<I: IntoIterator<Item = A>>(&mut self, iter: I) {
        if !self.found {
            self.found = iter.into_iter().any(|a| a == self.target);
        }
    }
}
