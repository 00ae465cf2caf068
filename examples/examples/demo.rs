//! The end-to-end demonstration: builds a runtime, then exercises tasks,
//! joins, aborts, panics, the blocking pool, `LocalSet`, and the macros.
//! Prints what it did and exits by itself.

use rt::task::{self, LocalSet};
use std::rc::Rc;
use std::time::Instant;

fn main() -> std::io::Result<()> {
    let started = Instant::now();
    let rt = rt::runtime::Builder::new_current_thread()
        .enable_all()
        .thread_name("demo-blocking")
        .build()?;

    // 1. Many small tasks, joined.
    let sum: u64 = rt.block_on(async {
        let handles: Vec<_> = (0..10_000u64)
            .map(|i| rt::spawn(async move { i }))
            .collect();
        let mut sum = 0;
        for h in handles {
            sum += h.await.expect("task completed");
        }
        sum
    });
    println!("spawned and joined 10000 tasks: sum = {sum}");

    // 2. A panic is caught and reported; the runtime keeps going. (The
    // default hook would print the expected panic; keep the output quiet.)
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let err = rt
        .block_on(rt.spawn(async { panic!("on purpose") }))
        .unwrap_err();
    std::panic::set_hook(hook);
    println!("a panicking task reported: {err}");

    // 3. Abort a task that would never finish.
    rt.block_on(async {
        let forever = rt::spawn(std::future::pending::<()>());
        task::yield_now().await;
        forever.abort();
        let err = forever.await.unwrap_err();
        println!("aborted task reported cancelled: {}", err.is_cancelled());
    });

    // 4. Blocking work on the blocking pool.
    let name = rt.block_on(async {
        task::spawn_blocking(|| std::thread::current().name().map(str::to_owned))
            .await
            .expect("blocking closure ran")
    });
    println!("blocking closure ran on thread {name:?}");

    // 5. !Send state on a LocalSet.
    let local = LocalSet::new();
    let counter = Rc::new(std::cell::Cell::new(0));
    let c = counter.clone();
    local.block_on(&rt, async move {
        let handles: Vec<_> = (0..100)
            .map(|_| {
                let c = c.clone();
                task::spawn_local(async move { c.set(c.get() + 1) })
            })
            .collect();
        for h in handles {
            h.await.expect("local task ran");
        }
    });
    println!("LocalSet ran 100 !Send tasks: counter = {}", counter.get());

    // 6. join! and select!.
    let (a, b) = rt.block_on(async { rt::join!(async { 1 }, async { 2 }) });
    let picked = rt.block_on(async {
        rt::select! {
            biased;
            v = async { "first" } => v,
            v = async { "second" } => v,
        }
    });
    println!("join! gave ({a}, {b}); biased select! picked {picked:?}");

    drop(rt);
    println!("demo finished in {:.1?}", started.elapsed());
    Ok(())
}
