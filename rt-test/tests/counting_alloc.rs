//! The counting allocator, installed as this test binary's global
//! allocator: a counter sees what is allocated and freed while it is alive.
//! One test only, so no other test thread allocates during the window.

use rt_test::alloc::{Counter, CountingAlloc};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

#[test]
fn counts_net_bytes_while_a_counter_is_alive() {
    let counter = Counter::start();
    let kept = std::hint::black_box(vec![0u8; 4096]);
    let grown = {
        let mut v: Vec<u64> = Vec::with_capacity(8);
        v.extend(0..64);
        std::hint::black_box(v)
    };
    let net = counter.net_bytes();
    assert!(
        (4096 + 64 * 8..4096 + 64 * 8 + 512).contains(&net),
        "net bytes {net}"
    );
    drop(kept);
    drop(grown);
    let net = counter.net_bytes();
    assert!(net.abs() < 512, "after freeing, net bytes {net}");
    drop(counter);

    // Nothing is counted once the counter is gone.
    let counter = Counter::start();
    let before = counter.net_bytes();
    drop(counter);
    let untracked = std::hint::black_box(vec![0u8; 1 << 16]);
    let counter = Counter::start();
    assert_eq!(counter.net_bytes(), 0);
    assert_eq!(before, 0);
    drop(untracked);
    assert!(counter.net_bytes() <= -(1 << 16));
}
