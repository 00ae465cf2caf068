//! `pin!`: pin values on the stack of the current function or future.

/// Pins one or more values on the stack, shadowing each name with a
/// `Pin<&mut T>` to the value.
///
/// The values are moved into the macro's own locals, so the originals can no
/// longer be reached and the pinned values cannot move again: no `unsafe`
/// and no allocation are involved. Pinning is what polling a future that is
/// not `Unpin` requires, for example to `.await` a `&mut` to it in a loop or
/// to use it as a `select!` branch more than once.
///
/// Two forms are accepted: names of existing variables, and `let`
/// statements that declare and pin in one step.
///
/// ```
/// use std::future::Future;
/// use std::pin::Pin;
///
/// async fn answer() -> u32 {
///     42
/// }
///
/// let first = answer();
/// let second = answer();
/// rt::pin!(first, second);
/// let _: Pin<&mut dyn Future<Output = u32>> = first;
/// let _: Pin<&mut dyn Future<Output = u32>> = second;
///
/// rt::pin! {
///     let third = answer();
/// }
/// let _: Pin<&mut dyn Future<Output = u32>> = third;
/// ```
#[macro_export]
macro_rules! pin {
    ($($name:ident),* $(,)?) => {
        $(
            #[allow(unused_mut)]
            let mut $name = $crate::macros::support::pin!($name);
        )*
    };
    ($(let $name:ident = $value:expr;)*) => {
        $(
            #[allow(unused_mut)]
            let mut $name = $crate::macros::support::pin!($value);
        )*
    };
}
