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
use std::sync::Arc;
use std::time::Duration;

type Account = Arc<Mutex<u64>>;

/// Locks `to` while the caller holds the source account.
async fn lock_destination(to: &Account) -> rt::sync::MutexGuard<'_, u64> {
    to.lock().await
}

/// Moves `amount` from `from` to `to`, locking `from` first.
async fn transfer(from: Account, to: Account, amount: u64, both_locked: Arc<Barrier>) {
    let mut source = from.lock().await;
    // Wait until the other transfer holds its source too: the deadlock is
    // then certain instead of likely.
    both_locked.wait().await;
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
    let (orders_tx, orders_rx) = mpsc::channel::<u64>(8);
    let names = ["transfer a->b", "transfer b->a", "orders"];
    rt::task::Builder::new()
        .name(names[0])
        .spawn(transfer(a.clone(), b.clone(), 10, both_locked.clone()))
        .unwrap();
    rt::task::Builder::new()
        .name(names[1])
        .spawn(transfer(b, a, 20, both_locked))
        .unwrap();
    rt::task::Builder::new()
        .name(names[2])
        .spawn(serve_orders(orders_rx))
        .unwrap();

    // Wait until the three are parked: all idle, and the transfers polled
    // three times between them (the first at the barrier is polled again
    // when the second arrives; the second goes straight on).
    let dump = loop {
        let dump = Handle::current().dump();
        let idle = names.iter().all(|name| {
            dump.tasks()
                .iter()
                .any(|t| t.name() == Some(*name) && t.state() == TaskState::Idle)
        });
        let transfer_polls: u64 = names[..2]
            .iter()
            .map(|name| find(dump.tasks(), name).poll_count())
            .sum();
        if idle && transfer_polls >= 3 && find(dump.tasks(), names[2]).poll_count() > 0 {
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
