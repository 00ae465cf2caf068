//! `AsRawFd` and `AsFd` for the socket types, written once.

/// Implements `AsRawFd` and `AsFd` for socket types whose `io` field has an
/// `as_raw_fd` method and owns the descriptor.
macro_rules! impl_as_fd {
    ($($ty:ty),* $(,)?) => {$(
        impl std::os::fd::AsRawFd for $ty {
            fn as_raw_fd(&self) -> std::os::fd::RawFd {
                self.io.as_raw_fd()
            }
        }

        impl std::os::fd::AsFd for $ty {
            fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
                // SAFETY: the descriptor is owned by `self.io` and stays open
                // while `self` is borrowed.
                unsafe { std::os::fd::BorrowedFd::borrow_raw(self.io.as_raw_fd()) }
            }
        }
    )*};
}

pub(crate) use impl_as_fd;
