//! Eight producers on the multi-thread runtime: every message arrives,
//! exactly once and in per-producer order.

use rt_core::runtime::Builder;
use rt_sync::mpsc;

#[test]
fn eight_producers_lose_nothing_on_the_multi_thread_runtime() {
    let rt = Builder::new_multi_thread()
        .worker_threads(4)
        .build()
        .unwrap();
    let per_producer = if cfg!(miri) { 40 } else { 2_000 };
    rt.block_on(async move {
        let (tx, mut rx) = mpsc::channel::<(usize, usize)>(16);
        for producer in 0..8 {
            let tx = tx.clone();
            drop(rt_core::spawn(async move {
                for seq in 0..per_producer {
                    tx.send((producer, seq)).await.unwrap();
                }
            }));
        }
        drop(tx);
        let mut next = [0usize; 8];
        let mut total = 0;
        while let Some((producer, seq)) = rx.recv().await {
            assert_eq!(seq, next[producer], "producer {producer} out of order");
            next[producer] += 1;
            total += 1;
        }
        assert_eq!(total, 8 * per_producer);
    });
}

#[test]
#[should_panic(expected = "Cannot block the current thread from within a runtime")]
fn blocking_recv_inside_a_runtime_panics() {
    let rt = Builder::new_current_thread().build().unwrap();
    rt.block_on(async {
        let (_tx, mut rx) = mpsc::channel::<u8>(1);
        let _ = rx.blocking_recv();
    });
}
