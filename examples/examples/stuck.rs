//! A program stuck on purpose, and the task dump that says where.
//!
//! Two tasks move money between two accounts, each locking its source
//! account and then its destination: the classic lock-order deadlock. A
//! third task waits for orders on a channel nobody sends to. Once all three
//! are parked, the program takes a task dump and prints it: each idle task
//! comes with the chain of awaits it is parked at, innermost first, from
//! the rt resource (`Mutex::lock`, `mpsc::Receiver::recv`) up to the async
//! fns of this file. With `--smoke` it also checks that every chain names
//! the async fns involved. Either way it then exits by itself (runtime
//! shutdown cancels the stuck tasks).

use rt::runtime::Handle;
use rt::sync::{mpsc, Barrier, Mutex};
use rt::task::{TaskInfo, TaskState};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

type Account = Arc<Mutex<u64>>;

/// Locks `to` while the caller holds the source account.
async fn lock_destination(to: &Account) -> rt::sync::MutexGuard<'_, u64> {
    to.lock().await
}

/// Moves `amount` from `from` to `to`, locking `from` first. `reached`
/// counts the transfers that got as far as asking for their destination.
async fn transfer(
    from: Account,
    to: Account,
    amount: u64,
    both_locked: Arc<Barrier>,
    reached: Arc<AtomicUsize>,
) {
    let mut source = from.lock().await;
    // Wait until the other transfer holds its source too: the deadlock is
    // then certain instead of likely.
    both_locked.wait().await;
    reached.fetch_add(1, Ordering::SeqCst);
    let mut destination = lock_destination(&to).await;
    *source -= amount;
    *destination += amount;
}

/// Waits for the next order.
async fn next_order(orders: &mut mpsc::Receiver<u64>) -> Option<u64> {
    orders.recv().await
}

/// Serves orders until the channel closes.
async fn serve_orders(mut orders: mpsc::Receiver<u64>) {
    while let Some(order) = next_order(&mut orders).await {
        println!("order {order}");
    }
}

fn find<'a>(tasks: &'a [TaskInfo], name: &str) -> &'a TaskInfo {
    tasks
        .iter()
        .find(|t| t.name() == Some(name))
        .unwrap_or_else(|| panic!("no task named {name:?}"))
}

/// Checks that `name`'s trace names each of `parts`, innermost first.
fn check_chain(tasks: &[TaskInfo], name: &str, parts: &[&str]) -> Result<(), String> {
    let info = find(tasks, name);
    let trace = info
        .trace()
        .ok_or_else(|| format!("{name}: no trace ({:?})", info.state()))?;
    let chain = trace
        .chains()
        .next()
        .ok_or_else(|| format!("{name}: no chain in\n{trace}"))?;
    let mut from = 0;
    for part in parts {
        let at = chain[from..]
            .iter()
            .position(|frame| frame.name().contains(part))
            .ok_or_else(|| format!("{name}: {part:?} missing (in order) from\n{trace}"))?;
        from += at + 1;
    }
    Ok(())
}

#[rt::main]
async fn main() {
    let smoke = std::env::args().any(|a| a == "--smoke");
    examples::cli::exit_if_stuck(Duration::from_secs(60));
    let a: Account = Arc::new(Mutex::new(100));
    let b: Account = Arc::new(Mutex::new(100));
    let both_locked = Arc::new(Barrier::new(2));
    let reached = Arc::new(AtomicUsize::new(0));
    let (orders_tx, orders_rx) = mpsc::channel::<u64>(8);
    let names = ["transfer a->b", "transfer b->a", "orders"];
    rt::task::Builder::new()
        .name(names[0])
        .spawn(transfer(
            a.clone(),
            b.clone(),
            10,
            both_locked.clone(),
            reached.clone(),
        ))
        .unwrap();
    rt::task::Builder::new()
        .name(names[1])
        .spawn(transfer(b, a, 20, both_locked, reached.clone()))
        .unwrap();
    rt::task::Builder::new()
        .name(names[2])
        .spawn(serve_orders(orders_rx))
        .unwrap();

    // Wait until the three are parked where they stay. A transfer that has
    // counted itself in `reached` and is idle is parked at its destination
    // lock, the only await after the count (the count is read before the
    // dump, so the poll that made it has ended if the dump says idle). Poll
    // counts cannot say as much: on two workers the first transfer may
    // pass the barrier in its first poll, when the second arrives while
    // that poll still runs. The orders task is idle at its first `recv`
    // once it has been polled.
    let dump = loop {
        let both_reached = reached.load(Ordering::SeqCst) == 2;
        let dump = Handle::current().dump();
        let idle = names.iter().all(|name| {
            dump.tasks()
                .iter()
                .any(|t| t.name() == Some(*name) && t.state() == TaskState::Idle)
        });
        if both_reached && idle && find(dump.tasks(), names[2]).poll_count() > 0 {
            break dump;
        }
        rt::time::sleep(Duration::from_millis(1)).await;
    };
    println!("{dump}");

    if smoke {
        let transfer_chain = [
            "Mutex<T>::lock",
            "stuck::lock_destination",
            "stuck::transfer",
        ];
        let orders_chain = [
            "Receiver<T>::recv",
            "stuck::next_order",
            "stuck::serve_orders",
        ];
        let checks = [
            check_chain(dump.tasks(), names[0], &transfer_chain),
            check_chain(dump.tasks(), names[1], &transfer_chain),
            check_chain(dump.tasks(), names[2], &orders_chain),
        ];
        let failures: Vec<String> = checks.into_iter().filter_map(Result::err).collect();
        if !failures.is_empty() {
            eprintln!("stuck: {}", failures.join("\n"));
            std::process::exit(1);
        }
        println!("stuck: every chain names its async fns");
    }
    drop(orders_tx);
}
