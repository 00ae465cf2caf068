//! The attributes and macros under tokio's crate name: each expansion must
//! name `::tokio`, the only name a crate that patches this one in knows.

use std::time::Duration;

#[tokio::test]
async fn test_attribute_runs_on_a_current_thread_runtime() {
    let handle = tokio::runtime::Handle::current();
    assert_eq!(
        handle.runtime_flavor(),
        tokio::runtime::RuntimeFlavor::CurrentThread
    );
    assert_eq!(tokio::spawn(async { 7 }).await.unwrap(), 7);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn test_attribute_takes_tokio_options() {
    assert_eq!(
        tokio::runtime::Handle::current().runtime_flavor(),
        tokio::runtime::RuntimeFlavor::MultiThread
    );
}

#[tokio::test(start_paused = true)]
async fn select_picks_the_ready_branch() {
    let (tx, mut rx) = tokio::sync::oneshot::channel::<u32>();
    tx.send(3).unwrap();
    let picked = tokio::select! {
        biased;
        value = &mut rx => value.unwrap(),
        () = tokio::time::sleep(Duration::from_secs(60)) => 0,
    };
    assert_eq!(picked, 3);
}

#[tokio::test]
async fn join_try_join_and_pin_resolve() {
    let (a, b) = tokio::join!(async { 1 }, async { 2 });
    assert_eq!(a + b, 3);
    let joined: Result<(u8, u8), ()> = tokio::try_join!(async { Ok(1) }, async { Ok(2) });
    assert_eq!(joined, Ok((1, 2)));
    let future = async { 5 };
    tokio::pin!(future);
    assert_eq!((&mut future).await, 5);
}

mod renamed {
    use tokio as tokio1;

    #[tokio1::test(crate = "tokio1")]
    async fn crate_option_still_overrides_the_path() {
        assert_eq!(tokio1::spawn(async { 1 }).await.unwrap(), 1);
    }
}

#[test]
fn main_attribute_builds_a_runtime() {
    #[tokio::main(flavor = "current_thread")]
    async fn run() -> u32 {
        tokio::task::yield_now().await;
        11
    }
    #[tokio::main]
    async fn run_multi() -> u32 {
        tokio::spawn(async { 12 }).await.unwrap()
    }
    assert_eq!(run(), 11);
    assert_eq!(run_multi(), 12);
}
