//! A task's origin: where it was spawned and, if it was given one, its
//! name, kept in one word of the task cell's trailer.
//!
//! Most tasks have no name, so an unnamed task stores only its
//! `&'static Location`; a named task stores a pointer to a boxed
//! (name, location) pair, told apart by the pointer's low bit. One word
//! instead of two keeps a task whose future is a few words long in one
//! 128-byte cell next to the poll statistics.

use std::panic::Location;
use std::ptr::NonNull;

/// A spawn location, and a name if the task has one.
pub(crate) struct Origin {
    /// Either a `&'static Location<'static>` (low bit clear) or a
    /// `Box<Named>` whose address has the low bit set.
    ptr: NonNull<()>,
}

/// What a named task's origin points at.
struct Named {
    name: Box<str>,
    location: &'static Location<'static>,
}

/// The low bit of `ptr` marks a `Named`. Both pointees are at least
/// 2-aligned, so the bit is free in both.
const NAMED: usize = 1;

const _: () = assert!(std::mem::align_of::<Location<'static>>() > NAMED);
const _: () = assert!(std::mem::align_of::<Named>() > NAMED);

impl Origin {
    /// The origin of a task spawned at `location`, named `name`.
    #[inline]
    pub(crate) fn new(location: &'static Location<'static>, name: Option<Box<str>>) -> Origin {
        let ptr = match name {
            None => NonNull::from(location).cast(),
            Some(name) => {
                let named = NonNull::from(Box::leak(Box::new(Named { name, location })));
                // Tag through the pointer (not an integer) so that it keeps
                // its provenance; `named_ptr` removes the tag the same way.
                // SAFETY: `Named` is larger than `NAMED` bytes, so the
                // tagged pointer stays inside its allocation.
                unsafe { named.byte_add(NAMED) }.cast()
            }
        };
        Origin { ptr }
    }

    /// The `Named` this origin owns, if the task has a name.
    #[inline]
    fn named_ptr(&self) -> Option<NonNull<Named>> {
        if self.ptr.as_ptr() as usize & NAMED == 0 {
            return None;
        }
        // SAFETY: the tagged pointer is `NAMED` bytes into the `Named`
        // allocation (see `new`), so this goes back to its start.
        Some(unsafe { self.ptr.byte_sub(NAMED) }.cast())
    }

    fn named(&self) -> Option<&Named> {
        // SAFETY: a set tag bit means `new` stored a leaked `Box<Named>`
        // here, which lives until `drop` frees it.
        self.named_ptr().map(|named| unsafe { named.as_ref() })
    }

    /// Where the task was spawned.
    #[inline]
    pub(super) fn location(&self) -> &'static Location<'static> {
        match self.named() {
            Some(named) => named.location,
            // SAFETY: a clear tag bit means `new` stored a
            // `&'static Location` here.
            None => unsafe { self.ptr.cast::<Location<'static>>().as_ref() },
        }
    }

    /// The task's name, if it was given one.
    #[inline]
    pub(super) fn name(&self) -> Option<&str> {
        self.named().map(|named| &*named.name)
    }
}

impl Drop for Origin {
    #[inline]
    fn drop(&mut self) {
        if let Some(named) = self.named_ptr() {
            // SAFETY: `new` leaked this box for us; nothing else frees it,
            // and the origin is going away.
            drop(unsafe { Box::from_raw(named.as_ptr()) });
        }
    }
}

// SAFETY: an origin owns a `Box<Named>` (a `Box<str>` and a shared static
// reference) or holds a `&'static Location`; all of these are Send and Sync.
unsafe impl Send for Origin {}
// SAFETY: as above; `&Origin` only gives out shared references.
unsafe impl Sync for Origin {}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn an_origin_is_one_word() {
        assert_eq!(std::mem::size_of::<Origin>(), std::mem::size_of::<usize>());
    }

    #[test]
    fn an_unnamed_origin_keeps_its_location() {
        let here = Location::caller();
        let origin = Origin::new(here, None);
        assert_eq!(origin.location(), here);
        assert_eq!(origin.name(), None);
    }

    #[test]
    fn a_named_origin_keeps_name_and_location() {
        let here = Location::caller();
        let origin = Origin::new(here, Some("worker".into()));
        assert_eq!(origin.location(), here);
        assert_eq!(origin.name(), Some("worker"));
    }
}
