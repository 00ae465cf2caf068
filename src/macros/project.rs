//! Pin projection of tuples: from a pinned tuple to a pinned reference to
//! each of its fields. `join!` and `select!` pin all their futures together
//! as one tuple and reach each through this, so that the future they expand
//! to holds one pointer to its futures rather than one per future.

use core::pin::Pin;

/// A tuple whose fields can be reached pinned from the pinned tuple.
/// Implemented for tuples of 1 to 64 fields, the most `select!` takes.
pub trait ProjectTuple {
    /// A tuple of `Pin<&mut _>`, one per field.
    type Projected<'a>
    where
        Self: 'a;

    /// Each field of the pinned tuple, pinned.
    fn project(self: Pin<&mut Self>) -> Self::Projected<'_>;
}

/// Implements [`ProjectTuple`] for the tuple of the listed fields.
macro_rules! project_tuple {
    ($(($T:ident $i:tt))+) => {
        impl<$($T),+> ProjectTuple for ($($T,)+) {
            type Projected<'a> = ($(Pin<&'a mut $T>,)+) where Self: 'a;

            fn project(self: Pin<&mut Self>) -> Self::Projected<'_> {
                // SAFETY: the fields of a tuple are pinned structurally: a
                // tuple is `Unpin` only when every field is, it has no
                // `Drop` of its own that could move a field, it is not
                // packed, and this is the only way to reach its fields
                // from a `Pin<&mut>` to it, always pinned. The tuple is
                // not moved here; each field is only borrowed.
                let tuple = unsafe { self.get_unchecked_mut() };
                // SAFETY: as above: each field of the pinned tuple stays
                // where it is for as long as the tuple does.
                ($(unsafe { Pin::new_unchecked(&mut tuple.$i) },)+)
            }
        }
    };
}

/// Calls `project_tuple!` for every prefix of the list: 1 field, 2, ...
macro_rules! project_tuples {
    ([$($done:tt)*]) => {};
    ([$($done:tt)*] $next:tt $($rest:tt)*) => {
        project_tuple!($($done)* $next);
        project_tuples!([$($done)* $next] $($rest)*);
    };
}

project_tuples!([]
    (T0 0) (T1 1) (T2 2) (T3 3) (T4 4) (T5 5) (T6 6) (T7 7) (T8 8) (T9 9)
    (T10 10) (T11 11) (T12 12) (T13 13) (T14 14) (T15 15) (T16 16) (T17 17)
    (T18 18) (T19 19) (T20 20) (T21 21) (T22 22) (T23 23) (T24 24) (T25 25)
    (T26 26) (T27 27) (T28 28) (T29 29) (T30 30) (T31 31) (T32 32) (T33 33)
    (T34 34) (T35 35) (T36 36) (T37 37) (T38 38) (T39 39) (T40 40) (T41 41)
    (T42 42) (T43 43) (T44 44) (T45 45) (T46 46) (T47 47) (T48 48) (T49 49)
    (T50 50) (T51 51) (T52 52) (T53 53) (T54 54) (T55 55) (T56 56) (T57 57)
    (T58 58) (T59 59) (T60 60) (T61 61) (T62 62) (T63 63)
);

#[cfg(test)]
mod tests {
    use super::*;
    use core::marker::PhantomPinned;

    #[test]
    fn each_field_is_reached_in_place() {
        let tuple = core::pin::pin!((1u8, String::from("a"), PhantomPinned));
        let mut tuple = tuple;
        let before = &tuple.1 as *const String;
        let (first, mut second, _third) = tuple.as_mut().project();
        assert_eq!(*first, 1);
        second.as_mut().get_mut().push('b');
        assert_eq!(&*second as *const String, before);
        assert_eq!(tuple.1, "ab");
    }
}
