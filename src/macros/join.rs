//! `join!` and `try_join!`: wait on several futures concurrently inside the
//! current task.

/// Waits on several futures concurrently and returns a tuple of all their
/// outputs, in the order the futures were written.
///
/// The futures run inside the current task, interleaved, not in parallel:
/// to run them on other worker threads, spawn them instead. Each future is
/// evaluated once and pinned in place (nothing is boxed or allocated); each
/// time the `join!` is polled it polls every future that has not finished
/// yet, and drops a future as soon as it has produced its output. The first
/// future polled rotates from one poll to the next so that none is always
/// served first; with `biased;` before the futures they are always polled in
/// the order written.
///
/// `join!` can only be used inside an `async` function or block. With no
/// futures it returns `()`.
///
/// ```
/// # fn block_on<F: std::future::Future>(future: F) -> F::Output {
/// #     let mut future = std::pin::pin!(future);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop {
/// #         if let std::task::Poll::Ready(out) = future.as_mut().poll(&mut cx) {
/// #             return out;
/// #         }
/// #     }
/// # }
/// async fn length(text: &str) -> usize {
///     text.len()
/// }
///
/// block_on(async {
///     let (a, b, c) = rt::join!(length("one"), length("three"), async { 'x' });
///     assert_eq!((a, b, c), (3, 5, 'x'));
///
///     let (first, second) = rt::join!(biased; async { 1 }, async { 2 });
///     assert_eq!(first + second, 3);
/// });
/// ```
#[macro_export]
macro_rules! join {
    ($($input:tt)*) => {
        $crate::macros::support::join_inner! { $crate; $($input)* }
    };
}

/// Waits on several futures that return `Result`s concurrently, and returns
/// either `Ok` with a tuple of all their values or the first `Err`.
///
/// It runs like [`join!`](crate::join!), except that as soon as one future
/// returns an `Err`, the `try_join!` returns that error and drops the
/// futures that have not finished. All the futures must have the same error
/// type. `biased;` is accepted as for `join!`.
///
/// ```
/// # fn block_on<F: std::future::Future>(future: F) -> F::Output {
/// #     let mut future = std::pin::pin!(future);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop {
/// #         if let std::task::Poll::Ready(out) = future.as_mut().poll(&mut cx) {
/// #             return out;
/// #         }
/// #     }
/// # }
/// async fn parse(text: &str) -> Result<u32, std::num::ParseIntError> {
///     text.parse()
/// }
///
/// block_on(async {
///     let sum = rt::try_join!(parse("1"), parse("2")).map(|(a, b)| a + b);
///     assert_eq!(sum, Ok(3));
///
///     let failed = rt::try_join!(parse("1"), parse("two"));
///     assert!(failed.is_err());
/// });
/// ```
#[macro_export]
macro_rules! try_join {
    ($($input:tt)*) => {
        $crate::macros::support::try_join_inner! { $crate; $($input)* }
    };
}
