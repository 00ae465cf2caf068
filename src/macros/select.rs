//! `select!`: wait on several futures and run the handler of the first to
//! complete with a matching output.

/// Waits on several futures at once, inside the current task, and runs the
/// handler of the first one that completes with an output matching its
/// pattern; the other futures are then dropped.
///
/// ```text
/// rt::select! {
///     [biased;]
///     <pattern> = <future expression> [, if <condition>] => <handler>,
///     ...
///     [else => <handler>]
/// }
/// ```
///
/// The whole `select!` is an expression whose value is that of the handler
/// that ran, so every handler must have the same type. It can only be used
/// inside an `async` function or block, and takes up to 64 branches.
///
/// # How it runs
///
/// 1. Every `if` condition is evaluated, in order. A branch whose condition
///    is false is *disabled*: its future expression is still evaluated, but
///    the future is never polled.
/// 2. Every future expression is evaluated once, in order, and the future
///    is pinned in place on the stack (nothing is boxed).
/// 3. Each time the `select!` is polled it polls the enabled branches,
///    starting from a randomly chosen one, so that an always-ready branch
///    cannot starve the others. With `biased;` as the first token it polls
///    them in the order they are written instead, which is cheaper and
///    deterministic, but then fairness is up to you. If the task has used
///    up its cooperative budget, it yields before polling anything.
/// 4. When a future completes, its branch is disabled. If the output
///    matches the pattern, every future is dropped and the handler runs
///    with the pattern's bindings. If it does not match, the `select!` goes
///    on waiting for the remaining branches.
/// 5. When every branch is disabled, the `else` handler runs; without an
///    `else` branch the `select!` panics.
///
/// The handlers run outside of any closure: `return`, `?`, `break` and
/// `continue` in a handler act on the surrounding function or loop.
///
/// The random start uses the per-thread generator of rt's runtime; a
/// runtime built with a seed (`#[rt::test(seed = 7)]`) makes the choice the
/// same on every run.
///
/// # Cancellation
///
/// The futures that lose are dropped. In a loop, use futures that lose
/// nothing when dropped (such as a channel's `recv()`), or create the
/// future once outside the loop, pin it with [`pin!`](crate::pin!), and
/// select on `&mut future` so that the same future is resumed each time.
///
/// # Examples
///
/// Waiting on two computations and taking whichever finishes first:
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
/// async fn double(x: u32) -> u32 {
///     x * 2
/// }
///
/// block_on(async {
///     let doubled = rt::select! {
///         v = double(1) => v,
///         v = double(2) => v,
///     };
///     assert!(doubled == 2 || doubled == 4);
/// });
/// ```
///
/// Patterns and conditions, `biased;` and `else`: a `None` disables its
/// branch, a false condition disables its branch before anything is polled,
/// and `else` runs once nothing is left to wait for.
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
/// block_on(async {
///     let allow_second = false;
///     let picked = rt::select! {
///         biased;
///         Some(v) = async { None::<u32> } => v,
///         v = async { 2 }, if allow_second => v,
///         else => 0,
///     };
///     assert_eq!(picked, 0);
/// });
/// ```
#[macro_export]
macro_rules! select {
    ($($input:tt)*) => {
        $crate::macros::support::select_inner! { $crate; $($input)* }
    };
}
