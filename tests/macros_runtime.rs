//! `#[rt::main]`/`#[rt::test]` on the real current-thread runtime, and the
//! seed reaching `select!`'s random start.

#[rt::test]
async fn the_default_test_runtime_runs_the_body() {
    let (a, b) = rt::join!(async { 1 }, async { 2 });
    assert_eq!(a + b, 3);
}

#[rt::test(flavor = "current_thread")]
async fn a_test_may_return_a_result() -> Result<(), std::num::ParseIntError> {
    let n: u32 = "5".parse()?;
    assert_eq!(n, 5);
    Ok(())
}

#[rt::test]
async fn spawned_tasks_run_inside_a_test() {
    let h = rt::spawn(async { 21 * 2 });
    assert_eq!(h.await.unwrap(), 42);
}

#[rt::main(flavor = "current_thread")]
async fn main_like(value: u32) -> u32 {
    rt::select! {
        v = async { value * 2 } => v,
    }
}

#[test]
fn a_main_function_blocks_on_its_body() {
    assert_eq!(main_like(21), 42);
}

/// Which of four always-ready branches 64 selects pick, in order.
async fn select_choices() -> Vec<u32> {
    let mut picks = Vec::new();
    for _ in 0..64 {
        picks.push(rt::select! {
            v = async { 0 } => v,
            v = async { 1 } => v,
            v = async { 2 } => v,
            v = async { 3 } => v,
        });
    }
    picks
}

fn choices_with_seed(seed: u64) -> Vec<u32> {
    rt::runtime::Builder::new_current_thread()
        .rng_seed(rt::runtime::RngSeed::from_u64(seed))
        .enable_all()
        .build()
        .expect("runtime builds")
        .block_on(select_choices())
}

#[test]
fn a_seeded_runtime_makes_the_same_select_choices() {
    let first = choices_with_seed(7);
    assert_eq!(first, choices_with_seed(7));
    assert!((0..4).all(|branch| first.contains(&branch)));
    assert_ne!(first, choices_with_seed(8));
}

#[rt::test(seed = 7)]
async fn the_seed_option_seeds_the_runtime() {
    let from_attribute = select_choices().await;
    // A runtime cannot be started inside another on the same thread.
    let from_builder = std::thread::spawn(|| choices_with_seed(7))
        .join()
        .expect("the other runtime ran");
    assert_eq!(from_attribute, from_builder);
}
