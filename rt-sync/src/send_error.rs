//! The shape of a channel's `SendError<T>`, written once. Each channel
//! module still defines its own type (`mpsc::error::SendError`,
//! `watch::error::SendError`, `broadcast::error::SendError`), as tokio
//! does, so user code can tell them apart and implement traits for each.

/// Defines `pub struct SendError<T>(pub T)` with the given doc comment:
/// the unsent value comes back; `Display` says "channel closed" and
/// `Debug` hides the value, so `T` needs neither trait.
macro_rules! define_send_error {
    ($(#[$doc:meta])*) => {
        $(#[$doc])*
        #[derive(PartialEq, Eq, Clone, Copy)]
        pub struct SendError<T>(pub T);

        impl<T> ::std::fmt::Debug for SendError<T> {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.debug_struct("SendError").finish_non_exhaustive()
            }
        }

        impl<T> ::std::fmt::Display for SendError<T> {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str("channel closed")
            }
        }

        impl<T> ::std::error::Error for SendError<T> {}
    };
}

pub(crate) use define_send_error;
