//! `#[rt::main]` and `#[rt::test]` on the multi-thread runtime:
//! `flavor = "multi_thread"` and `worker_threads`.

#[rt::test(flavor = "multi_thread")]
async fn test_on_the_multi_thread_runtime() {
    let (a, b) = rt::join!(async { 1 }, async { 2 });
    assert_eq!(a + b, 3);
    assert_eq!(
        rt::runtime::Handle::current().runtime_flavor(),
        rt::runtime::RuntimeFlavor::MultiThread
    );
}

#[rt::test(flavor = "multi_thread", worker_threads = 1)]
async fn test_with_one_worker() {
    let picked = rt::select! {
        v = async { 5 } => v,
        else => 0,
    };
    assert_eq!(picked, 5);
    assert_eq!(rt::runtime::Handle::current().num_workers(), 1);
}

#[rt::test(flavor = "multi_thread", worker_threads = 4)]
async fn test_with_four_workers_returning_a_result() -> Result<(), String> {
    let pair = rt::try_join!(async { Ok::<_, String>(1) }, async { Ok(2) })?;
    assert_eq!(pair, (1, 2));
    assert_eq!(rt::runtime::Handle::current().num_workers(), 4);
    Ok(())
}

#[rt::main]
async fn main_with_the_default_flavor() -> u32 {
    let (a, b) = rt::join!(async { 20 }, async { 22 });
    a + b
}

#[rt::main(worker_threads = 2)]
async fn main_with_two_workers() -> u32 {
    rt::select! {
        v = rt::spawn(async { 7 }) => v.unwrap(),
    }
}

#[rt::main(flavor = "multi_thread", worker_threads = 3)]
async fn main_with_explicit_flavor(base: u32) -> u32 {
    base + 1
}

#[test]
fn main_flavors_block_on_their_body() {
    assert_eq!(main_with_the_default_flavor(), 42);
    assert_eq!(main_with_two_workers(), 7);
    assert_eq!(main_with_explicit_flavor(9), 10);
}

#[rt::test(start_paused = true)]
async fn test_starting_with_the_clock_paused() {
    let start = rt::time::Instant::now();
    // A paused clock jumps straight to the timer once the runtime is idle.
    rt::time::sleep(std::time::Duration::from_secs(3600)).await;
    assert!(start.elapsed() >= std::time::Duration::from_secs(3600));
}

#[rt::test]
async fn test_has_timers_enabled() {
    let r = rt::time::timeout(
        std::time::Duration::from_millis(1),
        std::future::pending::<()>(),
    )
    .await;
    assert!(r.is_err());
}
