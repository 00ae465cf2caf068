//! `#[rt::main]` and `#[rt::test]` with `flavor = "local"` (a
//! `LocalRuntime`, where `spawn_local` works) and `name = "..."`.

use std::time::Duration;

#[rt::test(flavor = "local")]
async fn the_local_flavor_runs_not_send_tasks() {
    let shared = std::rc::Rc::new(std::cell::Cell::new(0));
    let inner = shared.clone();
    rt::task::spawn_local(async move { inner.set(1) })
        .await
        .unwrap();
    rt::time::sleep(Duration::from_millis(1)).await;
    assert_eq!(shared.get(), 1);
}

#[rt::test(name = "named-test-runtime")]
async fn the_name_option_names_the_runtime() {
    assert_eq!(
        rt::runtime::Handle::current().name(),
        Some("named-test-runtime")
    );
}

#[rt::main(flavor = "local", name = "local-main")]
async fn local_main() -> Option<String> {
    let name = rt::runtime::Handle::current().name().map(str::to_owned);
    rt::task::spawn_local(async move { name }).await.unwrap()
}

#[test]
fn main_takes_the_local_flavor_and_a_name() {
    assert_eq!(local_main().as_deref(), Some("local-main"));
}
