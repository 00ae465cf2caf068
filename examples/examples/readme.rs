//! The example from the README, kept compiling and running by the smoke
//! tests.

use rt::sync::mpsc;

#[rt::main]
async fn main() {
    let (tx, mut rx) = mpsc::channel(16);
    for id in 0..4 {
        let tx = tx.clone();
        rt::spawn(async move {
            for n in 0..3 {
                tx.send((id, n)).await.unwrap();
            }
        });
    }
    drop(tx);
    let mut total = 0;
    while let Some((_id, n)) = rx.recv().await {
        total += n;
    }
    let (a, b) = rt::join!(async { 1 }, rt::spawn(async { 2 }));
    println!("received {total}, joined {a} + {}", b.unwrap());
}
