//! No message is lost or reordered when eight producers on eight threads
//! feed one consumer through a small bounded channel.

use rt_sync::mpsc;
use rt_test::block_on;

const PRODUCERS: usize = 8;
/// Under Miri, still a few times the channel's capacity and block size.
const PER_PRODUCER: usize = if cfg!(miri) { 100 } else { 2_000 };

#[test]
fn eight_producers_lose_nothing() {
    let (tx, mut rx) = mpsc::channel::<(usize, usize)>(16);
    let producers: Vec<_> = (0..PRODUCERS)
        .map(|id| {
            let tx = tx.clone();
            std::thread::spawn(move || {
                block_on(async move {
                    for seq in 0..PER_PRODUCER {
                        tx.send((id, seq)).await.unwrap();
                    }
                })
            })
        })
        .collect();
    drop(tx);
    let mut next = [0usize; PRODUCERS];
    let received = block_on(async {
        let mut count = 0;
        while let Some((id, seq)) = rx.recv().await {
            assert_eq!(seq, next[id], "producer {id} out of order");
            next[id] += 1;
            count += 1;
        }
        count
    });
    for p in producers {
        p.join().unwrap();
    }
    assert_eq!(received, PRODUCERS * PER_PRODUCER);
    assert!(next.iter().all(|&n| n == PER_PRODUCER));
}

#[test]
fn eight_unbounded_producers_with_early_close() {
    let (tx, mut rx) = mpsc::unbounded_channel::<usize>();
    let producers: Vec<_> = (0..PRODUCERS)
        .map(|_| {
            let tx = tx.clone();
            std::thread::spawn(move || {
                let mut accepted = 0;
                for i in 0..PER_PRODUCER {
                    if tx.send(i).is_ok() {
                        accepted += 1;
                    }
                }
                accepted
            })
        })
        .collect();
    drop(tx);
    let mut received = 0;
    block_on(async {
        for _ in 0..100 {
            if rx.recv().await.is_some() {
                received += 1;
            }
        }
        rx.close();
        while rx.recv().await.is_some() {
            received += 1;
        }
    });
    let accepted: usize = producers.into_iter().map(|p| p.join().unwrap()).sum();
    assert_eq!(received, accepted, "every accepted message is delivered");
}
